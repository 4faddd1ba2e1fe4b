// What the session list reads of a transcript. A file of at most WholeBytes is read whole, in one
// read, so its prompts are counted. Of a bigger one, only the lines near its start (cwd, first
// time, the model's title, which the CLI writes first, the first prompt) and near its end (last
// time, branch, the newest titles: the CLI appends a renamed title and writes its session
// metadata again at the end), and nothing between: each end is read forwards from the start and
// backwards from the end until it holds HeadBytes (TailBytes) of lines.
//
// CLI 2.1.332's bookkeeping lines (heavyLines.ts) are passed over by their first bytes and do not
// use up an end, so a big prompt snapshot first in the file cannot push the first prompt out of
// the head. A line longer than ListLineBytes ends that end: what lies past it is not read, so a
// 60 MB tool output costs the list a read at each of its edges, never its bytes, and the file is
// not "whole" (its prompts are not counted).

import { isUtf8 } from "node:buffer";
import fs, { constants } from "node:fs";
import { promisify } from "node:util";
import type { JsonObject } from "../../shared/protocol/messages.js";
import { emptyStats, type JsonlStats } from "./jsonlReader.js";
import { HeavyAttachmentTypes, HeavyLineTypes, HeavyPrefixBytes, heavyVerdict, isHeavyLine } from "./heavyLines.js";
import { NotRegularFileError, notRegularKind } from "../platform/regularFile.js";
import { parseJsonLine } from "./splitJson.js";

/** A file this big or smaller is read whole (a 2.1.332 file's bookkeeping lines are most of it). */
export const WholeBytes = 512 * 1024;
/** How much of lines a bigger file's ends give, from its start (in characters) and from its end (in bytes), heavy lines not counted. */
export const HeadBytes = 64 * 1024;
export const TailBytes = 64 * 1024;
/** What an end is read in, and the longest line it parses: titles, prompts and envelopes are far shorter. */
const ChunkBytes = 64 * 1024;
export const ListLineBytes = 256 * 1024;
/** How far the head may pass over heavy lines (a 2.1.332 file starts with a few of them). */
const HeavyScanBytes = 16 * 1024 * 1024;
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
 * A stand-in for a line the caller can read without parsing it (what it needs of the line, found
 * in its text), or undefined to have the line parsed.
 */
export type Skim = (line: string) => JsonObject | undefined;

/**
 * Reads `file`'s ends. Throws NotRegularFileError for a FIFO, socket, device or folder: the file is
 * opened without blocking and checked on its descriptor before anything is read.
 */
