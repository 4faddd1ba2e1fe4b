// What the session list reads of a transcript: the lines near its start (cwd, first time, the
// model's title, which the CLI writes first, the first prompt) and near its end (last time,
// branch, the newest titles: the CLI appends a renamed title and writes its session metadata
// again at the end), and nothing between. Each end is read in a few large reads, forwards from
// the start and backwards from the end, until it holds HeadBytes (TailBytes) of lines.
//
// CLI 2.1.332's bookkeeping lines (heavyLines.ts) are passed over by their first bytes and do not
// use up an end, so a big prompt snapshot first in the file cannot push the first prompt out of
// the head. A line longer than ListLineBytes ends that end: what lies past it is not read, so a
// 60 MB tool output costs the list one chunk at each of its edges, never its bytes, and the file
// is not "whole" (its prompts are not counted).

import { isUtf8 } from "node:buffer";
import fs, { constants } from "node:fs";
import { promisify } from "node:util";
import type { JsonObject } from "../../shared/protocol/messages.js";
import { emptyStats, type JsonlStats } from "./jsonlReader.js";
import { heavyVerdict, isHeavyLine } from "./heavyLines.js";
import { NotRegularFileError, notRegularKind } from "../platform/regularFile.js";
import { parseJsonLine } from "./splitJson.js";

/** Lines read from the start, and from the end, not counting heavy lines. */
export const HeadBytes = 256 * 1024;
export const TailBytes = 256 * 1024;
/** The longest line the list parses; titles, prompts and envelopes are far shorter. */
export const ListLineBytes = 1024 * 1024;
/** How far the head may pass over heavy lines (a 2.1.332 file starts with a few of them). */
const HeavyScanBytes = 16 * 1024 * 1024;
const ChunkBytes = 256 * 1024;
const Newline = 0x0a;

// Windows has no O_NONBLOCK (nor FIFOs that open() blocks on).
const ReadFlags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
// The descriptor calls, not FileHandle: a list opens many small files, and each handle costs more
// to make and close than the read it is opened for.
const openFd = promisify(fs.open);
const fstat = promisify(fs.fstat);
const readFd = promisify(fs.read);
const closeFd = promisify(fs.close);

export interface SessionEnds {
  /** The lines read from the start, in file order. */
  readonly head: readonly JsonObject[];
  /** The lines read from the end, in file order (after the head's). */
  readonly tail: readonly JsonObject[];
  /** Every line of the file was parsed (none skipped as too long, none left in the middle). */
  readonly whole: boolean;
  readonly size: number;
  readonly mtimeMs: number;
  readonly stats: JsonlStats;
}

/**
 * Reads `file`'s ends. Throws NotRegularFileError for a FIFO, socket, device or folder: the file is
 * opened without blocking and checked on its descriptor before anything is read.
 */
export async function readSessionEnds(file: string): Promise<SessionEnds> {
  const fd = await openFd(file, ReadFlags);
  try {
    const st = await fstat(fd);
    const kind = notRegularKind(st);
    if (kind !== undefined) throw new NotRegularFileError(file, kind);
    const reader = new EndsReader(fd, st.size);
    const head = await reader.head();
    const tail = head.end < st.size ? await reader.tail(head.end) : { lines: [], reachedHead: true };
    const whole = !head.cut && tail.reachedHead && reader.stats.tooLong === 0;
    return { head: head.lines, tail: tail.lines, whole, size: st.size, mtimeMs: st.mtimeMs, stats: reader.stats };
  } finally {
    await closeFd(fd);
  }
}

interface Head {
  readonly lines: JsonObject[];
  /** Where the first line the head did not read starts. */
  readonly end: number;
  /** The head stopped at a line it could not pass over: nothing after it was read from the front. */
  readonly cut: boolean;
}

interface Tail {
  readonly lines: JsonObject[];
  /** Every line from the head's end to the file's end was read. */
  readonly reachedHead: boolean;
}

class EndsReader {
  readonly stats = emptyStats();
  private buffer: Buffer;

  constructor(
    private readonly fd: number,
    private readonly size: number,
  ) {
    this.buffer = Buffer.allocUnsafe(Math.max(1, Math.min(ChunkBytes, size)));
  }

  /** Lines from the start until HeadBytes of them are read, the file ends, or a line is too long. */
  async head(): Promise<Head> {
    const lines: JsonObject[] = [];
    let pos = 0;
    let light = 0;
    let heavyScanned = 0;
    while (pos < this.size) {
      const chunk = await this.readAt(pos, Math.min(this.buffer.length, this.size - pos));
      const atEnd = pos + chunk.length === this.size;
      const valid = isUtf8(chunk.subarray(0, atEnd ? chunk.length : Math.max(0, chunk.lastIndexOf(Newline))));
      let from = 0;
      for (let nl = chunk.indexOf(Newline); nl !== -1; nl = chunk.indexOf(Newline, from)) {
        const added = this.line(chunk, from, nl, valid, true, lines);
        from = nl + 1;
        if (added < 0) heavyScanned -= added;
        else light += added;
        if (light >= HeadBytes) return { lines, end: pos + from, cut: false };
      }
      if (from > 0 || atEnd) {
        // The file's last line, when no newline ends it (a file copied mid-write).
        if (atEnd && from < chunk.length) this.line(chunk, from, chunk.length, valid, false, lines);
        pos = atEnd ? this.size : pos + from;
        continue;
      }
      // No newline in a whole chunk: a line longer than the buffer starts at `pos`.
      if (heavyVerdict(chunk, 0, chunk.length, false) === "heavy") {
        const next = await this.lineEndAfter(pos + chunk.length, HeavyScanBytes - heavyScanned);
        if (next === undefined) return { lines, end: pos, cut: true };
        heavyScanned += next - pos;
        this.stats.lines++;
        this.stats.heavy++;
        pos = next;
      } else if (this.buffer.length < ListLineBytes) {
        this.buffer = Buffer.allocUnsafe(ListLineBytes);
      } else {
        this.tooLong();
        return { lines, end: pos, cut: true };
      }
    }
    return { lines, end: this.size, cut: false };
  }

