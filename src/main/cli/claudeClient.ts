// The protocol client: runs the real `claude` CLI in stream-json mode, turns its stdout into
// ClientEvents, answers its control requests, and sends user messages and control requests.
// One instance follows one conversation; `restart()` continues it in a new process
// (`--resume <sessionId>`). The lines both ways are typed in src/shared/protocol/messages.ts.

import { randomBytes, randomUUID } from "node:crypto";
import { statSync } from "node:fs";
import type { ClientEvent } from "../../shared/events.js";
import type {
  ClientLine,
  ControlResponseMessage,
  InitializeRequest,
  JsonObject,
  OutgoingControlRequest,
  PermissionMode,
  ProtocolMessage,
} from "../../shared/protocol/messages.js";
import { toClientEvents } from "../../shared/protocol/toClientEvents.js";
import { createMcpRelay, type McpRelay } from "../mcp/controlRelay.js";
import type { McpServer } from "../mcp/mcpServer.js";
import { spawnCli, type CliProcess, type ExitInfo, type StopTimeouts } from "./cliProcess.js";
import {
  ClaudeClientError,
  ClaudeInputBacklogError,
  ControlRequestFailedError,
  ClaudeProcessError,
  ClaudeUnresponsiveError,
  ClientNotRunningError,
  ClientStoppedError,
  WorkingDirectoryError,
} from "./errors.js";
import { plansDirFor } from "./planFile.js";
import { createIncomingRequests, type HookCallbackHandler, type IncomingRequests } from "./incomingRequests.js";
import { parseInitializeResponse, type InitializeResult } from "./initializeResult.js";
import { createPendingRequests, type PendingRequests } from "./pendingRequests.js";
import { rewindAnswerOf, withFileCheckpointing, type RewindFilesAnswer } from "./rewindFiles.js";
import type { PermissionDecider } from "./permissionGate.js";
import { buildSpawnArgs, type SpawnArgsOptions } from "./spawnArgs.js";
import { createStdoutReader, type StdoutReader } from "./stdoutReader.js";

export type LogLevel = "debug" | "info" | "warning" | "error";
export type ClientLogger = (level: LogLevel, message: string, fields?: Record<string, unknown>) => void;

export interface ClaudeClientOptions extends SpawnArgsOptions {
  /** The `claude` binary (see findClaude). */
  readonly claudePath: string;
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Extra fields of the `initialize` request (hooks, custom agents, system prompt, title). */
  readonly initialize?: Omit<InitializeRequest, "subtype">;
  /** Decides every `can_use_tool`. Default: deny everything (fail closed). */
  readonly decidePermission?: PermissionDecider;
  /** Deny a permission request the decider has not answered in this time. Default: no limit. */
  readonly permissionTimeoutMs?: number;
  readonly onHookCallback?: HookCallbackHandler;
  /**
   * MCP servers run in Baton's process (src/main/mcp/), handed to the CLI in `initialize.sdkMcpServers`;
   * their tools are `mcp__<server>__<tool>`. Nothing allows them wholesale (no `--allowedTools`):
   * which agent may call which is the policy's decision, and its allow through the PreToolUse hook
   * spares the legitimate callers a permission prompt (docs/protocol-notes.md, "SDK MCP servers").
   * One server object per client: JSON-RPC ids are only unique per CLI.
   */
  readonly mcpServers?: readonly McpServer[];
  /** Timeout for outgoing control requests (interrupt, set_model, …). Default 30 s. */
  readonly controlTimeoutMs?: number;
  /** Timeout for the `initialize` answer. Default 60 s. */
  readonly initializeTimeoutMs?: number;
  readonly maxLineBytes?: number;
  readonly stderrMaxBytes?: number;
  /** Most bytes of input left waiting for the CLI to read (stdinWriter.ts). Default 64 MiB. */
  readonly stdinMaxQueuedBytes?: number;
  /** How long the CLI may leave its input unread before Baton kills it. Default 60 s. */
  readonly stdinStallMs?: number;
  readonly stopTimeouts?: StopTimeouts;
  readonly log?: ClientLogger;
  /** Raw traffic, for recordings and the Console. */
  readonly tap?: {
    stdoutLine?(text: string): void;
    stdinLine?(text: string): void;
    stderr?(chunk: Buffer): void;
  };
}

export interface UserInput {
  readonly text: string;
  readonly images?: readonly { readonly mediaType: string; readonly data: string }[];
  /** Becomes the prompt's transcript uuid. Default: a new random uuid. */
  readonly uuid?: string;
}

