// Turns the CLI's stdout chunks into complete lines. Pipes deliver chunks, not lines: a line may
// span many chunks and a multibyte UTF-8 character may be cut in two, so lines are split on the
// `\n` byte and decoded only when complete. A line longer than the cap is dropped as it streams
// (never buffered whole), reported, and the stream goes on.

import { isUtf8 } from "node:buffer";

export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;
const EXCERPT_BYTES = 200;
const NEWLINE = 0x0a;
const CR = 0x0d;
const REPLACEMENT = "\uFFFD";
const EMPTY = Buffer.alloc(0);

export type LineProblemCode = "line_too_long" | "invalid_utf8" | "unterminated_line";

/** A line the framer could not hand on. The stream continues after it. */
export interface LineProblem {
  readonly code: LineProblemCode;
  readonly lineNumber: number;
  readonly reason: string;
  /** Size of the whole line in bytes (without its newline). */
  readonly byteLength: number;
  /** The start of the line, decoded leniently, for the log. */
  readonly excerpt: string;
}

export interface LineFramerOptions {
  /** Longest accepted line in bytes, newline excluded. Default 16 MiB. */
  readonly maxLineBytes?: number;
  /**
   * What `end()` does with a last line that has no newline: `"emit"` parses it (a process's
   * stdout at exit), `"report"` reports it as a problem (a file cut off mid-write). Default `"emit"`.
   */
  readonly unterminatedLine?: "emit" | "report";
  /** A complete, non-blank, valid UTF-8 line (without `\n` or `\r\n`). Line numbers start at 1. */
  readonly onLine: (text: string, lineNumber: number) => void;
  readonly onProblem: (problem: LineProblem) => void;
}

export interface LineFramerStats {
  /** Lines seen so far, blank and skipped ones included. */
  readonly lines: number;
  readonly skippedLines: number;
  /** Bytes currently held for an incomplete line. */
  readonly bufferedBytes: number;
}

export interface LineFramer {
  push(chunk: Uint8Array): void;
  /** Flushes (or reports) an unterminated last line. Further pushes throw. */
  end(): void;
  stats(): LineFramerStats;
}

export function createLineFramer(options: LineFramerOptions): LineFramer {
  return new Framer(options);
}

class Framer implements LineFramer {
  private readonly maxLineBytes: number;
  private readonly emitUnterminated: boolean;
  private readonly onLine: LineFramerOptions["onLine"];
  private readonly onProblem: LineFramerOptions["onProblem"];
  // The incomplete line so far, as copied pieces (a small tail does not keep a chunk alive).
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  // While dropping an over-long line: how many bytes it had, and its first bytes for the report.
  private skipping = false;
  private skippedBytes = 0;
  private skippedExcerpt: Buffer = EMPTY;
  private lineNumber = 0;
  private skippedLines = 0;
  private ended = false;

  constructor(options: LineFramerOptions) {
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.emitUnterminated = (options.unterminatedLine ?? "emit") === "emit";
    this.onLine = options.onLine;
    this.onProblem = options.onProblem;
  }

  push(chunk: Uint8Array): void {
    if (this.ended) throw new Error("lineFramer: push after end");
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    let start = 0;
    for (;;) {
      const nl = buf.indexOf(NEWLINE, start);
      if (nl === -1) {
        this.hold(buf, start);
        return;
      }
      this.complete(buf, start, nl);
      start = nl + 1;
    }
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (!this.skipping && this.pendingBytes === 0) return;
    this.lineNumber++;
    if (this.skipping) {
      this.skipping = false;
      this.tooLong(this.skippedBytes, this.skippedExcerpt);
      return;
    }
    const whole = this.takePending();
    if (this.emitUnterminated) this.emit(whole, 0, whole.length);
    else this.problem("unterminated_line", "last line has no newline (stream cut off?)", whole.length, whole);
  }

  stats(): LineFramerStats {
    return { lines: this.lineNumber, skippedLines: this.skippedLines, bufferedBytes: this.pendingBytes };
  }

  /** Bytes `start..` of `buf`, with no newline after them (yet). */
  private hold(buf: Buffer, start: number): void {
    const length = buf.length - start;
    if (length === 0) return;
    if (this.skipping) {
      this.skippedBytes += length;
    } else if (this.pendingBytes + length > this.maxLineBytes) {
      this.startSkipping(buf.subarray(start));
    } else {
      this.pending.push(Buffer.from(buf.subarray(start)));
      this.pendingBytes += length;
    }
  }

  private startSkipping(tail: Buffer): void {
    const head = this.pending[0] ?? tail;
    this.skippedExcerpt = Buffer.from(head.subarray(0, EXCERPT_BYTES));
    this.skippedBytes = this.pendingBytes + tail.length;
    this.skipping = true;
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** The last piece of a line: bytes `start..end` of `buf`, `end` being its newline. */
  private complete(buf: Buffer, start: number, end: number): void {
    this.lineNumber++;
    const length = end - start;
    if (this.skipping) {
      this.skipping = false;
      this.tooLong(this.skippedBytes + length, this.skippedExcerpt);
      this.skippedExcerpt = EMPTY;
      return;
    }
    const total = this.pendingBytes + length;
    if (total > this.maxLineBytes) {
      const head = this.pending[0] ?? buf.subarray(start, end);
      this.pending = [];
      this.pendingBytes = 0;
      this.tooLong(total, head);
    } else if (this.pendingBytes === 0) {
      this.emit(buf, start, end);
    } else {
      this.pending.push(buf.subarray(start, end));
      this.pendingBytes = total;
      const whole = this.takePending();
      this.emit(whole, 0, whole.length);
    }
  }

  private takePending(): Buffer {
    const whole = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    return whole;
  }

  /** A complete line: bytes `start..end` of `buf` (newline removed). */
  private emit(buf: Buffer, start: number, end: number): void {
    if (end > start && buf[end - 1] === CR) end--;
    if (end === start || isBlank(buf, start, end)) return;
    const text = buf.toString("utf8", start, end);
    // The decoder turns bad bytes into U+FFFD, so only then is the full check needed (a line may
    // also hold a genuine U+FFFD). A one-byte string cannot contain it: V8 answers without a scan.
    if (text.indexOf(REPLACEMENT) !== -1 && !isUtf8(buf.subarray(start, end))) {
      this.problem("invalid_utf8", "line is not valid UTF-8", end - start, buf.subarray(start, end));
      return;
    }
    this.onLine(text, this.lineNumber);
  }

  private tooLong(byteLength: number, excerptBytes: Uint8Array): void {
    const reason = `line of ${byteLength} bytes exceeds the ${this.maxLineBytes}-byte limit`;
    this.problem("line_too_long", reason, byteLength, excerptBytes);
  }

  private problem(code: LineProblemCode, reason: string, byteLength: number, excerptBytes: Uint8Array): void {
    this.skippedLines++;
    const head = Buffer.from(excerptBytes.buffer, excerptBytes.byteOffset, Math.min(excerptBytes.length, EXCERPT_BYTES));
    this.onProblem({ code, lineNumber: this.lineNumber, reason, byteLength, excerpt: head.toString("utf8") });
  }
}

/** Whitespace-only lines count as blank; only scanned when the line starts with whitespace. */
function isBlank(buf: Buffer, start: number, end: number): boolean {
  const first = buf[start];
  if (first !== 0x20 && first !== 0x09) return false;
  for (let i = start + 1; i < end; i++) {
    const b = buf[i];
    if (b !== 0x20 && b !== 0x09 && b !== CR) return false;
  }
  return true;
}
