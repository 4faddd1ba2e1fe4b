// One live tab: a running CLI (ClaudeClient) and the hub's session model its events build.
// Everything the client says goes through the model (eventBatch.ts, a stdout read at a time);
// stderr, protocol problems and the client's own log go to the Console. What the stream leaves
// out (nested agents' messages, capped steps, Workflow agents) is read from the session's files
// when a card asks (subagentSteps.ts) and applied to the same model. With an audit trail, the
// tab's decisions, interrupts and session DAG are written there (liveAudit.ts).

import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import type { LogEntry } from "../../shared/api.js";
import type { ClientEvent } from "../../shared/events.js";
import type { Block, SubagentRecord, Transcript } from "../../shared/transcript.js";
import { ClaudeClient, type ClaudeClientOptions, type InterruptReceipt } from "../cli/claudeClient.js";
import type { InitializeResult } from "../cli/initializeResult.js";
import type { PermissionDecider } from "../cli/permissionGate.js";
import type { RecordedCall, SessionModel } from "../hub/index.js";
import type { AuditTrail } from "../store/auditTrail.js";
import { stderrLines, type LogBus } from "../platform/logBus.js";
import { cliProjectsDir } from "../platform/projectsDir.js";
import { consoleEntry } from "./consoleEntry.js";
import { EventBatch } from "./eventBatch.js";
import { InterruptGraceMs, InterruptSettleMs, settledInterrupt, settlesWithin } from "./interruptSettling.js";
import { LiveAudit } from "./liveAudit.js";
import { agentRecordOf } from "./subagentRecordOf.js";
import { SubagentSteps } from "./subagentSteps.js";

/** A CLI printing garbage by the thousand would drown the Console (and every window's copy of it). */
const MaxListedProblems = 100;

/** Follows a CLI's unexpected exit in its tab (sendPrompt starts a new one: continueAfterExit). */
const GoOnNotice: ClientEvent = { kind: "notice", level: "info", text: "Send a prompt to go on: Baton starts Claude Code again and continues this session." };

export type ClientFactory = (options: ClaudeClientOptions) => ClaudeClient;

export interface LiveSessionOptions {
  readonly tabId: string;
  readonly client: Omit<ClaudeClientOptions, "decidePermission" | "log" | "tap">;
  readonly decidePermission: PermissionDecider;
  readonly log: LogBus;
  /** The transcript changed. */
  readonly onChange: () => void;
  readonly createClient?: ClientFactory;
  /** Called after pending events were applied to the model (orchestration: agents whose phase ends). */
  readonly onApplied?: () => void;
  /** The history folder the CLI writes to (docs/configuration.md); without it cards show only what streamed. */
  readonly projectsDir?: string;
  /** The session is a fork of this one (issue 37): its copied turns' agents have their files there. */
  readonly forkedFrom?: string;
  /** The sessions that one was forked from, as recorded: for a fork of a fork, its copied agents' files may be theirs. */
  readonly originsOfOrigin?: readonly string[];
  /** Baton's audit trail: every permission decision and interrupt of this tab is written there. */
  readonly audit?: AuditTrail;
  /** How long an interrupt of a running turn waits for its result after the CLI's answer. Default InterruptSettleMs. */
  readonly interruptSettleMs?: number;
  /** How long after Stop the turn may still run before Baton kills the CLI. Default InterruptGraceMs. */
  readonly interruptGraceMs?: number;
}

export class LiveSession {
  readonly client: ClaudeClient;
  private readonly batch: EventBatch;
  private readonly subagents: SubagentSteps;
  private readonly audit: LiveAudit | undefined;
  private init: InitializeResult | undefined;
  private readonly unsubscribe: () => void;
  private stopped = false;
  /** Unreadable stdout lines so far (toConsole). */
  private unreadableLines = 0;