export interface ClientExit extends ExitInfo {
  /** True when Baton asked for the exit (`stop()`). */
  readonly requested: boolean;
  /** The typed reason for an exit nobody asked for (crash, not found). */
  readonly error?: ClaudeClientError | Error;
}

export type ClientListener = (event: ClientEvent) => void;

/** The CLI's answer to an interrupt. */
export interface InterruptReceipt {
  /** 2.1.332+ `still_queued`: how many prompts are still queued behind it; absent when the answer has no body (2.1.197). */
  readonly stillQueued?: number;
}

/** Everything tied to one process; a restart makes a new one. */
interface Run {
  readonly process: CliProcess;
  readonly reader: StdoutReader;
  readonly pending: PendingRequests;
  readonly incoming: IncomingRequests;
  readonly mcp: McpRelay | undefined;
  stopRequested: boolean;
  /** Set when Baton killed the process for not responding: the exit's error says why. */
  killReason: string | undefined;
  /** It answered `initialize`: an exit before that is a failure to start. */
  ready: boolean;
  readonly exit: Promise<ClientExit>;
}

const DEFAULT_CONTROL_TIMEOUT_MS = 30_000;
const DEFAULT_INITIALIZE_TIMEOUT_MS = 60_000;

const failClosed: PermissionDecider = async () => ({
  behavior: "deny",
  message: "Baton has no permission handler; denied.",
  decidedBy: "no-handler",
});

export class ClaudeClient {
  private readonly listeners = new Set<ClientListener>();
  private readonly log: ClientLogger;
  private run: Run | undefined;
  private currentSessionId: string | undefined;
  private requestCounter = 0;
  private lastExit: ClientExit | undefined;
  private lastArgs: readonly string[] = [];

  constructor(private readonly options: ClaudeClientOptions) {
    this.log = options.log ?? (() => undefined);
    this.currentSessionId = options.resume && !options.forkSession ? options.resume : undefined;
    const mcpNames = options.mcpServers?.map((server) => server.name) ?? [];
    if (new Set(mcpNames).size !== mcpNames.length) throw new Error(`two SDK MCP servers share a name: ${mcpNames.join(", ")}`);
  }

  /** The session id from the last `system/init` (or the resumed id before the first one). */
  get sessionId(): string | undefined {
    return this.currentSessionId;
  }
  get running(): boolean {
    return this.run !== undefined && !this.run.process.hasExited;
  }
  get pid(): number | undefined {
    return this.run?.process.pid;
  }
  /** How the last process ended, once it has. */
  get exitInfo(): ClientExit | undefined {
    return this.lastExit;
  }
  /** The arguments of the current (or last) process. */
  get spawnArgs(): readonly string[] {
    return this.lastArgs;
  }
  get stderrTail(): string {
    return this.run?.process.stderr.text() ?? this.lastExit?.stderrTail ?? "";
  }

