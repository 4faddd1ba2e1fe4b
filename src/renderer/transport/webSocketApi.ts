// BatonApi in the browser (web mode): JSON-RPC over one WebSocket to `baton web`. Reconnects with
// backoff; subscriptions are re-established on every connection (a transcript subscription then
// starts with a fresh `reset`); a call that gets no answer in time resolves to a Result error.

import type {
  BatonApi,
  BatonMethodName,
  LogEntry,
  PolicyInfo,
  Result,
  TabInfo,
  TranscriptDelta,
  Unsubscribe,
  WsClientMessage,
  WsServerMessage,
} from "../../shared/api.js";

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

type Topic = { topic: "transcript"; tabId: string } | { topic: "tabs" } | { topic: "log" } | { topic: "policy" };
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
  const subscriptions = new Map<string, { readonly topic: Topic; readonly listener: (data: unknown) => void }>();
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
      for (const [sub, { topic }] of subscriptions) write({ type: "subscribe", sub, ...topic } as WsClientMessage);
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

  function call<T>(method: BatonMethodName, args: readonly unknown[]): Promise<Result<T>> {
    if (closed) return Promise.resolve(fail("closed", "The Baton connection is closed"));
    const id = nextId++;
    const wait = method === "newSession" ? (options.newSessionTimeoutMs ?? 120_000) : timeoutMs;
    return new Promise((resolve) => {
      const message = { type: "call" as const, id, method, args: trimUndefined(args) };
      const timer = setTimeout(() => settle(id, fail("timeout", `No answer to ${method} within ${Math.round(wait / 1000)} s`)), wait);
      calls.set(id, { message, sent: false, resolve: resolve as (r: Result<unknown>) => void, timer });
      calls.get(id)!.sent = write(message);
    });
  }

  function subscribe(topic: Topic, listener: (data: unknown) => void): Unsubscribe {
    const sub = `s${nextSub++}`;
    subscriptions.set(sub, { topic, listener });
    write({ type: "subscribe", sub, ...topic } as WsClientMessage);
    return () => {
      if (!subscriptions.delete(sub)) return;
      write({ type: "unsubscribe", sub });
    };
  }

  connect();

  return {
    listTabs: () => call("listTabs", []),
    listSessions: () => call("listSessions", []),
    searchHistory: (query, limit) => call("searchHistory", [query, limit]),
    openSession: (sessionId) => call("openSession", [sessionId]),
    loadSubagentBlocks: (tabId, toolUseId) => call("loadSubagentBlocks", [tabId, toolUseId]),
    newSession: (opts) => call("newSession", [opts]),
    closeTab: (tabId) => call("closeTab", [tabId]),
    sendPrompt: (tabId, text, images) => call("sendPrompt", [tabId, text, images]),
    interrupt: (tabId) => call("interrupt", [tabId]),
    setPermissionMode: (tabId, mode) => call("setPermissionMode", [tabId, mode]),
    setModel: (tabId, model) => call("setModel", [tabId, model]),
    answerPermission: (tabId, requestId, answer) => call("answerPermission", [tabId, requestId, answer]),
    answerEscalation: (tabId, escalationId, reply) => call("answerEscalation", [tabId, escalationId, reply]),
    getSessionInfo: (tabId) => call("getSessionInfo", [tabId]),
    chooseDirectory: () => call("chooseDirectory", []),
    getHistoryFolder: () => call("getHistoryFolder", []),
    setHistoryFolder: (dir) => call("setHistoryFolder", [dir]),
    getPolicy: () => call("getPolicy", []),
    setOrchestration: (on) => call("setOrchestration", [on]),
    setPolicyCheckOnly: (on) => call("setPolicyCheckOnly", [on]),
    addRule: (rule) => call("addRule", [rule]),
    deleteRule: (key) => call("deleteRule", [key]),
    resetPresets: () => call("resetPresets", []),
    listWorktrees: (tabId) => call("listWorktrees", [tabId]),
    worktreeDiff: (tabId, path) => call("worktreeDiff", [tabId, path]),
    mergeWorktree: (tabId, path) => call("mergeWorktree", [tabId, path]),
    removeWorktree: (tabId, path, rescue) => call("removeWorktree", [tabId, path, rescue]),
    openWorktree: (tabId, path, where) => call("openWorktree", [tabId, path, where]),
    onTranscriptDelta: (tabId, listener) => subscribe({ topic: "transcript", tabId }, (d) => listener(d as TranscriptDelta)),
    onTabsChanged: (listener) => subscribe({ topic: "tabs" }, (d) => listener(d as readonly TabInfo[])),
    onLog: (listener) => subscribe({ topic: "log" }, (d) => listener(d as LogEntry)),
    onPolicyChanged: (listener) => subscribe({ topic: "policy" }, (d) => listener(d as PolicyInfo)),
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

function trimUndefined(args: readonly unknown[]): unknown[] {
  const list = [...args];
  while (list.length > 0 && list[list.length - 1] === undefined) list.pop();
  return list;
}
