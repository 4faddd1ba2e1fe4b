// Keeps the last `maxBytes` of the CLI's stderr so a crash can be explained without letting a
// chatty process grow memory without bound.

export interface StderrRing {
  push(chunk: Buffer): void;
  /** The kept bytes as text (a cut multi-byte character at the start is replaced). */
  text(): string;
  /** Bytes dropped from the front so far. */
  readonly droppedBytes: number;
}

export function createStderrRing(maxBytes = 64 * 1024): StderrRing {
  if (!(maxBytes > 0)) throw new RangeError("maxBytes must be positive");
  let chunks: Buffer[] = [];
  let size = 0;
  let dropped = 0;

  return {
    push(chunk) {
      if (chunk.length >= maxBytes) {
        dropped += size + chunk.length - maxBytes;
        chunks = [Buffer.from(chunk.subarray(chunk.length - maxBytes))];
        size = maxBytes;
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
      while (size > maxBytes) {
        const head = chunks[0]!;
        const excess = size - maxBytes;
        if (head.length <= excess) {
          chunks.shift();
          size -= head.length;
          dropped += head.length;
        } else {
          chunks[0] = head.subarray(excess);
          size -= excess;
          dropped += excess;
        }
      }
    },
    text() {
      return Buffer.concat(chunks, size).toString("utf8");
    },
    get droppedBytes() {
      return dropped;
    },
  };
}
