// A scripted Anthropic Messages API for driving the real `claude` CLI in tests. Each agent
// (the main thread, or a subagent recognised by a `[[NAME]]` marker in its first user message)
// gets its replies from a per-agent list of turns; the turn number is the count of assistant
// messages already in the request. Requests that are not agent turns (titles, compaction,
// suggestions, token counts, preflight) get fixed, plausible answers.

import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { classify, type SideKind } from "./model/classify.js";
import {
  errorBody,
  errorTypeFor,
  jsonMessage,
  sseEvents,
  sseFrame,
  type Reply,
  type ReplyBlock,
} from "./model/render.js";
import { ModelServerClosedError, WaitForRequestTimeoutError } from "./model/errors.js";
import { parseBody, readBody, sleep, untilAborted } from "./model/http.js";
import { sideReplyText, UNSCRIPTED_TEXT } from "./model/sideReplies.js";

export { ModelServerClosedError, WaitForRequestTimeoutError } from "./model/errors.js";

export type ScriptBlock =
  | { type: "text"; text: string }
  | { type: "thinking"; thinking: string }
  /** id default: `toolu_<agent>_t<turn>_<index>` (index = block index in the turn). */
  | { type: "tool_use"; name: string; input: Record<string, unknown>; id?: string };

export interface ScriptTurn {
  /**
   * The reply, or a function that works it out from the request it answers: for something the CLI
   * made up (an agent's id to send a message to), or a turn that depends on what the request says.
   */
  blocks?: ScriptBlock[] | ((request: Readonly<Record<string, unknown>>) => ScriptBlock[]);
  /**
   * Holds the answer until this resolves: for a turn that must come after a state the request
   * cannot show, however long that takes on a loaded machine (the CLI has written the transcript
   * the turn's tool call will read; the test has seen the state it looks for). Never a time.
   */
  waitFor?: (request: Readonly<Record<string, unknown>>, cli: CliSurroundings) => Promise<unknown>;
  /** Wait before answering (lets a test interrupt mid-turn). */
  delayMs?: number;
  /** Delay between SSE events (streaming that takes time). */
  chunkDelayMs?: number;
  /**
   * HTTP error instead of an answer. `times`: how many requests fail before the turn is served
   * (default: always). `headers` are added to the error response (e.g. `retry-after`).
   */
  error?: { status: number; type?: string; message?: string; times?: number; headers?: Record<string, string> };
  /** Default: tool_use if any tool_use block, else end_turn. */
  stopReason?: "end_turn" | "tool_use" | "max_tokens";
  /** Response headers added to the answer (e.g. the plan's `anthropic-ratelimit-unified-*`). */
  headers?: Record<string, string>;
}

/** What a turn's `waitFor` may look at besides the request. */
export interface CliSurroundings {
  /** The CLI's history folder (`~/.claude/projects` of its HOME), once the test has named it. */
  readonly projectsDir: string | undefined;
  /** Aborts when the CLI leaves the request or the server closes: stop waiting then. */
  readonly signal: AbortSignal;
}

/**
 * Turns per agent: "main" plus marker names, e.g. "SUB-A". Keys `side:title`, `side:compact`,
 * `side:suggestion`, `side:other` override the fixed side answers (their first turn is used).
 */
export interface Script {
  [agent: string]: ScriptTurn[];
}

export type RequestOutcome = "pending" | "served" | "error" | "aborted";

export interface LoggedRequest {
  /** 1-based count of requests this server received. */
  readonly n: number;
  /** "main", a marker name, or `side:<kind>` for side requests. */
  readonly agent: string;
  readonly turn: number;
  readonly kind: "agent" | "side";
  readonly side?: SideKind;
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  readonly headers: Readonly<http.IncomingHttpHeaders>;
  readonly body: Readonly<Record<string, unknown>>;
  readonly receivedAt: number;
  /** When the answer (reply or error) started; null while waiting or if the client left. */
  readonly servedAt: number | null;
  readonly outcome: RequestOutcome;
  /** Like the recordings' events: ["text", "tool_use:Bash:toolu_…"], or ["error:500"]. */
  readonly reply: readonly string[];
  /** True when the script had no turn for this agent/turn. */
  readonly unscripted: boolean;
  /** The agent the request came from (marker or "main"), also for side requests. */
  readonly fromAgent: string;
}

