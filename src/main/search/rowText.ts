// An indexed row read back from its transcript: the full-text index keeps no copy of the text (it
// would double the database), and the JSONL files are the source of truth anyway. A row is found
// by its place (rowPlaces.ts): the line at its byte offset is extracted again with the indexer's
// own code, so the text is exactly what was indexed, and the nth row of that line must still be
// the same event of the same kind. A long text's piece is cut from it as the indexer cut it
// (textPieces.ts). A file changed since it was indexed gives no row, never a wrong one: the next
// scan re-reads it.
import type { Json, JsonObject } from "../../shared/protocol/messages.js";
import { isObject } from "../../shared/jsonFields.js";
import type { ClientEvent } from "../../shared/events.js";
import { eventStream, readLineAt, type LineEvents } from "../history/index.js";
import { parseJsonLine } from "../history/index.js";
import { emptyExtracted, emptyFacts, extractLine, projectRow, type TextRow } from "./extract.js";
import type { RowPlace } from "./rowPlaces.js";
import { pieceOf } from "./textPieces.js";

/** A row read back, with the event of its line it comes from (none for a title or the project's name). */
export interface RowSource {
  readonly row: TextRow;
  readonly event?: ClientEvent;
}

/**
 * The row at `place` in the file at `path` (its text the piece the place names), or undefined when
 * its line is gone or no longer holds it.
 */
export function readRow(path: string, place: RowPlace): TextRow | undefined {
  return readRowSource(path, place)?.row;
}

/** The row at `place` (as readRow) and its event; a project row has none (no line holds it). */
export function readRowSource(path: string, place: RowPlace): RowSource | undefined {
  if (place.kind === "project") return place.piece === 0 ? { row: projectRow(path) } : undefined;
  const whole = wholeRow(path, place);
  const text = whole === undefined ? undefined : pieceOf(whole.row.text, place.piece);
  return text === undefined ? undefined : { ...whole!, row: { ...whole!.row, text } };
}

function wholeRow(path: string, place: RowPlace): RowSource | undefined {
  const line = readLineAt(path, place.offset);
  if (line === undefined) return undefined;
  const out = emptyExtracted();
  const inner = eventStream({ kind: "lines" });
  // The events of each value of the line (a glued line has several), by the rows each gave.
  const eventsOfRow: (readonly ClientEvent[])[] = [];
  let lastEvents: readonly ClientEvent[] = [];
  const lines: LineEvents = {
    line(value) {
      lastEvents = inner.line(value);
      return lastEvents;
    },
    get tooDeepLines() {
      return inner.tooDeepLines;
    },
  };
  try {
    for (const value of parseJsonLine(line)?.values ?? []) {
      if (!isObject(value as Json)) continue;
      const before = out.rows.length;
      extractLine(lines, value as JsonObject, place.line, place.offset, false, emptyFacts(), out);
      for (let i = before; i < out.rows.length; i++) eventsOfRow[i] = lastEvents;
    }
  } catch {
    return undefined; // a line the indexer could not extract has no rows; one hit never fails a search
  }
  const row = out.rows[place.nth];
  if (row === undefined || row.event !== place.event || row.kind !== place.kind) return undefined;
  const event = row.kind === "title" ? undefined : eventsOfRow[place.nth]?.[place.event];
  return event === undefined ? { row } : { row, event };
}