  /** Subscribes to events; returns the unsubscribe function. */
  on(listener: ClientListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Spawns the CLI and completes `initialize`. Rejects with a typed error if either fails. */
  async start(): Promise<InitializeResult> {
    return this.launch(buildSpawnArgs(this.options));
  }

  /** Stops the current process (if any) and continues the same session in a new one. */
  async restart(): Promise<InitializeResult> {
    const sessionId = this.currentSessionId;
    if (!sessionId) throw new ClientNotRunningError("restart a session that has no session id yet");
    if (this.running) await this.stop();
    return this.launch(buildSpawnArgs({ ...this.options, resume: sessionId, forkSession: false }));
  }

  /**
   * Starts a new conversation in a new process: for a session the CLI cannot resume (it died
   * before it saved any of it). The new `system/init` brings the new session id.
   */
  async startOver(): Promise<InitializeResult> {
    if (this.running) await this.stop();
    this.currentSessionId = undefined;
    return this.launch(buildSpawnArgs({ ...this.options, resume: undefined, forkSession: false }));
  }

  /** Sends a user message; returns its uuid. The CLI folds it into a running turn if there is one. */
  send(input: string | UserInput): string {
    const run = this.liveRun("send a message");
    const { text, images, uuid = randomUUID() } = typeof input === "string" ? { text: input } : input;
    const content = images?.length
      ? [
          ...images.map((image) => ({
            type: "image" as const,
            source: { type: "base64" as const, media_type: image.mediaType, data: image.data },
          })),
          { type: "text" as const, text },
        ]
      : text;
    const line: ClientLine = {
      type: "user",
      message: { role: "user", content },
      parent_tool_use_id: null,
      session_id: this.currentSessionId ?? "",
      uuid,
    };
    if (!run.process.stdin.writeLine(JSON.stringify(line))) throw notWritten(run, "send a message");
    this.emit({
      kind: "user_prompt",
      uuid,
      parentToolUseId: null,
      text,
      ...(images?.length ? { images } : {}),
      timestamp: new Date().toISOString(),
    });
    return uuid;
  }

  /**
   * Closes the CLI's stdin: no more messages, answers or control requests (one-shot use). The CLI
   * finishes what it started and exits; with a background agent running it holds the turn's
   * result back until the agent is done. `stop()` ends a session early.
   */
  endInput(): void {
    this.liveRun("end its input").process.stdin.end();
  }

  /**
   * Interrupts the turn and kills every live background agent. Resolves on the CLI's answer, which
   * comes once the agents are stopped; a `result` follows only if a turn was running (2.1.332 sends
   * none when the main turn had already ended), so waiting for one is the caller's choice.
   */
  async interrupt(): Promise<InterruptReceipt> {
    return interruptReceiptOf(await this.request({ subtype: "interrupt" }));
  }
  async setPermissionMode(mode: PermissionMode): Promise<void> {
    await this.request({ subtype: "set_permission_mode", mode });
  }
  async setModel(model?: string): Promise<void> {
    await this.request(model === undefined ? { subtype: "set_model" } : { subtype: "set_model", model });
  }

  /**
   * Restores every file the session's Write/Edit calls changed to its state just before the prompt
   * `userMessageId`; with `dryRun`, only says which files that would change. A refusal (no
   * checkpoint for that prompt, checkpointing off) is an answer with the CLI's reason, not an error.
   */
  async rewindFiles(userMessageId: string, dryRun: boolean): Promise<RewindFilesAnswer> {
    try {
      return rewindAnswerOf(await this.request({ subtype: "rewind_files", user_message_id: userMessageId, dry_run: dryRun }));
    } catch (error) {
      // The real rewind refuses with an error answer where the dry run answers canRewind: false.
      if (error instanceof ControlRequestFailedError) return { canRewind: false, error: error.cliMessage, filesChanged: [], insertions: 0, deletions: 0 };
      throw error;
    }
  }

  /**
   * Settles every open call to Baton's MCP tools with an error the model reads as the tool's result
   * (e.g. nobody is left to answer a question); the handlers' signals fire with `reason`.
   */
  abortOpenToolCalls(reason: string): void {
    this.run?.mcp?.abortOpenCalls(reason);
  }

  /** Denies every open permission request (e.g. the window that would ask is gone). */
  denyOpenPermissions(decidedBy: string, message: string): void {
    this.run?.incoming.permissions.denyAll(decidedBy, message);
  }

  /**
   * Ends the process: open permission requests are denied and open MCP tool calls settled (their
   * handlers see the abort), then stdin closed → SIGTERM → SIGKILL.
   */
  async stop(timeouts: StopTimeouts = this.options.stopTimeouts ?? {}): Promise<ClientExit> {
    const run = this.run;
    if (!run) return this.lastExit ?? { code: null, signal: null, stderrTail: "", requested: true };
    if (!run.process.hasExited) {
      run.stopRequested = true;
      run.incoming.permissions.denyAll("shutdown", "Baton is stopping this session; denied.");
      run.mcp?.abandon("Baton stopped this session.");
      await run.process.stop(timeouts);
    }
    return run.exit;
  }

  /**
   * Kills the process and every process it started at once, for a CLI that no longer responds (a
   * Stop it did not act on, input it does not read): open permission requests are denied and open
   * MCP calls settled first, and the exit's error (ClaudeUnresponsiveError) carries `reason`.
   */
  async kill(reason: string): Promise<ClientExit> {
    const run = this.run;
    if (!run) return this.lastExit ?? { code: null, signal: null, stderrTail: "", requested: false };
    return this.killRun(run, reason);
  }

  private async killRun(run: Run, reason: string): Promise<ClientExit> {
    if (!run.process.hasExited && run.killReason === undefined) {
      run.killReason = reason;
      run.incoming.permissions.denyAll("unresponsive", `${reason} Denied.`);
      run.mcp?.abandon(reason);
      // With the commands it started: killed alone, they would run on, re-parented to init.
      await run.process.killTree("SIGKILL");
    }
    return run.exit;
  }

  /** Resolves when the current process has exited (immediately if none runs). */
  async waitForExit(): Promise<ClientExit | undefined> {
    return this.run ? this.run.exit : this.lastExit;
  }

  /** Sends an outgoing control request and waits for its answer. */
  async request(request: OutgoingControlRequest, timeoutMs?: number): Promise<JsonObject | undefined> {
    const run = this.liveRun(`send "${request.subtype}"`);
    const requestId = `req_${++this.requestCounter}_${randomBytes(4).toString("hex")}`;
    const answer = run.pending.add(requestId, request.subtype, timeoutMs ?? this.options.controlTimeoutMs ?? DEFAULT_CONTROL_TIMEOUT_MS);
    const line: ClientLine = { type: "control_request", request_id: requestId, request };
    if (!run.process.stdin.writeLine(JSON.stringify(line))) run.pending.reject(requestId, notWritten(run, `send "${request.subtype}"`));
    return answer;
  }

  private async launch(args: string[]): Promise<InitializeResult> {
    if (this.running) throw new Error("ClaudeClient is already running; stop() it first");
    if (!isDirectory(this.options.cwd)) throw new WorkingDirectoryError(this.options.cwd);
    this.lastArgs = args;
    const run = this.spawnRun(args);
    this.log("info", "claude started", { path: this.options.claudePath, args, pid: run.process.pid });
    try {
      const response = await this.request(
        { subtype: "initialize", forwardSubagentText: true, agentProgressSummaries: true, ...this.options.initialize, ...sdkMcpFields(run.mcp) },
        this.options.initializeTimeoutMs ?? DEFAULT_INITIALIZE_TIMEOUT_MS,
      );
      run.ready = true;
      return parseInitializeResponse(response);
    } catch (error) {
      if (!run.process.hasExited) {
        run.stopRequested = true;
        await run.process.stop({ closeStdinMs: 500, sigtermMs: 2000 });
      }
      const exit = await run.exit;
      throw exit.error ?? error;
    }
  }

  private spawnRun(args: string[]): Run {
    const { options } = this;
    const reader = createStdoutReader({
      ...(options.maxLineBytes !== undefined ? { maxLineBytes: options.maxLineBytes } : {}),
      onLine: (text) => options.tap?.stdoutLine?.(text),
      onMessage: (message, lineNumber) => this.handleMessage(run, message, lineNumber),
      onProblem: (problem, text) => {
        // Debug only: the event below is the Console's one entry for this line (consoleEntry.ts).
        this.log("debug", "unreadable line from claude", { lineNumber: problem.lineNumber, reason: problem.reason });
        this.emit(problem);
        const requestId = text === undefined ? undefined : controlRequestIdOf(text);
        if (requestId) run.incoming.refuse(requestId, problem.reason);
      },
    });
    const process = spawnCli({
      path: options.claudePath,
      args,
      cwd: options.cwd,
      env: withFileCheckpointing(options.env ?? globalThis.process.env),
      ...(options.stderrMaxBytes !== undefined ? { stderrMaxBytes: options.stderrMaxBytes } : {}),
      onStdout: (chunk) => reader.push(chunk),
      ...(options.tap?.stderr ? { onStderr: options.tap.stderr } : {}),
      onStdinError: (error) => this.log("warning", "claude stdin closed under us", { code: error.code, message: error.message }),
      ...(options.tap?.stdinLine ? { onStdinWritten: options.tap.stdinLine } : {}),
      ...(options.stdinMaxQueuedBytes !== undefined ? { stdinMaxQueuedBytes: options.stdinMaxQueuedBytes } : {}),
      ...(options.stdinStallMs !== undefined ? { stdinStallMs: options.stdinStallMs } : {}),
      onStdinStalled: (stall) => {
        const waited = `${Math.ceil(stall.queuedBytes / 1024)} KB waited ${Math.round(stall.stalledMs / 1000)} s`;
        void this.killRun(run, `Claude Code stopped reading its input (${waited}).`);
      },
    });
    const send = (line: ControlResponseMessage): void => {
      if (!process.stdin.writeLine(JSON.stringify(line))) {
        this.log("warning", "could not answer claude: stdin is closed", { requestId: line.response.request_id });
      }
    };
    const mcp = options.mcpServers?.length
      ? createMcpRelay({
          servers: options.mcpServers,
          answer: (requestId, response) => send({ type: "control_response", response: { subtype: "success", request_id: requestId, response } }),
          fail: (requestId, error) => send({ type: "control_response", response: { subtype: "error", request_id: requestId, error } }),
          log: (level, message, fields) => this.log(level, message, fields),
        })
      : undefined;
    const incoming = createIncomingRequests({
      decidePermission: options.decidePermission ?? failClosed,
      ...(options.permissionTimeoutMs !== undefined ? { permissionTimeoutMs: options.permissionTimeoutMs } : {}),
      ...(options.onHookCallback ? { onHookCallback: options.onHookCallback } : {}),
      plansDir: plansDirFor(options.env ?? globalThis.process.env),
      ...(mcp ? { mcp } : {}),
      send,
      emit: (event) => this.emit(event),
      log: this.log,
    });
    const run: Run = {
      process,
      reader,
      pending: createPendingRequests(),
      incoming,
      mcp,
      stopRequested: false,
      killReason: undefined,
      ready: false,
      exit: process.exited.then((info) => this.finishRun(run, info)),
    };
    this.run = run;
    return run;
  }

  private handleMessage(run: Run, message: ProtocolMessage, lineNumber: number): void {
    if (message.type === "system" && message.subtype === "init") this.currentSessionId = message.session_id;
    for (const event of toClientEvents(message, lineNumber)) this.emit(event);
    switch (message.type) {
      case "control_request":
        run.incoming.handle(message.request_id, message.request);
        return;
      case "control_response": {
        const { response } = message;
        const known =
          response.subtype === "success"
            ? run.pending.settle(response.request_id, { ok: true, ...(response.response ? { response: response.response } : {}) })
            : run.pending.settle(response.request_id, { ok: false, error: response.error });
        if (!known) this.log("debug", "control_response for an unknown request", { requestId: response.request_id });
        return;
      }
      case "control_cancel_request":
        run.incoming.cancel(message.request_id);
        return;
      case "unknown":
        // A request type this Baton does not know still needs an answer, or the CLI waits forever.
        if (message.originalType === "control_request") {
          const requestId = controlRequestIdOf(message.raw);
          if (requestId) run.incoming.handle(requestId, { subtype: message.originalSubtype ?? "unknown" });
        }
        return;
      default:
        return;
    }
  }

  private finishRun(run: Run, info: ExitInfo): ClientExit {
    run.reader.end();
    run.incoming.abandonAll();
    const requested = run.stopRequested;
    let error: ClaudeClientError | Error | undefined = info.spawnError;
    if (!error && run.killReason !== undefined) {
      error = new ClaudeUnresponsiveError(run.killReason, info.signal);
    } else if (!error && !requested && (info.code !== 0 || info.signal !== null)) {
      error = new ClaudeProcessError(info.code, info.signal, info.stderrTail, !run.ready);
    }
    const pendingError = error ?? (requested ? undefined : new ClaudeProcessError(info.code, info.signal, info.stderrTail));
    run.pending.rejectAll((subtype) => pendingError ?? new ClientStoppedError(`control request "${subtype}"`));
    const exit: ClientExit = { ...info, requested, ...(error ? { error } : {}) };
    this.lastExit = exit;
    this.log(error ? "error" : "info", "claude exited", { code: info.code, signal: info.signal, requested, error: error?.message });
    this.emit({
      kind: "process_exit",
      code: info.code,
      signal: info.signal,
      ...(error ? { error: error.message } : {}),
    });
    return exit;
  }

  private liveRun(operation: string): Run {
    const run = this.run;
    if (!run || run.process.hasExited || run.stopRequested || run.killReason !== undefined) throw new ClientNotRunningError(operation);
    return run;
  }

  private emit(event: ClientEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.log("error", "event listener threw", { kind: event.kind, error: String(error) });
      }
    }
  }
}

