// What the session list reads of a transcript: the lines near its start (cwd, first time, the
// model's title, which the CLI writes first, the first prompt) and near its end (last time,
// branch, the newest titles: the CLI appends a renamed title and writes its session metadata
// again at the end). The middle of a big file is not read. A line longer than the list needs (a
// pasted image, a huge tool output) is passed over in chunks and never held in memory, so a folder
// with a 60 MB line lists in bounded memory.

import type { JsonObject } from "../../shared/protocol/messages.js";
import { emptyStats, readJsonl, type JsonlStats } from "./jsonlReader.js";
import { TailLineParser } from "./firstScreenWindow.js";
import { isHeavyLine } from "./heavyLines.js";
import { openRegularFile } from "../platform/regularFile.js";
import { TailReader } from "./tailReader.js";

/** Lines starting in the file's first HeadBytes are read, and the last TailBytes of lines. */
export const HeadBytes = 256 * 1024;
export const TailBytes = 256 * 1024;
/** The longest line the list parses; titles, prompts and envelopes are far shorter. */
export const ListLineBytes = 1024 * 1024;
/** How far either end may be scanned past lines too long to parse before giving up on that end. */
const ScanBytes = 64 * 1024 * 1024;
const ChunkBytes = 256 * 1024;

export interface SessionEnds {
  /** The lines read, in file order: the head's, then the tail's. */
  readonly lines: readonly JsonObject[];
  /** Every line of the file was parsed (none skipped as too long, none left in the middle). */
  readonly whole: boolean;
  readonly size: number;
  readonly mtimeMs: number;
  readonly stats: JsonlStats;
}

export async function readSessionEnds(file: string): Promise<SessionEnds> {
  const handle = await openRegularFile(file);
  let size: number;
  let mtimeMs: number;
  try {
    ({ size, mtimeMs } = await handle.stat());
  } finally {
    await handle.close();
  }
  const head: JsonObject[] = [];
  let headEnd: number | undefined;
  const scanEnd = Math.min(size, ScanBytes);
  const read = await readJsonl(file, {
    end: scanEnd,
    final: scanEnd === size,
    maxLineBytes: ListLineBytes,
    chunkBytes: ChunkBytes,
    onRecord: ({ value, offset, heavyBytesBefore }) => {
      // Heavy lines (a 2.1.332 prompt snapshot first in the file) are passed over unread: they do
      // not use up the head, or a big snapshot would push the first prompt out of it.
      if (offset - (heavyBytesBefore ?? 0) >= HeadBytes) {
        headEnd = offset;
        return false;
      }
      head.push(value);
      return true;
    },
  });
  const from = headEnd ?? read.nextOffset;
  const tail = from < size ? await readTail(file, from, size) : { lines: [], stats: emptyStats(), reachedHead: true };
  const stats = sumStats(read.stats, tail.stats);
  return { lines: [...head, ...tail.lines], whole: tail.reachedHead && stats.tooLong === 0, size, mtimeMs, stats };
}

interface Tail {
  readonly lines: readonly JsonObject[];
  readonly stats: JsonlStats;
  /** Every line after `from` was read. */
  readonly reachedHead: boolean;
}

/** The lines in [from, size) nearest the end, up to TailBytes of them, oldest first. */
async function readTail(file: string, from: number, size: number): Promise<Tail> {
  const handle = await openRegularFile(file);
  try {
    // Lines before `from` were read by the head, or lie past what its scan reached.
    const reader = new TailReader(handle, { end: size, chunkBytes: ChunkBytes, maxLineBytes: ListLineBytes });
    const stats = emptyStats();
    const parser = new TailLineParser(stats);
    const newestFirst: JsonObject[] = [];
    let kept = 0;
    let reachedHead = false;
    while (!reachedHead && !reader.done && kept < TailBytes && size - reader.offset < ScanBytes) {
      for (const line of await reader.next()) {
        // Lines come newest first: one starting before `from` means the line at `from` is in.
        if (line.offset < from) {
          reachedHead = true;
          break;
        }
        // As in the head, heavy lines (never parsed) do not use up the tail.
        if (!isHeavyLine(line.bytes)) kept += line.bytes.length;
        const values = parser.parse(line);
        for (let i = values.length - 1; i >= 0; i--) newestFirst.push(values[i]!);
      }
    }
    return { lines: newestFirst.reverse(), stats, reachedHead: reachedHead || reader.done };
  } finally {
    await handle.close();
  }
}

function sumStats(a: JsonlStats, b: JsonlStats): JsonlStats {
  const out = emptyStats();
  for (const key of Object.keys(out) as (keyof JsonlStats)[]) out[key] = a[key] + b[key];
  return out;
}
