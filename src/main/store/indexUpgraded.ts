// What Baton says when it opened an index an older Baton wrote and upgraded it to a schema that
// holds nothing yet (StoreService.info().upgradedFrom): the next index run reads every history
// file again, once. No SQLite here: the command line imports it on its main thread.

export function indexUpgradedMessage(from: number, to: number | null): string {
  return (
    `the search index was written by an older Baton (schema ${from}) and is upgraded to schema ${to ?? "?"}: ` +
    "every history file is read again, once (whole tool outputs, CJK words, titles and project folders become searchable; sessions are told apart by project folder)"
  );
}