/** Why a line was not written: the CLI is gone, or (still running) it has stopped reading. */
function notWritten(run: Run, operation: string): ClaudeClientError {
  const stdin = run.process.stdin;
  return stdin.closed ? new ClientNotRunningError(operation) : new ClaudeInputBacklogError(operation, stdin.queuedBytes);
}

/** `initialize` fields that hand the CLI Baton's MCP servers; long calls must never be backgrounded. */
function sdkMcpFields(mcp: McpRelay | undefined): Pick<InitializeRequest, "sdkMcpServers" | "sdkMcpServerConfigs"> {
  if (!mcp) return {};
  return {
    sdkMcpServers: mcp.serverNames,
    sdkMcpServerConfigs: Object.fromEntries(mcp.serverNames.map((name) => [name, { disableAutoBackground: true }])),
  };
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

function interruptReceiptOf(body: JsonObject | undefined): InterruptReceipt {
  const queued = body?.["still_queued"];
  return Array.isArray(queued) ? { stillQueued: queued.length } : {};
}

/** The request_id of a control_request we could not otherwise use (raw JSON value or line). */
function controlRequestIdOf(value: unknown): string | undefined {
  let object = value;
  if (typeof value === "string") {
    try {
      object = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (typeof object !== "object" || object === null) return undefined;
  const record = object as { type?: unknown; request_id?: unknown };
  return record.type === "control_request" && typeof record.request_id === "string" ? record.request_id : undefined;
}