export interface ModelServer {
  readonly url: string;
  readonly port: number;
  /** Every request, in arrival order. Entries are updated in place as they are answered. */
  readonly requests: readonly LoggedRequest[];
  setScript(script: Script): void;
  /** Names the CLI's history folder for turns that wait on what the CLI writes there. */
  setProjectsDir(dir: string): void;
  /** Resolves with the first request (past or future) matching `pred`; default timeout 20 s. */
  waitForRequest(pred: (r: LoggedRequest) => boolean, timeoutMs?: number): Promise<LoggedRequest>;
  close(): Promise<void>;
}

export interface ModelServerOptions {
  port?: number;
  log?: (line: string) => void;
}

type MutableRequest = { -readonly [K in keyof LoggedRequest]: LoggedRequest[K] };

interface Waiter {
  readonly pred: (r: LoggedRequest) => boolean;
  readonly resolve: (r: LoggedRequest) => void;
  readonly reject: (e: Error) => void;
  readonly timer: NodeJS.Timeout;
}

const DEFAULT_WAIT_MS = 20_000;

/**
 * The reply's blocks, tool_use ids filled in. A default id is unique like the API's: a request that
 * repeats an agent's turn (a resumed agent whose request left out its earlier answers) gets its
 * request number appended rather than an id the CLI has already run.
 */
function replyBlocks(agent: string, turn: number, blocks: readonly ScriptBlock[], request: number, issued: Set<string>): ReplyBlock[] {
  return blocks.map((b, index) => {
    if (b.type !== "tool_use") return b;
    let id = b.id ?? `toolu_${agent}_t${turn}_${index}`;
    if (b.id === undefined && issued.has(id)) id = `${id}_r${request}`;
    issued.add(id);
    return { type: "tool_use", name: b.name, input: b.input, id };
  });
}

function summarise(blocks: readonly ReplyBlock[]): string[] {
  return blocks.map((b) => (b.type === "tool_use" ? `tool_use:${b.name}:${b.id}` : b.type));
}

function defaultStop(blocks: readonly ReplyBlock[]): Reply["stopReason"] {
  return blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
}

export function startModelServer(script: Script, opts: ModelServerOptions = {}): Promise<ModelServer> {
  const impl = new ScriptedServer(script, opts.log ?? (() => undefined));
  return impl.listen(opts.port ?? 0);
}

class ScriptedServer implements ModelServer {
  readonly requests: MutableRequest[] = [];
  private script: Script;
  private projectsDir: string | undefined;
  private readonly failures = new Map<string, number>();
  /** Every tool_use id served so far. */
  private readonly toolUseIds = new Set<string>();
  private readonly waiters = new Set<Waiter>();
  private readonly sockets = new Set<Socket>();
  private readonly closing = new AbortController();
  private readonly server: http.Server;
  private boundPort = 0;

