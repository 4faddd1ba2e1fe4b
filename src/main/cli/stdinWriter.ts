// Writes JSON lines to the CLI's stdin. Respects backpressure (queue while `write()` says the
// pipe is full, resume on 'drain') and never lets a closed pipe (EPIPE) crash Baton: the error is
// reported once and later writes are dropped with a `false` return.

import type { Writable } from "node:stream";

export interface StdinWriter {
  /** Queues one line (newline added). Returns false if stdin is already closed or broken. */
  writeLine(line: string): boolean;
  /** Ends stdin after everything queued has been handed to the pipe. */
  end(): void;
  /** Lines waiting for 'drain'. */
  readonly queuedLines: number;
  readonly closed: boolean;
  /** Stops listening to the stream (call when the process is gone). */
  dispose(): void;
}

export interface StdinWriterOptions {
  /** Called once when the pipe breaks (EPIPE, ERR_STREAM_DESTROYED, …). */
  onError?(error: NodeJS.ErrnoException): void;
  /** Called for every line actually handed to the pipe (for recordings). */
  onWritten?(line: string): void;
}

export function createStdinWriter(stream: Writable, options: StdinWriterOptions = {}): StdinWriter {
  const queue: string[] = [];
  let waitingForDrain = false;
  let closed = false;
  let endRequested = false;

  const onError = (error: NodeJS.ErrnoException) => {
    if (closed && queue.length === 0) return;
    closed = true;
    queue.length = 0;
    options.onError?.(error);
  };
  const onDrain = () => {
    waitingForDrain = false;
    flush();
  };
  const onClose = () => {
    closed = true;
    queue.length = 0;
  };
  stream.on("error", onError);
  stream.on("drain", onDrain);
  stream.on("close", onClose);

  function flush(): void {
    while (!waitingForDrain && !closed && queue.length > 0) {
      const line = queue.shift()!;
      options.onWritten?.(line);
      if (!stream.write(line + "\n")) waitingForDrain = true;
    }
    if (endRequested && queue.length === 0 && !closed) {
      closed = true;
      stream.end();
    }
  }

  return {
    writeLine(line) {
      if (closed || endRequested || stream.destroyed || !stream.writable) return false;
      queue.push(line);
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
    get closed() {
      return closed;
    },
    dispose() {
      closed = true;
      queue.length = 0;
      stream.off("drain", onDrain);
      stream.off("close", onClose);
      // Keep a no-op error listener: a late EPIPE after disposal must not become an uncaught error.
      stream.off("error", onError);
      stream.on("error", () => undefined);
    },
  };
}
