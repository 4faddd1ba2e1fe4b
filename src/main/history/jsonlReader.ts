// Byte-offset JSONL reading for transcripts that may be huge, damaged or still being written.
// Reads in chunks (never the whole file as one string), hands complete lines on one by one, and
// returns the offset to continue from. An unterminated last line is held back unless the caller
// says the file is final, so a half-written line is never parsed twice or in pieces.

import { isUtf8 } from "node:buffer";
import { closeSync, fstatSync, readSync } from "node:fs";
import type { JsonObject } from "../../shared/protocol/messages.js";
import { heavyVerdict, isHeavyLine } from "./heavyLines.js";
import { openRegularFile, openRegularFileSync } from "../platform/regularFile.js";
import { parseJsonLine } from "./splitJson.js";

/** Real transcripts hold 1.25 MB lines; a line past this cap is counted and skipped. */
export const DefaultMaxLineBytes = 64 * 1024 * 1024;
const DefaultChunkBytes = 1024 * 1024;
/** Problems kept per read (the rest are only counted), and how much of a bad line each shows. */
export const MaxKeptProblems = 50;
export const ExcerptChars = 120;

export interface JsonlRecord {
  readonly value: JsonObject;
  /** 1-based, counted from `firstLineNumber`. */
  readonly lineNumber: number;
  /** Byte offset of the line's start. */
  readonly offset: number;
  /** Bytes of heavy lines (heavyLines.ts) this read passed over before this record. */
  readonly heavyBytesBefore?: number;
}

export type JsonlProblemReason = "invalid_utf8" | "too_long" | "not_json" | "not_object" | "truncated";

export interface JsonlProblem {
  readonly reason: JsonlProblemReason;
  readonly lineNumber: number;
  readonly offset: number;
  readonly excerpt?: string;
}

export interface JsonlStats {
  lines: number;
  records: number;
  blank: number;
  invalidUtf8: number;
  tooLong: number;
  notJson: number;
  notObject: number;
  /** Lines that held several JSON objects glued together (`}{`), each used. */
  glued: number;
  /** A final unterminated line that did not parse (a file copied mid-write). */
  truncated: number;
  /** Lines passed over unparsed because their first bytes name a type Baton never reads (heavyLines.ts). */
  heavy: number;
}

export interface ReadJsonlOptions {
  readonly offset?: number;
  readonly firstLineNumber?: number;
  /** Parse an unterminated last line too (the file is complete). */
  readonly final?: boolean;
  readonly maxLineBytes?: number;
  readonly chunkBytes?: number;
  /** Read no further than this offset (a line it cuts is left unread, as at a live file's end). */
  readonly end?: number;
  /** Parse heavy lines too (heavyLines.ts); by default they are passed over without being decoded. */
  readonly keepHeavy?: boolean;
  /** Return false to stop reading after this record (e.g. only the first lines are wanted). */
  readonly onRecord: (record: JsonlRecord) => void | boolean;
}

export interface ReadJsonlResult {
  /** Where the next read should start: just after the last complete line handled. */
  readonly nextOffset: number;
  readonly nextLineNumber: number;
  /** File size seen by this read. */
  readonly size: number;
  readonly stats: JsonlStats;
  /** The first problems, for a log; `stats` has the full counts. */
  readonly problems: readonly JsonlProblem[];
}

export function emptyStats(): JsonlStats {
  return { lines: 0, records: 0, blank: 0, invalidUtf8: 0, tooLong: 0, notJson: 0, notObject: 0, glued: 0, truncated: 0, heavy: 0 };
}

