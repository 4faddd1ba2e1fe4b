// An indexed row read back from its transcript: the full-text index keeps no copy of the text (it
// would double the database), and the JSONL files are the source of truth anyway. A row is found
// by its place (rowPlaces.ts): the line at its byte offset is extracted again with the indexer's
// own code, so the text is exactly what was indexed, and the nth row of that line must still be
// the same event of the same kind. A long text's piece is cut from it as the indexer cut it
// (textPieces.ts). A file changed since it was indexed gives no row, never a wrong one: the next
// scan re-reads it.
import fs from "node:fs";
import type { Json, JsonObject } from "../../shared/protocol/messages.js";
import { isObject } from "../../shared/jsonFields.js";
import { DefaultMaxLineBytes, eventStream } from "../history/index.js";
import { openRegularFileSync } from "../platform/regularFile.js";
import { parseJsonLine } from "../history/index.js";
import { emptyExtracted, emptyFacts, extractLine, projectRow, type TextRow } from "./extract.js";
import type { RowPlace } from "./rowPlaces.js";
import { pieceOf } from "./textPieces.js";

const ReadBytes = 64 * 1024;

/**
 * The row at `place` in the file at `path` (its text the piece the place names), or undefined when
 * its line is gone or no longer holds it.
 */
export function readRow(path: string, place: RowPlace): TextRow | undefined {
  if (place.kind === "project") return place.piece === 0 ? projectRow(path) : undefined;
  const row = wholeRow(path, place);
  const text = row === undefined ? undefined : pieceOf(row.text, place.piece);
  return text === undefined ? undefined : { ...row!, text };
}

function wholeRow(path: string, place: RowPlace): TextRow | undefined {
  const line = readLineAt(path, place.offset);
  if (line === undefined) return undefined;
  const out = emptyExtracted();
  const lines = eventStream({ kind: "lines" });
  try {
    for (const value of parseJsonLine(line)?.values ?? []) {
      if (isObject(value as Json)) extractLine(lines, value as JsonObject, place.line, place.offset, false, emptyFacts(), out);
    }
  } catch {
    return undefined; // a line the indexer could not extract has no rows; one hit never fails a search
  }
  const row = out.rows[place.nth];
  return row !== undefined && row.event === place.event && row.kind === place.kind ? row : undefined;
}

/**
 * The line that starts at `offset`, without its newline; undefined if the file or the line is gone.
 * A line longer than the reader takes was never indexed, so reading stops there.
 */
function readLineAt(path: string, offset: number): string | undefined {
  let fd: number;
  try {
    fd = openRegularFileSync(path);
  } catch {
    return undefined;
  }
  try {
    const parts: Buffer[] = [];
    let total = 0;
    for (let at = offset; total < DefaultMaxLineBytes; ) {
      const buf = Buffer.allocUnsafe(ReadBytes);
      const n = fs.readSync(fd, buf, 0, ReadBytes, at);
      if (n === 0) break;
      const newline = buf.subarray(0, n).indexOf(10);
      parts.push(buf.subarray(0, newline === -1 ? n : newline));
      total += newline === -1 ? n : newline;
      if (newline !== -1) break;
      at += n;
    }
    if (total === 0) return undefined;
    return new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(parts, total)).trim();
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}
