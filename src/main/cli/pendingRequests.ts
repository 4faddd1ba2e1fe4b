// The table of outgoing control requests waiting for their `control_response`: each has an id,
// a timeout, and is settled exactly once (answer, error answer, timeout, or the process going away).

import type { JsonObject } from "../../shared/protocol/messages.js";
import { ControlRequestFailedError, ControlRequestTimeoutError } from "./errors.js";

interface Pending {
  readonly subtype: string;
  readonly resolve: (value: JsonObject | undefined) => void;
  readonly reject: (error: Error) => void;
  readonly timer: ReturnType<typeof setTimeout> | undefined;
}

export interface PendingRequests {
  /** Registers `requestId`; the promise settles when it is answered, times out or is rejected. */
  add(requestId: string, subtype: string, timeoutMs: number | undefined): Promise<JsonObject | undefined>;
  /** Settles a request from the CLI's answer. Returns false for an id nobody waits for. */
  settle(requestId: string, answer: { ok: true; response?: JsonObject } | { ok: false; error: string }): boolean;
  /** Rejects one request (e.g. its line could not be written). */
  reject(requestId: string, error: Error): boolean;
  /** Rejects every pending request with an error made for it (process exit, stop). */
  rejectAll(makeError: (subtype: string, requestId: string) => Error): void;
  readonly size: number;
}

export function createPendingRequests(): PendingRequests {
  const table = new Map<string, Pending>();

  function take(requestId: string): Pending | undefined {
    const entry = table.get(requestId);
    if (!entry) return undefined;
    table.delete(requestId);
    if (entry.timer) clearTimeout(entry.timer);
    return entry;
  }

  return {
    add(requestId, subtype, timeoutMs) {
      if (table.has(requestId)) return Promise.reject(new Error(`duplicate control request id ${requestId}`));
      return new Promise((resolve, reject) => {
        const timer =
          timeoutMs !== undefined && Number.isFinite(timeoutMs)
            ? setTimeout(() => {
                take(requestId)?.reject(new ControlRequestTimeoutError(subtype, requestId, timeoutMs));
              }, timeoutMs)
            : undefined;
        table.set(requestId, { subtype, resolve, reject, timer });
      });
    },
    settle(requestId, answer) {
      const entry = take(requestId);
      if (!entry) return false;
      if (answer.ok) entry.resolve(answer.response);
      else entry.reject(new ControlRequestFailedError(entry.subtype, requestId, answer.error));
      return true;
    },
    reject(requestId, error) {
      const entry = take(requestId);
      if (!entry) return false;
      entry.reject(error);
      return true;
    },
    rejectAll(makeError) {
      for (const requestId of [...table.keys()]) {
        const entry = take(requestId);
        entry?.reject(makeError(entry.subtype, requestId));
      }
    },
    get size() {
      return table.size;
    },
  };
}
