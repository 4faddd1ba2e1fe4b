// Writes JSON lines to the CLI's stdin. Respects backpressure (queue while `write()` says the
// pipe is full, resume on 'drain') and never lets a closed pipe (EPIPE) crash Baton: the error is
// reported once and later writes are dropped with a `false` return. A CLI that stops reading
// cannot grow Baton's memory without bound: a line that would put more than `maxQueuedBytes` in
// waiting is refused (`false`, the writer still open), and a pipe that has not drained for
// `stallMs` is reported stalled once (the client then kills the CLI) and the writer closes.

import type { Writable } from "node:stream";

export interface StdinWriter {
  /** Queues one line (newline added). False: stdin is closed or broken, or (still open) the line would pass the bound. */
  writeLine(line: string): boolean;
  /** Ends stdin after everything queued has been handed to the pipe. */
  end(): void;
  /** Lines waiting for 'drain'. */
  readonly queuedLines: number;
  /** Bytes not yet taken by the reader: Baton's queue and the stream's own buffer. */
  readonly queuedBytes: number;
  readonly closed: boolean;
  /** Stops listening to the stream (call when the process is gone). */
  dispose(): void;
}

export interface StdinWriterOptions {
  /** Called once when the pipe breaks (EPIPE, ERR_STREAM_DESTROYED, …). */
  onError?(error: NodeJS.ErrnoException): void;
  /** Called for every line actually handed to the pipe (for recordings). */
  onWritten?(line: string): void;
  /** Most bytes waiting for the reader before it counts as stalled. Default DefaultMaxQueuedBytes. */
  readonly maxQueuedBytes?: number;
  /** How long the pipe may stay full before the reader counts as stalled. Default DefaultStallMs. */
  readonly stallMs?: number;
  /** Called once when the pipe has been full for `stallMs`; the writer is closed by then. */
  onStalled?(stall: StdinStall): void;
}

export interface StdinStall {
  /** Bytes that were waiting for the reader. */
  readonly queuedBytes: number;
  readonly stalledMs: number;
}

/** Room for several large image prompts; far more than a reading CLI ever leaves waiting. */
export const DefaultMaxQueuedBytes = 64 * 1024 * 1024;
/** A CLI reads its input while it works (it queues prompts), so a full pipe this long means it stopped. */
export const DefaultStallMs = 60_000;

export function createStdinWriter(stream: Writable, options: StdinWriterOptions = {}): StdinWriter {
  const queue: string[] = [];
  let queueBytes = 0;
  let waitingForDrain = false;
  let closed = false;
  let endRequested = false;
  const maxQueuedBytes = options.maxQueuedBytes ?? DefaultMaxQueuedBytes;
  const stallMs = options.stallMs ?? DefaultStallMs;
  let stallTimer: ReturnType<typeof setTimeout> | undefined;

  const pending = (): number => queueBytes + stream.writableLength;
  const stopStallTimer = (): void => {
    if (stallTimer !== undefined) clearTimeout(stallTimer);
    stallTimer = undefined;
  };
  const stalled = (): void => {
    if (closed) return;
    const stall: StdinStall = { queuedBytes: pending(), stalledMs: stallMs };
    closed = true;
    queue.length = 0;
    queueBytes = 0;
    stopStallTimer();
    options.onStalled?.(stall);
  };

  const onError = (error: NodeJS.ErrnoException) => {
    if (closed && queue.length === 0) return;
    closed = true;
    queue.length = 0;
    queueBytes = 0;
    stopStallTimer();
    options.onError?.(error);
  };
  const onDrain = () => {
    waitingForDrain = false;
    stopStallTimer();
    flush();
  };
  const onClose = () => {
    closed = true;
    queue.length = 0;
    queueBytes = 0;
    stopStallTimer();
  };
  stream.on("error", onError);
  stream.on("drain", onDrain);
  stream.on("close", onClose);

  function flush(): void {
    while (!waitingForDrain && !closed && queue.length > 0) {
      const line = queue.shift()!;
      queueBytes -= Buffer.byteLength(line) + 1;
      options.onWritten?.(line);
      if (!stream.write(line + "\n")) {
        waitingForDrain = true;
        stallTimer ??= setTimeout(stalled, stallMs);
        stallTimer.unref?.();
      }
    }
    if (endRequested && queue.length === 0 && !closed) {
      closed = true;
      stream.end();
    }
  }

  return {
    writeLine(line) {
      if (closed || endRequested || stream.destroyed || !stream.writable) return false;
      const bytes = Buffer.byteLength(line) + 1;
      // One line is always taken (a large prompt on an idle pipe); more only within the bound.
      if (pending() > 0 && pending() + bytes > maxQueuedBytes) return false;
      queue.push(line);
      queueBytes += bytes;
      flush();
      return true;
    },
    end() {
      if (endRequested) return;
      endRequested = true;
      flush();
    },
    get queuedLines() {
      return queue.length;
    },
    get queuedBytes() {
      return pending();
    },
    get closed() {
      return closed;
    },
    dispose() {
      closed = true;
      queue.length = 0;
      queueBytes = 0;
      stopStallTimer();
      stream.off("drain", onDrain);
      stream.off("close", onClose);
      // Keep a no-op error listener: a late EPIPE after disposal must not become an uncaught error.
      stream.off("error", onError);
      stream.on("error", () => undefined);
    },
  };
}
