// One live tab: a running CLI (ClaudeClient) and the hub state its events build. Everything the
// client says goes through the reducer; stderr, protocol problems and the client's own log go to
// the Console.

import type { LogEntry } from "../../shared/api.js";
import type { ClientEvent } from "../../shared/events.js";
import type { Transcript } from "../../shared/transcript.js";
import { ClaudeClient, type ClaudeClientOptions } from "../cli/claudeClient.js";
import type { InitializeResult } from "../cli/initializeResult.js";
import type { PermissionDecider } from "../cli/permissionGate.js";
import { createSessionState, reduce, toTranscript, type SessionState } from "../hub/index.js";
import { stderrLines, type LogBus } from "./logBus.js";

export type ClientFactory = (options: ClaudeClientOptions) => ClaudeClient;

export interface LiveSessionOptions {
  readonly tabId: string;
  readonly client: Omit<ClaudeClientOptions, "decidePermission" | "log" | "tap">;
  readonly decidePermission: PermissionDecider;
  readonly log: LogBus;
  /** The transcript changed. */
  readonly onChange: () => void;
  readonly createClient?: ClientFactory;
}

export class LiveSession {
  readonly client: ClaudeClient;
  private state: SessionState;
  private init: InitializeResult | undefined;
  private readonly unsubscribe: () => void;

  constructor(private readonly options: LiveSessionOptions) {
    const { tabId, log } = options;
    const stderr = stderrLines((line) => log.add({ level: "warning", source: "cli-stderr", message: line, tabId }));
    this.state = createSessionState(options.client.resume ? { sessionId: options.client.resume } : undefined);
    const create = options.createClient ?? ((o: ClaudeClientOptions) => new ClaudeClient(o));
    this.client = create({
      ...options.client,
      decidePermission: options.decidePermission,
      log: (level, message, fields) => log.baton(level, message, fields, tabId),
      tap: { stderr: (chunk) => stderr.push(chunk) },
    });
    this.unsubscribe = this.client.on((event) => this.onEvent(event));
  }

  get transcript(): Transcript {
    return toTranscript(this.state);
  }
  get sessionId(): string | undefined {
    return this.client.sessionId ?? (this.state.meta.sessionId || undefined);
  }
  get initialize(): InitializeResult | undefined {
    return this.init;
  }

  async start(): Promise<InitializeResult> {
    this.init = await this.client.start();
    return this.init;
  }

  async stop(): Promise<void> {
    try {
      await this.client.stop();
    } finally {
      this.unsubscribe();
    }
  }

  private onEvent(event: ClientEvent): void {
    const problem = consoleEntry(event, this.options.tabId);
    if (problem !== undefined) this.options.log.add(problem);
    const next = reduce(this.state, event);
    if (next === this.state) return;
    this.state = next;
    this.options.onChange();
  }
}

/** Events that belong in the Console as well as (or instead of) the transcript. */
function consoleEntry(event: ClientEvent, tabId: string): Omit<LogEntry, "time"> | undefined {
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
