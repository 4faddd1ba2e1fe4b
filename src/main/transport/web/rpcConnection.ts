// One WebSocket client of web mode: calls go to BatonService (which validates them), subscriptions
// (topics and keys as the contract names them) forward events until unsubscribed or the socket
// closes. Transport-agnostic (takes `send`).
// `newSession` is rate-limited per connection: whoever holds the socket may be a script, and each
// call starts a `claude`. (The Electron bridge has no such limit: it answers only the app's own
// main frame, and the process cap in SessionManager bounds both.)

import type { WsServerMessage } from "../../../shared/api.js";
import type { BatonService } from "../../core/batonService.js";
import { isPlainObject } from "../../../shared/apiChecks.js";
import { keyOf, subscriptionOfTopic } from "../../../shared/apiNames.js";
import { isMethodName } from "../../core/validators.js";
import { createTokenBucket } from "./tokenBucket.js";

export interface RpcConnection {
  /** Handles one text frame from the page. */
  handle(text: string): void;
  /** The socket closed: end every subscription. */
  close(): void;
}

const MaxSubscriptions = 1000;

/**
 * New sessions per connection: five at once (a person opening a few tabs, resuming a few sessions),
 * then one every two seconds, more than hands need and few enough that a script cannot spawn a
 * stream of CLIs (each failed or refused call counts too).
 */
export const NewSessionRate = { burst: 5, refillMs: 2000 } as const;

export interface RpcConnectionOptions {
  /** The rate limit's clock (milliseconds). Default Date.now. */
  readonly now?: () => number;
}

export function createRpcConnection(service: BatonService, send: (message: WsServerMessage) => void, options: RpcConnectionOptions = {}): RpcConnection {
  const subscriptions = new Map<string, () => void>();
  let closed = false;
  const newSessions = createTokenBucket({ ...NewSessionRate, ...(options.now !== undefined ? { now: options.now } : {}) });
  const fail = (message: string) => send({ type: "error", error: { code: "bad_message", message } });

  function subscribe(message: Record<string, unknown>): void {
    const { sub, topic } = message;
    if (typeof sub !== "string" || sub.length === 0 || sub.length > 100) return fail("subscribe needs a string `sub`");
    if (subscriptions.has(sub)) return fail(`subscription ${sub} exists`);
    if (subscriptions.size >= MaxSubscriptions) return fail("too many subscriptions");
    const name = subscriptionOfTopic(topic);
    if (name === undefined) return fail("unknown subscription topic");
    const keyName = keyOf(name);
    // What is now is sent at once (BatonService.subscribe), as over Electron's IPC.
    const opened = service.subscribe(name, keyName !== undefined && Object.hasOwn(message, keyName) ? message[keyName] : undefined, (data) => {
      if (!closed) send({ type: "event", sub, data });
    });
    if (!opened.ok) return send({ type: "error", error: opened.error });
    subscriptions.set(sub, opened.value);
  }

  return {
    handle(text) {
      if (closed) return;
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        return fail("not JSON");
      }
      if (!isPlainObject(message)) return fail("a message must be an object");
      switch (message.type) {
        case "call": {
          const { id, method, args } = message;
          if (typeof id !== "number" || !Number.isSafeInteger(id)) return fail("call needs a numeric `id`");
          if (!isMethodName(method)) {
            send({ type: "result", id, result: { ok: false, error: { code: "unknown_method", message: `No method ${String(method)}` } } });
            return;
          }
          if (method === "newSession" && !newSessions.take()) {
            const seconds = Math.ceil(newSessions.waitMs() / 1000);
            const message = `Too many new sessions from this page at once (at most ${NewSessionRate.burst}, then one every ${NewSessionRate.refillMs / 1000} s); try again in ${seconds} s`;
            send({ type: "result", id, result: { ok: false, error: { code: "rate_limited", message } } });
            return;
          }
          void service.call(method, args).then((result) => {
            if (!closed) send({ type: "result", id, result });
          });
          return;
        }
        case "subscribe":
          return subscribe(message);
        case "unsubscribe": {
          const stop = typeof message.sub === "string" ? subscriptions.get(message.sub) : undefined;
          if (stop === undefined) return;
          subscriptions.delete(message.sub as string);
          stop();
          return;
        }
        default:
          return fail("unknown message type");
      }
    },
    close() {
      closed = true;
      for (const stop of subscriptions.values()) stop();
      subscriptions.clear();
    },
  };
}