  constructor(private readonly options: LiveSessionOptions) {
    const { tabId, log } = options;
    const warn = (message: string, fields: Record<string, unknown>): void => log.baton("warning", message, fields, tabId);
    this.batch = new EventBatch({
      // A fork's id is its own, told by its first system/init.
      ...(options.client.resume && options.client.forkSession !== true ? { sessionId: options.client.resume } : {}),
      onError: (event, error) => log.baton("error", "could not apply an event to the transcript", { kind: event.kind, error: String(error) }, tabId),
      ...(options.onApplied !== undefined ? { onApplied: options.onApplied } : {}),
      onChange: options.onChange,
    });
    const stderr = stderrLines((line) => log.add({ level: "warning", source: "cli-stderr", message: line, tabId }));
    const create = options.createClient ?? ((o: ClaudeClientOptions) => new ClaudeClient(o));
    this.client = create({
      ...options.client,
      decidePermission: options.decidePermission,
      log: (level, message, fields) => log.baton(level, message, fields, tabId),
      tap: { stderr: (chunk) => stderr.push(chunk) },
    });
    this.subagents = new SubagentSteps({
      model: () => this.model,
      sessionId: () => this.sessionId,
      ...(options.projectsDir !== undefined ? { projectsDir: options.projectsDir } : {}),
      cwd: options.client.cwd,
      ...(options.forkedFrom !== undefined ? { forkedFrom: options.forkedFrom } : {}),
      ...(options.originsOfOrigin !== undefined ? { originsOfOrigin: options.originsOfOrigin } : {}),
      absorb: (events) => this.absorb(events),
      onChange: options.onChange,
      warn,
    });
    this.audit =
      options.audit === undefined
        ? undefined
        : new LiveAudit({
            trail: options.audit,
            sessionId: () => this.sessionId,
            recordOfCall: (toolUseId) => this.recordOfCall(toolUseId),
            transcript: () => this.model.transcript(),
          });
    this.unsubscribe = this.client.on((event) => this.onEvent(event));
  }

  /** The hub's transcript; records with nothing streamed carry their sidechain path (see SubagentRecord). */
  get transcript(): Transcript {
    return this.subagents.transcript(this.model.transcript());
  }
  get sessionId(): string | undefined {
    return this.client.sessionId ?? (this.model.meta.sessionId || undefined);
  }
  get initialize(): InitializeResult | undefined {
    return this.init;
  }

  /** The type of the subagent with this agent id, if the session has its record. */
  agentTypeOf(agentId: string): string | undefined {
    const record = agentRecordOf(this.model.transcript(), agentId);
    return record === undefined || record.subagentType === "" ? undefined : record.subagentType;
  }

  /** The subagent records that hold this call, innermost first (see SessionModel.callersOf). */
  callersOf(toolUseId: string): readonly SubagentRecord[] {
    return this.model.callersOf(toolUseId);
  }

  /** A subagent's record by its agent id or its Agent call's tool_use id. */
  agentRecord(name: string): SubagentRecord | undefined {
    // By index first (an Agent call's id, or an agent id its task events linked): this runs for
    // every hook call and every flush in orchestration mode; the transcript walk is the fallback.
    const model = this.model;
    const linked = model.agentCallOf(name);
    return model.findToolCall(linked ?? name)?.subagent ?? agentRecordOf(model.transcript(), name);
  }

  /** The subagent record of an Agent call, by the call's tool_use id. */
  recordOfCall(toolUseId: string): SubagentRecord | undefined {
    return this.model.findToolCall(toolUseId)?.subagent;
  }

  /** An event Baton itself adds to the session (a call its policy refused through the hook). */
  addEvent(event: ClientEvent): void {
    if (!this.stopped) this.onEvent(event);
  }

  /** Counts model calls of earlier runs read from files, without their steps (a fork's earlier agents: core/sessionFork.ts). */
  countRecordedCalls(calls: readonly RecordedCall[]): void {
    if (this.stopped || calls.length === 0) return;
    this.model.countRecordedCalls(calls);
    this.options.onChange();
  }

  async start(): Promise<InitializeResult> {
    this.init = await this.client.start();
    return this.init;
  }

