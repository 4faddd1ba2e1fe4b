// BatonApi in the browser (web mode): JSON-RPC over one WebSocket to `baton web`. Reconnects with
// backoff; subscriptions are re-established on every connection (a transcript subscription then
// starts with a fresh `reset`); a call that gets no answer in time resolves to a Result error.
// Its methods and subscriptions are made from the contract's names (apiOver), not listed here.

import type { BatonMethodName, Result, Unsubscribe, WsClientMessage, WsServerMessage } from "../../shared/api.js";
import type { BatonApi } from "../../shared/apiContract.js";
import { apiOver } from "../../shared/apiFacade.js";
import { BatonSubscriptions, keyOf, type SubscriptionName } from "../../shared/apiNames.js";

/** The part of the DOM WebSocket this client uses (the `ws` package fits too, for tests). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  addEventListener(type: "open" | "close" | "error", listener: () => void): void;
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
}

export interface WebSocketApiOptions {
  /** Default 30 s; starting a session waits longer. */
  readonly timeoutMs?: number;
  readonly newSessionTimeoutMs?: number;
  readonly createSocket?: (url: string, protocols: readonly string[]) => SocketLike;
  /** Offered in the handshake: web mode's tab secret rides here (see src/shared/webSignIn.ts). */
  readonly protocols?: readonly string[];
  /** Reconnect backoff: first delay and cap. */
  readonly backoffMs?: { readonly initial: number; readonly max: number };
  /** Connection state changes, for a "reconnecting…" banner. */
  readonly onStatus?: (status: "connecting" | "open" | "closed") => void;
}

export interface WebSocketApi extends BatonApi {
  /** Stops reconnecting and closes the socket; pending calls resolve with "closed". */
  close(): void;
}

interface Call {
  readonly message: WsClientMessage & { type: "call" };
  sent: boolean;
  readonly resolve: (result: Result<unknown>) => void;
  readonly timer: ReturnType<typeof setTimeout>;
}

const OPEN = 1;

export function createWebSocketApi(url: string, options: WebSocketApiOptions = {}): WebSocketApi {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const backoff = options.backoffMs ?? { initial: 250, max: 5_000 };
  const createSocket = options.createSocket ?? ((u: string, p: readonly string[]) => new WebSocket(u, [...p]) as unknown as SocketLike);
  const protocols = options.protocols ?? [];
  const calls = new Map<number, Call>();
  const subscriptions = new Map<string, { readonly message: WsClientMessage; readonly listener: (data: unknown) => void }>();
  let socket: SocketLike | undefined;
  let nextId = 1;
  let nextSub = 1;
  let delay = backoff.initial;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const write = (message: WsClientMessage): boolean => {
    if (socket?.readyState !== OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  };

  function connect(): void {
    if (closed) return;
    options.onStatus?.("connecting");
    const s = createSocket(url, protocols);
    socket = s;
    s.addEventListener("open", () => {
      if (socket !== s) return;
      delay = backoff.initial;
      options.onStatus?.("open");
      for (const { message } of subscriptions.values()) write(message);
      for (const call of calls.values()) if (!call.sent) call.sent = write(call.message);
    });
    s.addEventListener("message", (event) => {
      if (socket === s && typeof event.data === "string") receive(event.data);
    });
    s.addEventListener("close", () => {
      if (socket !== s) return;
      socket = undefined;
      // A call already sent may or may not have run; say so instead of retrying it.
      for (const [id, call] of calls) if (call.sent) settle(id, fail("disconnected", "The connection to Baton was lost"));
      options.onStatus?.("closed");
      scheduleReconnect();
    });
    s.addEventListener("error", () => undefined);
  }

  function scheduleReconnect(): void {
    if (closed || reconnectTimer !== undefined) return;
    const wait = delay * (0.75 + Math.random() * 0.5);
    delay = Math.min(delay * 2, backoff.max);
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      connect();
    }, wait);
  }

  function receive(text: string): void {
    let message: WsServerMessage;
    try {
      message = JSON.parse(text) as WsServerMessage;
    } catch {
      return;
    }
    if (message.type === "result") settle(message.id, message.result);
    else if (message.type === "event") subscriptions.get(message.sub)?.listener(message.data);
  }

  function settle(id: number, result: Result<unknown>): void {
    const call = calls.get(id);
    if (call === undefined) return;
    calls.delete(id);
    clearTimeout(call.timer);
    call.resolve(result);
  }

  function call(method: BatonMethodName, args: readonly unknown[]): Promise<Result<unknown>> {
    if (closed) return Promise.resolve(fail("closed", "The Baton connection is closed"));
    const id = nextId++;
    const wait = method === "newSession" ? (options.newSessionTimeoutMs ?? 120_000) : timeoutMs;
    return new Promise((resolve) => {
      const message = { type: "call" as const, id, method, args };
      const timer = setTimeout(() => settle(id, fail("timeout", `No answer to ${method} within ${Math.round(wait / 1000)} s`)), wait);
      calls.set(id, { message, sent: false, resolve, timer });
      calls.get(id)!.sent = write(message);
    });
  }

  function subscribe(name: SubscriptionName, key: unknown, listener: (data: unknown) => void): Unsubscribe {
    const sub = `s${nextSub++}`;
    const keyName = keyOf(name);
    // The key rides under its name (`tabId`); the server checks it against the contract.
    const message = { type: "subscribe", sub, topic: BatonSubscriptions[name].topic, ...(keyName !== undefined ? { [keyName]: key } : {}) } as WsClientMessage;
    subscriptions.set(sub, { message, listener });
    write(message);
    return () => {
      if (!subscriptions.delete(sub)) return;
      write({ type: "unsubscribe", sub });
    };
  }

  connect();

  return {
    ...apiOver({ call, subscribe }),
    close() {
      closed = true;
      if (reconnectTimer !== undefined) clearTimeout(reconnectTimer);
      for (const id of [...calls.keys()]) settle(id, fail("closed", "The Baton connection is closed"));
      subscriptions.clear();
      socket?.close();
      socket = undefined;
    },
  };
}

function fail(code: string, message: string): { ok: false; error: { code: string; message: string } } {
  return { ok: false, error: { code, message } };
}
