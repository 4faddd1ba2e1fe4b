// A prompt sent from an IDE extension starts with what the IDE showed at the time, as tagged text
// blocks (`<ide_opened_file>The user opened the file /x/y.ts in the IDE. …</ide_opened_file>`,
// `<ide_selection>The user selected the lines 3 to 9 from /x/y.ts: …</ide_selection>`). This
// separates that context from the person's words, so a title is what they wrote and the
// transcript can show the context as a short note. Pure; text stays text.

export interface IdeNote {
  /** The tag, e.g. `ide_opened_file`. */
  readonly tag: string;
  /** What a note says, e.g. "Opened in IDE: /x/y.ts". */
  readonly text: string;
}

export interface IdeSplit {
  readonly notes: readonly IdeNote[];
  /** The prompt without its leading IDE context (the whole text when it has none). */
  readonly words: string;
}

const MaxNoteChars = 160;
const TagName = /^<(ide_[a-z_]{1,40})>/;
const Opened = /^The user opened the file (.+?) in the IDE\b/;
const Selected = /^The user selected the lines (\d+) to (\d+) from (.+?):(?:\n|$)/;

export function splitIdeContext(text: string): IdeSplit {
  const notes: IdeNote[] = [];
  let at = 0;
  for (;;) {
    const start = skipSpace(text, at);
    const open = TagName.exec(text.slice(start, start + 48));
    if (open === null) break;
    const tag = open[1]!;
    const close = text.indexOf(`</${tag}>`, start + open[0].length);
    if (close === -1) break;
    notes.push({ tag, text: noteText(tag, text.slice(start + open[0].length, close).trim()) });
    at = close + tag.length + 3;
  }
  return notes.length === 0 ? { notes, words: text } : { notes, words: text.slice(at).trim() };
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && /\s/.test(text[at]!)) at++;
  return at;
}

function noteText(tag: string, content: string): string {
  const opened = tag === "ide_opened_file" ? Opened.exec(content) : null;
  if (opened !== null) return clip(`Opened in IDE: ${opened[1]!}`);
  const selected = tag === "ide_selection" ? Selected.exec(content) : null;
  if (selected !== null) return clip(`Selected in IDE: lines ${selected[1]!}–${selected[2]!} of ${selected[3]!}`);
  const firstLine = content.split("\n", 1)[0]!.trim();
  return clip(`IDE context: ${firstLine === "" ? tag.slice(4).replace(/_/g, " ") : firstLine}`);
}

function clip(text: string): string {
  return text.length <= MaxNoteChars ? text : `${text.slice(0, MaxNoteChars - 1)}…`;
}
