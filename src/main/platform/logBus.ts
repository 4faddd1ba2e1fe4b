// The Console's source: CLI stderr, protocol problems and Baton's own log, in one bounded ring.
// Listeners get entries as they happen; a new Console reads the ring first.

import type { LogEntry } from "../../shared/api.js";
import type { JsonObject } from "../../shared/protocol/messages.js";

export type LogListener = (entry: LogEntry) => void;

export class LogBus {
  private readonly ring: LogEntry[] = [];
  private readonly listeners = new Set<LogListener>();

  constructor(private readonly capacity = 2000) {}

  add(entry: Omit<LogEntry, "time"> & { readonly time?: string }): void {
    const full: LogEntry = { ...entry, time: entry.time ?? new Date().toISOString() };
    this.ring.push(full);
    if (this.ring.length > this.capacity) this.ring.splice(0, this.ring.length - this.capacity);
    for (const listener of [...this.listeners]) {
      try {
        listener(full);
      } catch {
        // A broken listener must not stop the others, nor log about itself in a loop.
      }
    }
  }

  baton(level: LogEntry["level"], message: string, fields?: Record<string, unknown>, tabId?: string): void {
    this.add({ level, source: "baton", message, ...(tabId ? { tabId } : {}), ...(fields ? { fields: toJson(fields) } : {}) });
  }

  entries(): readonly LogEntry[] {
    return [...this.ring];
  }

  subscribe(listener: LogListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** Splits a stderr byte stream into lines (a chunk may end mid-line); bounded per line. */
export function stderrLines(onLine: (line: string) => void, maxLine = 8192): { push(chunk: Buffer): void; flush(): void } {
  let partial = "";
  return {
    push(chunk) {
      const text = partial + chunk.toString("utf8");
      const lines = text.split(/\r?\n/);
      partial = lines.pop() ?? "";
      if (partial.length > maxLine) {
        lines.push(partial.slice(0, maxLine));
        partial = "";
      }
      for (const line of lines) if (line.trim() !== "") onLine(line.slice(0, maxLine));
    },
    flush() {
      if (partial.trim() !== "") onLine(partial);
      partial = "";
    },
  };
}

function toJson(fields: Record<string, unknown>): JsonObject {
  try {
    return JSON.parse(JSON.stringify(fields)) as JsonObject;
  } catch {
    return { unserializable: String(fields) };
  }
}