export async function readSessionEnds(file: string, skim?: Skim): Promise<SessionEnds> {
  const fd = await openFd(file, ReadFlags);
  try {
    const st = await fstat(fd);
    const kind = notRegularKind(st);
    if (kind !== undefined) throw new NotRegularFileError(file, kind);
    const reader = new EndsReader(fd, st.size, skim);
    const head = await reader.head(st.size <= WholeBytes ? Number.POSITIVE_INFINITY : HeadBytes);
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
    private readonly skim: Skim | undefined,
  ) {
    // A file read whole is read at once.
    this.buffer = Buffer.allocUnsafe(Math.max(1, size <= WholeBytes ? size : ChunkBytes));
  }

  /** Lines from the start until `budget` of them are read, the file ends, or a line is too long. */
  async head(budget: number): Promise<Head> {
    const lines: JsonObject[] = [];
    let pos = 0;
    let light = 0;
    let heavyScanned = 0;
    while (pos < this.size) {
      const chunk = await this.readAt(pos, Math.min(this.buffer.length, this.size - pos));
      const atEnd = pos + chunk.length === this.size;
      // The complete lines in the chunk; at the file's end, an unterminated last line too.
      const regionEnd = atEnd ? chunk.length : chunk.lastIndexOf(Newline) + 1;
      if (regionEnd > 0) {
        const text = this.text(chunk, 0, regionEnd);
        if (text !== undefined) {
          // Lines are split in the decoded text: a newline byte is never inside a UTF-8 character.
          let from = 0;
          while (from < text.length) {
            const nl = text.indexOf("\n", from);
            const to = nl === -1 ? text.length : nl;
            const added = this.textLine(text, from, to, nl !== -1, lines);
            from = to + 1;
            if (added < 0) heavyScanned -= added;
            else light += added;
            if (light >= budget) return { lines, end: pos + Buffer.byteLength(text.slice(0, from)), cut: false };
          }
        } else {
          let from = 0;
          while (from < regionEnd) {
            const nl = chunk.indexOf(Newline, from);
            const to = nl === -1 || nl >= regionEnd ? regionEnd : nl;
            const added = this.byteLine(chunk, from, to, nl !== -1 && nl < regionEnd, lines);
            from = to + 1;
            if (added < 0) heavyScanned -= added;
            else light += added;
            if (light >= budget) return { lines, end: pos + from, cut: false };
          }
        }
        pos += regionEnd;
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
      } else if (!this.grow()) {
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
      // The complete lines in the chunk: after its first newline, or all of it from the head's end.
      const regionStart = start === from ? 0 : chunk.indexOf(Newline) + 1;
      if (regionStart === 0 && start !== from) {
        // No newline in a whole chunk: a line longer than the buffer ends at `to`.
        if (this.grow()) continue;
        // Longer than the list parses: its first bytes (which would say whether it is heavy) are
        // too far back to look for.
        this.tooLong();
        return done(false);
      }
      // Newest line first, each checked by its bytes: a 2.1.332 file's end is mostly bookkeeping
      // lines, passed by their first bytes without being decoded. The read stops once TailBytes are
      // in, and reached the head when nothing but (at most) the newline at `from` is left before
      // the last line read.
      for (let lineEnd = end; ; ) {
        const nl = lineEnd === regionStart ? -1 : chunk.lastIndexOf(Newline, lineEnd - 1);
        const lineStart = nl < regionStart ? regionStart : nl + 1;
        light += Math.max(0, this.byteLine(chunk, lineStart, lineEnd, terminated, newestFirst, true));
        terminated = true;
        if (light >= TailBytes) return done(start + lineStart <= from + 1);
        if (lineStart === regionStart) break;
        lineEnd = nl;
      }
      if (start === from) return done(true);
      // The partial line before the first newline is read with the next chunk back.
      to = start + regionStart - 1;
    }
    return done(true);
  }

  /** `chunk[start, end)` as text when it is valid UTF-8; undefined when its lines must be checked one by one. */
  private text(chunk: Buffer, start: number, end: number): string | undefined {
    return isUtf8(chunk.subarray(start, end)) ? chunk.toString("utf8", start, end) : undefined;
  }

  /**
   * One line of decoded text, `text[start, end)`: its values pushed onto `out` (last value first
   * when reading `backwards`) unless heavy or blank. Returns its length when parsed, minus its
   * length when heavy.
   */
  private textLine(text: string, start: number, end: number, terminated: boolean, out: JsonObject[], backwards = false): number {
    if (start === end) return 0;
    this.stats.lines++;
    if (isHeavyText(text, start, end)) {
      this.stats.heavy++;
      return start - end;
    }
    this.values(text.slice(start, end), terminated, out, backwards);
    return end - start;
  }

  /** One line of bytes that may not be UTF-8, `chunk[start, end)`: as `textLine`. */
  private byteLine(chunk: Buffer, start: number, end: number, terminated: boolean, out: JsonObject[], backwards = false): number {
    if (start === end) return 0;
    this.stats.lines++;
    if (isHeavyLine(chunk, start, end)) {
      this.stats.heavy++;
      return start - end;
    }
    if (!isUtf8(chunk.subarray(start, end))) {
      this.stats.invalidUtf8++;
      return end - start;
    }
    this.values(chunk.toString("utf8", start, end), terminated, out, backwards);
    return end - start;
  }

  private values(line: string, terminated: boolean, out: JsonObject[], backwards: boolean): void {
    const skimmed = this.skim?.(line);
    if (skimmed !== undefined) {
      this.stats.records++;
      out.push(skimmed);
      return;
    }
    let values: readonly unknown[];
    try {
      values = [JSON.parse(line)];
    } catch {
      // Blank, a byte order mark, or several values glued together (`}{`).
      const text = line.trim();
      if (text === "") {
        this.stats.blank++;
        return;
      }
      const parsed = parseJsonLine(text);
      if (parsed === undefined) {
        if (terminated) this.stats.notJson++;
        else this.stats.truncated++;
        return;
      }
      if (parsed.glued) this.stats.glued++;
      values = parsed.values;
    }
    for (let i = 0; i < values.length; i++) {
      const value = values[backwards ? values.length - 1 - i : i];
      if (value === null || typeof value !== "object" || Array.isArray(value)) this.stats.notObject++;
      else {
        this.stats.records++;
        out.push(value as JsonObject);
      }
    }
  }

  /** A bigger buffer for a line longer than a chunk; false when it is already ListLineBytes. */
  private grow(): boolean {
    if (this.buffer.length >= ListLineBytes) return false;
    this.buffer = Buffer.allocUnsafe(ListLineBytes);
    return true;
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

const TypeKey = '"type":"';
const AttachmentOpen = '"attachment":{';
/** Longer than any heavy line type's name (heavyLines.ts). */
const MaxNameChars = 40;

/** `isHeavyLine` (heavyLines.ts) for a line already decoded: `text[start, end)`. */
function isHeavyText(text: string, start: number, end: number): boolean {
  const prefix = text.slice(start, Math.min(end, start + HeavyPrefixBytes + TypeKey.length + MaxNameChars + 1));
  const at = prefix.indexOf(TypeKey);
  if (at === -1 || at > HeavyPrefixBytes) return false;
  const nameStart = at + TypeKey.length;
  const close = prefix.indexOf('"', nameStart);
  if (close === -1 || close - nameStart > MaxNameChars) return false;
  const name = prefix.slice(nameStart, close);
  if (HeavyLineTypes.has(name)) return true;
  return HeavyAttachmentTypes.has(name) && at >= AttachmentOpen.length && prefix.slice(at - AttachmentOpen.length, at) === AttachmentOpen;
}