  /**
   * The CLI exited since the last turn: the conversation continues in a new one (`--resume`). A CLI
   * that ended before its first turn had nothing to resume: a new one starts. One killed before it
   * saved anything left nothing either (the CLI would refuse `--resume` every time), so a new
   * conversation starts and the tab says the model does not remember the turns above it.
   */
  async continueAfterExit(): Promise<void> {
    const sessionId = this.client.sessionId;
    if (sessionId === undefined) {
      await this.client.startOver();
      return;
    }
    if (savedConversation(cliProjectsDir(this.options.client.env ?? process.env), sessionId) !== false) {
      await this.client.restart();
      return;
    }
    await this.client.startOver();
    this.addEvent({
      kind: "notice",
      level: "warning",
      text: "The CLI stopped before it saved this conversation, so it goes on in a new session: the model does not remember the turns above.",
    });
  }

  /** A subagent's full step list, from its file when the stream did not carry it (subagentSteps.ts). Undefined: no such subagent. */
  loadSubagentBlocks(toolUseId: string): Promise<readonly Block[] | undefined> {
    return this.subagents.load(toolUseId);
  }

  /**
   * Sends an interrupt, recording it first (its time bounds the turn it cuts, see auditOverlay.ts).
   * Resolves once it has taken effect (interruptSettling.ts). A CLI that has not taken it within
   * the grace time (hung: no answer, or a turn that does not end) is killed, and the tab says so.
   */
  async interrupt(): Promise<InterruptReceipt> {
    this.noteInterrupt();
    const settled = settledInterrupt(this.client, this.model.turnRunning, this.options.interruptSettleMs ?? InterruptSettleMs);
    const graceMs = this.options.interruptGraceMs ?? InterruptGraceMs;
    if (await settlesWithin(settled, graceMs)) return settled;
    await this.client.kill(`Claude Code did not stop within ${Math.round(graceMs / 100) / 10} s of Stop.`);
    // The kill settles the interrupt: rejected if it was never answered, which is the news the exit already gives.
    return settled.catch(() => ({}));
  }

  /** Records an interrupt Baton caused (an interrupt request, or a denial that stops the turn). */
  noteInterrupt(): void {
    this.audit?.interrupt();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.subagents.stop();
    try {
      await this.client.stop();
    } finally {
      this.unsubscribe();
    }
  }

  private get model(): SessionModel {
    return this.batch.model;
  }

  private onEvent(event: ClientEvent): void {
    const problem = consoleEntry(event, this.options.tabId);
    if (problem !== undefined) this.toConsole(problem, event.kind === "protocol_problem");
    this.batch.push(event);
    // After the exit's error in the tab: what the person can do about it.
    if (event.kind === "process_exit" && event.error !== undefined && !this.stopped) this.batch.push(GoOnNotice);
    this.subagents.note(event);
    this.audit?.note(event);
  }

  /** One Console entry; unreadable lines only up to MaxListedProblems, then one line saying the rest are not listed. */
  private toConsole(entry: Omit<LogEntry, "time">, unreadableLine: boolean): void {
    if (unreadableLine && ++this.unreadableLines > MaxListedProblems) {
      if (this.unreadableLines === MaxListedProblems + 1) {
        this.options.log.add({ ...entry, message: `More than ${MaxListedProblems} unreadable lines from claude in this tab: the rest are not listed.`, fields: {} });
      }
      return;
    }
    this.options.log.add(entry);
  }

  /** Events read from disk: applied now, unless the tab has stopped. */
  private absorb(events: readonly ClientEvent[]): void {
    if (events.length === 0 || this.stopped) return;
    this.batch.applyNow(events);
  }
}

/** Whether the CLI saved session `sessionId` in any project folder; undefined when that cannot be told. */
function savedConversation(projectsDir: string, sessionId: string): boolean | undefined {
  let folders: string[];
  try {
    folders = readdirSync(projectsDir);
  } catch (error) {
    // No folder yet: the CLI has saved nothing at all.
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? false : undefined;
  }
  // Every folder, not the one Baton would name: the CLI shortens long folder names its own way.
  return folders.some((folder) => existsSync(path.join(projectsDir, folder, `${sessionId}.jsonl`)));
}