  /** Lines from the end back to `from`, until TailBytes of them are read or a line is too long. */
  async tail(from: number): Promise<Tail> {
    const newestFirst: JsonObject[] = [];
    const done = (reachedHead: boolean): Tail => ({ lines: newestFirst.reverse(), reachedHead });
    let light = 0;
    // `to`: where the newest line not yet read ends (its newline, or the file's end).
    let to = this.size;
    let terminated: boolean | undefined;
    while (to > from) {
      const start = Math.max(from, to - this.buffer.length);
      const chunk = await this.readAt(start, to - start);
      let end = chunk.length;
      if (terminated === undefined) {
        // The file's last line has no newline when the file was copied mid-write.
        terminated = chunk[end - 1] === Newline;
        if (terminated) end--;
      }
      const firstNl = chunk.indexOf(Newline);
      const valid = isUtf8(chunk.subarray(start === from ? 0 : firstNl + 1, end));
      let found = false;
      for (let nl = chunk.lastIndexOf(Newline, end - 1); nl !== -1 && end > 0; nl = chunk.lastIndexOf(Newline, end - 1)) {
        light += Math.max(0, this.line(chunk, nl + 1, end, valid, terminated, newestFirst, true));
        terminated = true;
        found = true;
        end = nl;
        if (light >= TailBytes) return done(start + end <= from);
        if (end === 0) break;
      }
      if (start === from) {
        // The oldest line left starts where the head stopped.
        this.line(chunk, 0, end, valid, terminated, newestFirst, true);
        return done(true);
      }
      if (found) {
        to = start + end;
        continue;
      }
      // No newline in a whole chunk: a line longer than the buffer ends at `to`.
      if (this.buffer.length < ListLineBytes) {
        this.buffer = Buffer.allocUnsafe(ListLineBytes);
        continue;
      }
      // Its first bytes (which would say whether it is heavy) are too far back to look for.
      this.tooLong();
      return done(false);
    }
    return done(true);
  }

  /**
   * One line, `chunk[start, end)`: its values pushed onto `out` (last value first when reading
   * `backwards`) unless heavy or blank. `valid`: the chunk's lines are known to be UTF-8. Returns
   * its length when parsed, minus its length when heavy.
   */
  private line(chunk: Buffer, start: number, end: number, valid: boolean, terminated: boolean, out: JsonObject[], backwards = false): number {
    this.stats.lines++;
    if (isHeavyLine(chunk, start, end)) {
      this.stats.heavy++;
      return start - end;
    }
    if (!valid && !isUtf8(chunk.subarray(start, end))) {
      this.stats.invalidUtf8++;
      return end - start;
    }
    const text = chunk.toString("utf8", start, end).trim();
    if (text === "") {
      this.stats.blank++;
      return 0;
    }
    const parsed = parseJsonLine(text);
    if (parsed === undefined) {
      if (terminated) this.stats.notJson++;
      else this.stats.truncated++;
      return end - start;
    }
    if (parsed.glued) this.stats.glued++;
    const values = parsed.values;
    for (let i = 0; i < values.length; i++) {
      const value = values[backwards ? values.length - 1 - i : i];
      if (value === null || typeof value !== "object" || Array.isArray(value)) this.stats.notObject++;
      else {
        this.stats.records++;
        out.push(value as JsonObject);
      }
    }
    return end - start;
  }

  private tooLong(): void {
    this.stats.lines++;
    this.stats.tooLong++;
  }

  /** The offset just past the first newline at or after `from`, reading at most `budget` bytes. */
  private async lineEndAfter(from: number, budget: number): Promise<number | undefined> {
    let pos = from;
    for (; pos < this.size && pos - from < budget; ) {
      const chunk = await this.readAt(pos, Math.min(this.buffer.length, this.size - pos));
      const nl = chunk.indexOf(Newline);
      if (nl !== -1) return pos + nl + 1;
      pos += chunk.length;
    }
    // An unterminated last line ends with the file.
    return pos >= this.size ? this.size : undefined;
  }

  /** `length` bytes at `position` (the file is read-only here; a file that shrank is an error). */
  private async readAt(position: number, length: number): Promise<Buffer> {
    let filled = 0;
    while (filled < length) {
      const { bytesRead } = await readFd(this.fd, this.buffer, filled, length - filled, position + filled);
      if (bytesRead === 0) throw new Error(`file shrank while reading at offset ${position + filled}`);
      filled += bytesRead;
    }
    return this.buffer.subarray(0, length);
  }
}
