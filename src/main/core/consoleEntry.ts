// The client's events that belong in the Console as well as (or instead of) the transcript: a line
// the protocol reader could not take, a CLI that exited with an error, an API retry.

import type { LogEntry } from "../../shared/api.js";
import type { ClientEvent } from "../../shared/events.js";

export function consoleEntry(event: ClientEvent, tabId: string): Omit<LogEntry, "time"> | undefined {
  switch (event.kind) {
    case "protocol_problem":
      return {
        level: "warning",
        source: "protocol",
        message: event.reason,
        tabId,
        fields: { lineNumber: event.lineNumber, ...(event.excerpt !== undefined ? { excerpt: event.excerpt } : {}) },
      };
    case "process_exit":
      return event.error === undefined
        ? undefined
        : { level: "error", source: "baton", message: `claude exited: ${event.error}`, tabId, fields: { code: event.code, signal: event.signal } };
    case "api_retry":
      return { level: "warning", source: "protocol", message: `API retry ${event.attempt}/${event.maxRetries}: ${event.error}`, tabId };
    default:
      return undefined;
  }
}