/** Reads complete lines from `offset` to the current end of the file. */
export async function readJsonl(filePath: string, options: ReadJsonlOptions): Promise<ReadJsonlResult> {
  const handle = await openRegularFile(filePath);
  try {
    const steps = readSteps(readEnd((await handle.stat()).size, options), options);
    for (let step = steps.next(); ; ) {
      if (step.done) return step.value;
      const { buffer, length, position } = step.value;
      step = steps.next((await handle.read(buffer, 0, length, position)).bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/**
 * `readJsonl` with blocking reads, for a thread of its own (the index's extract worker): each of
 * the async version's open, stat, read and close waits for a thread-pool thread, and with both
 * cores busy that wait left the extract thread idle for a seventh of a large index run.
 */
export function readJsonlSync(filePath: string, options: ReadJsonlOptions): ReadJsonlResult {
  const fd = openRegularFileSync(filePath);
  try {
    const steps = readSteps(readEnd(fstatSync(fd).size, options), options);
    for (let step = steps.next(); ; ) {
      if (step.done) return step.value;
      const { buffer, length, position } = step.value;
      step = steps.next(readSync(fd, buffer, 0, length, position));
    }
  } finally {
    closeSync(fd);
  }
}

function readEnd(size: number, options: ReadJsonlOptions): number {
  return options.end === undefined ? size : Math.max(0, Math.min(size, options.end));
}

interface ReadStep {
  readonly buffer: Buffer;
  readonly length: number;
  readonly position: number;
}

/** The reading loop of a file of `size` bytes: yields each read to make, takes the bytes it read. */
function* readSteps(size: number, options: ReadJsonlOptions): Generator<ReadStep, ReadJsonlResult, number> {
  const sink = new LineSink(options);
  const chunkBytes = options.chunkBytes ?? DefaultChunkBytes;
  let position = Math.min(options.offset ?? 0, size);
  // Most transcripts are smaller than a chunk; only the bytes read are ever looked at.
  const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(chunkBytes, size - position)));
  sink.start(position);
  while (position < size && !sink.stopped) {
    const bytesRead = yield { buffer, length: Math.min(chunkBytes, size - position), position };
    if (bytesRead === 0) break;
    sink.push(buffer.subarray(0, bytesRead), position);
    position += bytesRead;
  }
  return sink.finish(size);
}

/** Reads a whole (finished) file and returns its records, for small files and tests. */
export async function readAllJsonl(filePath: string): Promise<{ records: JsonlRecord[]; result: ReadJsonlResult }> {
  const records: JsonlRecord[] = [];
  const result = await readJsonl(filePath, { final: true, onRecord: (r) => { records.push(r); } });
  return { records, result };
}

/** Splits pushed chunks into lines and parses them; keeps only the current partial line. */
class LineSink {
  private readonly stats = emptyStats();
  private readonly problems: JsonlProblem[] = [];
  private readonly decoder = new TextDecoder("utf-8", { fatal: true });
  private readonly maxLineBytes: number;
  private parts: Buffer[] = [];
  private partBytes = 0;
  private skipping = false;
  /** The current line is heavy: its parts are not kept. */
  private heavy = false;
  /** The current line's parts are too short yet to tell whether it is heavy. */
  private undecided = false;
  private heavyBytes = 0;
  private readonly skipHeavy: boolean;
  private lineStart = 0;
  private lineNumber: number;
  stopped = false;

  constructor(private readonly options: ReadJsonlOptions) {
    this.maxLineBytes = options.maxLineBytes ?? DefaultMaxLineBytes;
    this.skipHeavy = options.keepHeavy !== true;
    this.lineNumber = options.firstLineNumber ?? 1;
  }

  start(offset: number): void {
    this.lineStart = offset;
  }

  push(chunk: Buffer, chunkOffset: number): void {
    let from = 0;
    // The lines that start and end in this chunk are checked as valid UTF-8 all at once; then each
    // is a plain slice, without a decoder or a view per line. Otherwise each is decoded alone.
    const firstStart = this.partBytes === 0 && !this.skipping && !this.heavy ? 0 : chunk.indexOf(10) + 1;
    const lastEnd = chunk.lastIndexOf(10);
    const checked = lastEnd > firstStart && isUtf8(chunk.subarray(firstStart, lastEnd));
    while (from < chunk.length && !this.stopped) {
      const newline = chunk.indexOf(10, from);
      if (newline === -1) {
        this.append(chunk.subarray(from));
        return;
      }
      if (this.partBytes === 0 && !this.skipping && !this.heavy && newline - from <= this.maxLineBytes) {
        // The whole line is in this chunk: decode it in place, no copy.
        if (this.skipHeavy && isHeavyLine(chunk, from, newline)) this.endHeavyLine(newline - from);
        else if (checked && from >= firstStart) this.endDecodedLine(chunk.toString("utf8", from, newline));
        else this.endLine(false, chunk.subarray(from, newline));
      } else {
        this.append(chunk.subarray(from, newline));
        this.endLine();
      }
      from = newline + 1;
      this.lineStart = chunkOffset + from;
    }
  }

  finish(size: number): ReadJsonlResult {
    let nextOffset = this.lineStart;
    if (this.stopped) {
      // Stopped early: continue from the line after the last one handled.
    } else if (this.partBytes > 0 || this.skipping || this.heavy) {
      if (this.options.final === true) {
        this.endLine(true);
        nextOffset = size;
      }
    } else {
      nextOffset = size;
    }
    return { nextOffset, nextLineNumber: this.lineNumber, size, stats: this.stats, problems: this.problems };
  }

  private append(bytes: Buffer): void {
    if (this.heavy) {
      this.heavyBytes += bytes.length;
      return;
    }
    if (this.skipping || bytes.length === 0) return;
    // A heavy line's first bytes decide it: the rest of the line is never copied.
    if (this.skipHeavy && (this.partBytes === 0 || this.undecided)) {
      const head = this.partBytes === 0 ? bytes : Buffer.concat([...this.parts, bytes]);
      const verdict = heavyVerdict(head, 0, head.length, false);
      this.undecided = verdict === "undecided";
      if (verdict === "heavy") {
        this.heavy = true;
        this.heavyBytes += head.length;
        this.parts = [];
        this.partBytes = 0;
        return;
      }
    }
    if (this.partBytes + bytes.length > this.maxLineBytes) {
      this.skipping = true;
      this.parts = [];
      this.partBytes = 0;
      return;
    }
    // Chunks are reused by the reader, so keep a copy.
    this.parts.push(Buffer.from(bytes));
    this.partBytes += bytes.length;
  }

  /** Ends the current line: `whole` when it lies in one chunk, else the parts appended so far. */
  private endLine(unterminated = false, whole?: Buffer): void {
    if (this.heavy) {
      this.heavy = false;
      this.endHeavyLine(0);
      return;
    }
    // A line that ended before its first bytes could tell is checked whole (a short line).
    if (this.undecided) {
      this.undecided = false;
      if (whole === undefined && !this.skipping && this.parts.length > 0) {
        const joined = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.partBytes);
        this.parts = [joined];
        if (isHeavyLine(joined)) {
          this.parts = [];
          this.partBytes = 0;
          this.endHeavyLine(joined.length);
          return;
        }
      }
    }
    const lineNumber = this.lineNumber++;
    this.stats.lines++;
    const wasSkipping = this.skipping;
    const bytes = whole ?? (this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.partBytes));
    this.parts = [];
    this.partBytes = 0;
    this.skipping = false;
    if (wasSkipping) {
      this.stats.tooLong++;
      this.problem("too_long", lineNumber);
      return;
    }
    let text: string;
    try {
      text = this.decoder.decode(bytes);
    } catch {
      this.stats.invalidUtf8++;
      this.problem("invalid_utf8", lineNumber);
      return;
    }
    this.parseText(text, lineNumber, unterminated);
  }

  /** Ends a heavy line: counted, never decoded or parsed; `bytes` not yet counted in heavyBytes. */
  private endHeavyLine(bytes: number): void {
    this.lineNumber++;
    this.stats.lines++;
    this.stats.heavy++;
    this.heavyBytes += bytes;
  }

  /** Ends a terminated line already known to be valid UTF-8, given as text. */
  private endDecodedLine(text: string): void {
    const lineNumber = this.lineNumber++;
    this.stats.lines++;
    this.parseText(text, lineNumber, false);
  }

  private parseText(raw: string, lineNumber: number, unterminated: boolean): void {
    // trim() also drops a byte order mark, which the decoder path drops by itself.
    const text = raw.trim();
    if (text === "") {
      this.stats.blank++;
      return;
    }
    this.parseLine(text, lineNumber, unterminated);
  }

  private parseLine(text: string, lineNumber: number, unterminated: boolean): void {
    const parsed = parseJsonLine(text);
    if (parsed === undefined) {
      if (unterminated) this.stats.truncated++;
      else this.stats.notJson++;
      this.problem(unterminated ? "truncated" : "not_json", lineNumber, text);
      return;
    }
    if (parsed.glued) this.stats.glued++;
    for (const value of parsed.values) {
      if (value === null || typeof value !== "object" || Array.isArray(value)) {
        this.stats.notObject++;
        this.problem("not_object", lineNumber, text);
        continue;
      }
      this.stats.records++;
      const record = { value: value as JsonObject, lineNumber, offset: this.lineStart, ...(this.heavyBytes > 0 ? { heavyBytesBefore: this.heavyBytes } : {}) };
      if (this.options.onRecord(record) === false) {
        this.stopped = true;
      }
    }
  }

  private problem(reason: JsonlProblemReason, lineNumber: number, text?: string): void {
    if (this.problems.length >= MaxKeptProblems) return;
    const problem: JsonlProblem = { reason, lineNumber, offset: this.lineStart };
    // Before the first record the file has not shown it is a transcript (a link to /etc/passwd):
    // its lines are counted, never quoted.
    this.problems.push(text === undefined || this.stats.records === 0 ? problem : { ...problem, excerpt: text.slice(0, ExcerptChars) });
  }
}
