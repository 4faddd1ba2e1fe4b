// Which of a card's steps are drawn: the newest `shown`, the rest counted as hidden.

/** Steps drawn at first, and added per "show more". Above the hub's cap, so a live card is never paged. */
export const StepPage = 200;

export function stepWindow(ids: readonly string[], shown: number): { readonly hidden: number; readonly visible: readonly string[] } {
  const hidden = Math.max(0, ids.length - Math.max(0, shown));
  return { hidden, visible: hidden === 0 ? ids : ids.slice(hidden) };
}

/** How many of the newest steps to draw so that every one of `ids` listed in `wanted` is drawn (0 for none). */
export function stepsToShow(ids: readonly string[], wanted: readonly string[] | undefined): number {
  if (wanted === undefined || wanted.length === 0) return 0;
  const index = ids.findIndex((id) => wanted.includes(id));
  return index === -1 ? 0 : ids.length - index;
}
