// Reading a JSONL file from its end backwards, one chunk at a time, so the newest lines of a huge
// transcript are available without reading the rest. Lines are split on the newline byte (0x0A
// never occurs inside a multi-byte UTF-8 character), so a character cut by a chunk edge is whole
// again once the line's pieces are joined; a line longer than a chunk is collected over several.

import type { FileHandle } from "node:fs/promises";

export const DefaultTailChunkBytes = 256 * 1024;

export interface TailLine {
  /** The line without its newline; empty when `tooLong`. */
  readonly bytes: Buffer;
  /** Byte offset of the line's first byte. */
  readonly offset: number;
  /** False only for the file's last line when no newline ends it (a file copied mid-write). */
  readonly terminated: boolean;
  /** Longer than the cap: its bytes were not kept. */
  readonly tooLong: boolean;
}

export interface TailReaderOptions {
  /** Read the bytes before this offset (default: the whole file, whose size the caller knows). */
  readonly end: number;
  readonly chunkBytes?: number;
  readonly maxLineBytes?: number;
}

/**
 * Hands out the lines before `end`, newest first, a chunk's worth per `next()` call. The handle
 * belongs to the caller.
 */
export class TailReader {
  private position: number;
  private readonly chunkBytes: number;
  private readonly maxLineBytes: number;
  /** Pieces of the line being collected, newest piece first: it started before `position`. */
  private pieces: Buffer[] = [];
  private pieceBytes = 0;
  private skipping = false;
  private lastLine = true;
  private finished = false;
  /** The last chunk, when nothing kept points into it (inside a line too long to keep): reused. */
  private spare: Buffer | undefined;

  constructor(
    private readonly handle: FileHandle,
    options: TailReaderOptions,
  ) {
    this.position = options.end;
    this.chunkBytes = Math.max(1, options.chunkBytes ?? DefaultTailChunkBytes);
    this.maxLineBytes = options.maxLineBytes ?? Number.MAX_SAFE_INTEGER;
  }

  /** Offset of the oldest byte read so far. */
  get offset(): number {
    return this.position;
  }

  get done(): boolean {
    return this.finished;
  }

  /**
   * The complete lines of the next chunk back, newest first; the oldest line of the file comes out
   * with the last chunk. Returns [] when nothing is left. Blank lines are skipped.
   */
  async next(): Promise<TailLine[]> {
    if (this.done) return [];
    const lines: TailLine[] = [];
    const size = Math.min(this.chunkBytes, this.position);
    // Passing over a huge line would otherwise leave a chunk of garbage per call.
    const chunk = this.spare?.length === size ? this.spare : Buffer.allocUnsafe(size);
    this.spare = undefined;
    const start = this.position - size;
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await this.handle.read(chunk, filled, size - filled, start + filled);
      if (bytesRead === 0) throw new Error(`file shrank while reading backwards at offset ${start + filled}`);
      filled += bytesRead;
    }
    this.position = start;
    let to = size;
    for (let nl = chunk.lastIndexOf(10, to - 1); nl !== -1; nl = to > 0 ? chunk.lastIndexOf(10, to - 1) : -1) {
      this.collect(chunk.subarray(nl + 1, to));
      this.emit(start + nl + 1, lines);
      to = nl;
    }
    this.collect(chunk.subarray(0, to));
    if (start === 0) {
      this.emit(0, lines);
      this.finished = true;
    }
    if (lines.length === 0 && this.pieces.length === 0) this.spare = chunk;
    return lines;
  }

  /** Prepends a piece of the current line; the chunk buffer is not reused, so no copy is needed. */
  private collect(piece: Buffer): void {
    if (this.skipping || piece.length === 0) return;
    if (this.pieceBytes + piece.length > this.maxLineBytes) {
      this.skipping = true;
      this.pieces = [];
      this.pieceBytes = 0;
      return;
    }
    this.pieces.push(piece);
    this.pieceBytes += piece.length;
  }

  /** The current line started at `offset`: hand it out (unless blank) and start the next one back. */
  private emit(offset: number, out: TailLine[]): void {
    const terminated = !this.lastLine;
    this.lastLine = false;
    if (this.skipping) {
      out.push({ bytes: Buffer.alloc(0), offset, terminated, tooLong: true });
    } else if (this.pieceBytes > 0) {
      const bytes = this.pieces.length === 1 ? this.pieces[0]! : Buffer.concat(this.pieces.reverse(), this.pieceBytes);
      if (!isBlank(bytes)) out.push({ bytes, offset, terminated, tooLong: false });
    }
    this.pieces = [];
    this.pieceBytes = 0;
    this.skipping = false;
  }
}

function isBlank(bytes: Buffer): boolean {
  for (const b of bytes) if (b !== 32 && b !== 9 && b !== 13) return false;
  return true;
}