  constructor(
    script: Script,
    private readonly log: (line: string) => void,
  ) {
    this.script = script;
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => this.fail(res, err));
    });
    this.server.on("connection", (socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
  }

  get port(): number {
    return this.boundPort;
  }

  get url(): string {
    return `http://127.0.0.1:${this.boundPort}`;
  }

  listen(port: number): Promise<ModelServer> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(port, "127.0.0.1", () => {
        this.server.off("error", reject);
        this.boundPort = (this.server.address() as AddressInfo).port;
        resolve(this);
      });
    });
  }

  setScript(script: Script): void {
    this.script = script;
    this.failures.clear();
  }

  setProjectsDir(dir: string): void {
    this.projectsDir = dir;
  }

  waitForRequest(pred: (r: LoggedRequest) => boolean, timeoutMs = DEFAULT_WAIT_MS): Promise<LoggedRequest> {
    const found = this.requests.find(pred);
    if (found) return Promise.resolve(found);
    if (this.closing.signal.aborted) return Promise.reject(new ModelServerClosedError());
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        const seen = this.requests.map((r) => `#${r.n} ${r.agent}/t${r.turn} ${r.outcome}`);
        reject(new WaitForRequestTimeoutError(timeoutMs, seen));
      }, timeoutMs);
      const waiter: Waiter = { pred, resolve, reject, timer };
      this.waiters.add(waiter);
    });
  }

  async close(): Promise<void> {
    this.closing.abort();
    for (const w of this.waiters) {
      clearTimeout(w.timer);
      w.reject(new ModelServerClosedError());
    }
    this.waiters.clear();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private notify(entry: MutableRequest): void {
    for (const w of this.waiters) {
      if (!w.pred(entry)) continue;
      clearTimeout(w.timer);
      this.waiters.delete(w);
      w.resolve(entry);
    }
  }

  private update(entry: MutableRequest, patch: Partial<MutableRequest>): void {
    Object.assign(entry, patch);
    this.notify(entry);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const n = this.requests.length + 1;
    const method = req.method ?? "GET";
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const body = parseBody(await readBody(req));
    if (body === null) {
      this.log(`#${n} ${method} ${path}: body is not a JSON object`);
      this.sendJson(res, 400, errorBody("invalid_request_error", "body is not a JSON object"));
      return;
    }
    const c = classify(method, path, body);
    const entry: MutableRequest = {
      n,
      agent: c.kind === "agent" ? c.agent : `side:${c.side}`,
      turn: c.turn,
      kind: c.kind,
      ...(c.kind === "side" ? { side: c.side } : {}),
      method,
      path,
      headers: req.headers,
      body,
      receivedAt: Date.now(),
      servedAt: null,
      outcome: "pending",
      reply: [],
      unscripted: false,
      fromAgent: c.agent,
    };
    this.requests.push(entry);
    this.notify(entry);

    const aborted = new AbortController();
    const onClose = (): void => {
      if (!res.writableFinished) aborted.abort();
    };
    res.on("close", onClose);
    const closing = this.closing.signal;
    const onServerClose = (): void => aborted.abort();
    closing.addEventListener("abort", onServerClose, { once: true });
    try {
      if (c.kind === "side") await this.answerSide(entry, c.side, res, aborted.signal);
      else await this.answerAgent(entry, res, aborted.signal);
    } finally {
      closing.removeEventListener("abort", onServerClose);
    }
  }

  private async answerSide(
    entry: MutableRequest,
    side: SideKind,
    res: http.ServerResponse,
    signal: AbortSignal,
  ): Promise<void> {
    if (side === "not_found" || (side === "preflight" && entry.method !== "POST")) {
      const status = entry.method === "HEAD" || entry.path === "/" ? 200 : 404;
      this.update(entry, { servedAt: Date.now(), outcome: "served", reply: [`status:${status}`] });
      if (status === 200) this.sendJson(res, 200, { ok: true });
      else this.sendJson(res, 404, errorBody("not_found_error", `no route ${entry.method} ${entry.path}`));
      return;
    }
    if (side === "count_tokens") {
      const tokens = Math.max(1, Math.ceil(JSON.stringify(entry.body).length / 4));
      this.update(entry, { servedAt: Date.now(), outcome: "served", reply: [`input_tokens:${tokens}`] });
      this.sendJson(res, 200, { input_tokens: tokens });
      return;
    }
    const override = this.script[`side:${side}`]?.[0];
    if (override) {
      await this.serveTurn(entry, override, res, signal);
      return;
    }
    const blocks: ReplyBlock[] = [{ type: "text", text: sideReplyText(side) }];
    await this.sendReply(entry, this.replyFor(entry, blocks, "end_turn"), res, signal, 0);
  }

  private async answerAgent(entry: MutableRequest, res: http.ServerResponse, signal: AbortSignal): Promise<void> {
    const turn = this.script[entry.agent]?.[entry.turn];
    if (!turn) {
      this.log(`#${entry.n} ${entry.agent} turn ${entry.turn}: no scripted turn`);
      entry.unscripted = true;
      const blocks: ReplyBlock[] = [{ type: "text", text: UNSCRIPTED_TEXT }];
      await this.sendReply(entry, this.replyFor(entry, blocks, "end_turn"), res, signal, 0);
      return;
    }
    await this.serveTurn(entry, turn, res, signal);
  }

  private async serveTurn(
    entry: MutableRequest,
    turn: ScriptTurn,
    res: http.ServerResponse,
    signal: AbortSignal,
  ): Promise<void> {
    if (turn.waitFor !== undefined && !(await untilAborted(turn.waitFor(entry.body, { projectsDir: this.projectsDir, signal }), signal))) {
      this.update(entry, { outcome: "aborted" });
      return;
    }
    if (!(await sleep(turn.delayMs ?? 0, signal))) {
      this.update(entry, { outcome: "aborted" });
      return;
    }
    if (turn.error && this.shouldFail(entry, turn.error.times)) {
      const { status } = turn.error;
      const type = turn.error.type ?? errorTypeFor(status);
      const message = turn.error.message ?? `scripted ${status} error`;
      this.log(`#${entry.n} ${entry.agent} turn ${entry.turn}: error ${status}`);
      this.update(entry, { servedAt: Date.now(), outcome: "error", reply: [`error:${status}`] });
      this.sendJson(res, status, errorBody(type, message), turn.error.headers);
      return;
    }
    const scripted = typeof turn.blocks === "function" ? turn.blocks(entry.body) : (turn.blocks ?? []);
    const blocks = replyBlocks(entry.fromAgent, entry.turn, scripted, entry.n, this.toolUseIds);
    const reply = this.replyFor(entry, blocks, turn.stopReason ?? defaultStop(blocks));
    await this.sendReply(entry, reply, res, signal, turn.chunkDelayMs ?? 0, turn.headers);
  }

  /** Counts failures per agent turn so `times` failures are followed by the real answer. */
  private shouldFail(entry: MutableRequest, times: number | undefined): boolean {
    const key = `${entry.agent}\u0000${entry.turn}`;
    const failed = this.failures.get(key) ?? 0;
    if (times !== undefined && failed >= times) return false;
    this.failures.set(key, failed + 1);
    return true;
  }

  private replyFor(entry: MutableRequest, blocks: ReplyBlock[], stopReason: Reply["stopReason"]): Reply {
    const model = typeof entry.body["model"] === "string" ? entry.body["model"] : "claude-scripted";
    const who = entry.kind === "agent" ? entry.agent : `side_${entry.side ?? "other"}`;
    return { id: `msg_${who}_t${entry.turn}_r${entry.n}`, model, blocks, stopReason };
  }

  private async sendReply(
    entry: MutableRequest,
    reply: Reply,
    res: http.ServerResponse,
    signal: AbortSignal,
    chunkDelayMs: number,
    headers: Record<string, string> = {},
  ): Promise<void> {
    this.log(`#${entry.n} ${entry.agent} turn ${entry.turn}: ${summarise(reply.blocks).join(", ")}`);
    this.update(entry, { servedAt: Date.now(), reply: summarise(reply.blocks) });
    if (entry.body["stream"] !== true) {
      this.sendJson(res, 200, jsonMessage(reply), headers);
      this.update(entry, { outcome: "served" });
      return;
    }
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      "request-id": `req_scripted_${entry.n}`,
      ...headers,
    });
    const events = sseEvents(reply);
    for (const [i, event] of events.entries()) {
      if (signal.aborted) break;
      res.write(sseFrame(event));
      if (chunkDelayMs > 0 && i < events.length - 1 && !(await sleep(chunkDelayMs, signal))) break;
    }
    if (signal.aborted) {
      this.update(entry, { outcome: "aborted" });
      res.destroy();
      return;
    }
    res.end();
    this.update(entry, { outcome: "served" });
  }

  private sendJson(
    res: http.ServerResponse,
    status: number,
    body: Record<string, unknown>,
    headers: Record<string, string> = {},
  ): void {
    if (res.headersSent || res.destroyed) return;
    const text = JSON.stringify(body);
    res.writeHead(status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(text),
      "request-id": `req_scripted_${this.requests.length}`,
      ...headers,
    });
    res.end(res.req.method === "HEAD" ? undefined : text);
  }

  private fail(res: http.ServerResponse, err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    this.log(`request failed: ${message}`);
    if (!res.headersSent && !res.destroyed) this.sendJson(res, 500, errorBody("api_error", message));
    else res.destroy();
  }
}
