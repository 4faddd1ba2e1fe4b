// One live tab: a running CLI (ClaudeClient) and the hub's session model its events build.
// Everything the client says goes through the model; stderr, protocol problems and the client's
// own log go to the Console. What the stream leaves out (nested agents' messages, capped steps) is
// read from the session's sidechain files when a card asks, and applied to the same model.

import type { LogEntry } from "../../shared/api.js";
import type { ClientEvent, PermissionRequestEvent } from "../../shared/events.js";
import { stepsNotStreamed, WorkflowType, type Block, type SubagentRecord, type Transcript } from "../../shared/transcript.js";
import { workflowLaunchOf } from "../../shared/workflowLaunch.js";
import { ClaudeClient, type ClaudeClientOptions, type InterruptReceipt } from "../cli/claudeClient.js";
import type { InitializeResult } from "../cli/initializeResult.js";
import type { PermissionDecider } from "../cli/permissionGate.js";
import { MarkedTranscript, ownBlocks, workflowEvents, type HistoryProblem } from "../history/index.js";
import { SessionModel } from "../hub/index.js";
import type { AuditTrail } from "../store/auditTrail.js";
import { SessionDagAudit } from "./sessionDagAudit.js";
import { expectedSidechainPath, offeredPaths, SidechainReader, stepsWithSidechainPaths, workflowRunPath, type SidechainLocation } from "./liveSidechains.js";
import { stderrLines, type LogBus } from "../platform/logBus.js";

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
  /** Where the CLI writes history (PROTOCOL.md §6.1); without it cards show only what streamed. */
  readonly projectsDir?: string;
  /** Baton's audit trail: every permission decision and interrupt of this tab is written there. */
  readonly audit?: AuditTrail;
  /** How long an interrupt of a running turn waits for its result after the CLI's answer. Default InterruptSettleMs. */
  readonly interruptSettleMs?: number;
}

/** An interrupted turn's result normally follows the CLI's answer within a second; past this the interrupt answers anyway. */
const InterruptSettleMs = 10_000;

/** How often an opened, running Workflow card reads its agents again. */
const WorkflowPollMs = 1000;

export class LiveSession {
  readonly client: ClaudeClient;
  /** Every event applied so far; `model` applies the pending ones first. */
  private readonly applied: SessionModel;
  /**
   * Events the client emitted since the last flush. The client emits a stdout read's lines one by
   * one, synchronously; they are applied together once that read is handled (or as soon as
   * anything reads the model), so a burst of subagent lines tells the window once, not per line.
   */
  private pending: ClientEvent[] = [];
  private init: InitializeResult | undefined;
  private readonly unsubscribe: () => void;
  private readonly sidechains: SidechainReader;
  /** Agents whose card may need its steps from disk: nothing streamed for them (yet). */
  private readonly unstreamed = new Set<string>();
  /** Cards that asked for their steps: they are not offered a sidechain path again. */
  private readonly asked = new Set<string>();
  /** The hub's transcript with sidechain paths offered, built once per change (history/sidechainPaths.ts). */
  private readonly shown = new MarkedTranscript(() => offeredPaths(this.offeredSidechains()));
  private stopped = false;
  /** Opened Workflow cards whose run still runs: the timer of their next read (pollWorkflow). */
  private readonly workflowPolls = new Map<string, NodeJS.Timeout>();
  /** Workflow cards being read (readWorkflow), and whether another read was asked for meanwhile. */
  private readonly workflowReads = new Map<string, { again: boolean; done: Promise<readonly ClientEvent[]> }>();
  /** Requests waiting for their decision, kept for the audit row the decision writes. */
  private readonly asking = new Map<string, PermissionRequestEvent>();
  /** Writes the session DAG (spawns, status changes, the escalation chain) to the audit trail; made with the first event. */
  private dag: SessionDagAudit | undefined;

  constructor(private readonly options: LiveSessionOptions) {
    const { tabId, log } = options;
    const stderr = stderrLines((line) => log.add({ level: "warning", source: "cli-stderr", message: line, tabId }));
    this.applied = new SessionModel(options.client.resume ? { sessionId: options.client.resume } : undefined);
    const create = options.createClient ?? ((o: ClaudeClientOptions) => new ClaudeClient(o));
    this.client = create({
      ...options.client,
      decidePermission: options.decidePermission,
      log: (level, message, fields) => log.baton(level, message, fields, tabId),
      tap: { stderr: (chunk) => stderr.push(chunk) },
    });
    this.unsubscribe = this.client.on((event) => this.onEvent(event));
    this.sidechains = new SidechainReader({
      onEvents: (events) => this.absorb(events),
      onError: (path, error) => log.baton("warning", "could not read a subagent transcript", { path, error: String(error) }, tabId),
    });
  }

  /** The hub's transcript; records with nothing streamed carry their sidechain path (see SubagentRecord). */
  get transcript(): Transcript {
    return this.shown.of(this.model.transcript(), String(this.asked.size));
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

  /** An event Baton itself adds to the session (a call its policy refused through the hook). */
  addEvent(event: ClientEvent): void {
    if (!this.stopped) this.onEvent(event);
  }

  async start(): Promise<InitializeResult> {
    this.init = await this.client.start();
    return this.init;
  }

  /**
   * A subagent's full step list. Read from its sidechain file when the stream did not carry it
   * (nothing streamed, a nested agent, or older steps dropped by the cap): the lines are fed into the live state,
   * so the card shows them too, and so are the lines the file gets later. No file: the streamed
   * steps. Undefined: no such subagent.
   */
  async loadSubagentBlocks(toolUseId: string): Promise<readonly Block[] | undefined> {
    const record = this.recordOfCall(toolUseId);
    if (record === undefined) return undefined;
    if (!this.asked.has(toolUseId)) {
      this.asked.add(toolUseId);
      this.options.onChange();
    }
    const fromDisk = stepsNotStreamed(record) || record.droppedBlockCount > 0 || this.sidechains.has(toolUseId);
    const where = this.location();
    if (!fromDisk || where === undefined) return this.asShown(record.blocks);
    // A Workflow's card holds the agents of its run; any other, its sidechain.
    const run = this.workflowRun(toolUseId, where);
    const events = run !== undefined ? await this.readWorkflow(toolUseId, where.sessionId, run) : await this.sidechains.read(where, toolUseId, record.taskId);
    const now = this.recordOfCall(toolUseId) ?? record;
    if (events === undefined || now.droppedBlockCount === 0) return this.asShown(now.blocks);
    return this.asShown(ownBlocks(where.sessionId, toolUseId, events, now.status !== "running", this.model.agentKilled(toolUseId)));
  }

  /**
   * Steps as the window's transcript has them: the card of a nested agent not read yet names its
   * file (offeredSidechains). The window puts the steps it is sent in place of its own copies, which
   * may already have come with the transcript: without the file, such a card could not be opened.
   */
  private asShown(blocks: readonly Block[]): readonly Block[] {
    return stepsWithSidechainPaths(blocks, this.offeredSidechains());
  }

  /**
   * Sends an interrupt, recording it first (its time bounds the turn it cuts, see auditOverlay.ts).
   * Resolves once it has taken effect: when a turn was running, at that turn's result (at most
   * interruptSettleMs after the CLI's answer); when none was, at the answer itself, since then no
   * result comes (2.1.332 only stops the background agents).
   */
  async interrupt(): Promise<InterruptReceipt> {
    this.noteInterrupt();
    const ended = this.model.turnRunning ? this.nextTurnEnd() : undefined;
    try {
      const receipt = await this.client.interrupt();
      if (ended !== undefined) await ended.settled(this.options.interruptSettleMs ?? InterruptSettleMs);
      return receipt;
    } finally {
      ended?.cancel();
    }
  }

  /** The next end of a turn (its result, or the process's exit), listened for from now on. */
  private nextTurnEnd(): { settled(boundMs: number): Promise<void>; cancel(): void } {
    let done: () => void = () => undefined;
    let ended = false;
    let timer: NodeJS.Timeout | undefined;
    const over = new Promise<void>((resolve) => (done = resolve));
    const finish = (): void => {
      ended = true;
      if (timer !== undefined) clearTimeout(timer);
      unsubscribe();
      done();
    };
    const unsubscribe = this.client.on((event) => {
      if (event.kind === "turn_result" || event.kind === "process_exit") finish();
    });
    return {
      settled: (boundMs) => {
        if (!ended) {
          timer = setTimeout(finish, boundMs);
          timer.unref();
        }
        return over;
      },
      cancel: () => {
        if (!ended) finish();
      },
    };
  }

  /** Records an interrupt Baton caused (an interrupt request, or a denial that stops the turn). */
  noteInterrupt(): void {
    const sessionId = this.sessionId;
    if (this.options.audit === undefined || sessionId === undefined) return;
    this.options.audit.interrupt({ sessionId, time: new Date().toISOString() });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.sidechains.stop();
    for (const timer of this.workflowPolls.values()) clearTimeout(timer);
    this.workflowPolls.clear();
    try {
      await this.client.stop();
    } finally {
      this.unsubscribe();
    }
  }

  private onEvent(event: ClientEvent): void {
    const problem = consoleEntry(event, this.options.tabId);
    if (problem !== undefined) this.options.log.add(problem);
    if (this.pending.length === 0) queueMicrotask(() => this.flush());
    this.pending.push(event);
    this.noteAgent(event);
    if (this.options.audit !== undefined) this.audit(this.options.audit, event);
  }

  /**
   * Writes a decision to the audit trail once the client has answered (or dropped) a request, and
   * the session DAG as it grows (sessionDagAudit.ts).
   */
  private audit(trail: AuditTrail, event: ClientEvent): void {
    this.dag ??= new SessionDagAudit({ trail, sessionId: () => this.sessionId, record: (toolUseId) => this.recordOfCall(toolUseId) });
    this.dag.note(event);
    if (event.kind === "permission_request") {
      this.asking.set(event.requestId, event);
      return;
    }
    if (event.kind !== "permission_resolved" && event.kind !== "permission_cancelled") return;
    const request = this.asking.get(event.requestId);
    this.asking.delete(event.requestId);
    const sessionId = this.sessionId;
    if (request === undefined || sessionId === undefined) return;
    const agentToolUseId = request.agentId === undefined ? undefined : agentCallOf(this.model.transcript(), request.agentId);
    trail.permission({
      sessionId,
      requestId: request.requestId,
      toolUseId: request.toolUseId,
      toolName: request.toolName,
      ...(request.agentId !== undefined ? { agentId: request.agentId } : {}),
      ...(agentToolUseId !== undefined ? { agentToolUseId } : {}),
      decision: event.kind === "permission_cancelled" ? "cancelled" : event.behavior,
      ...(event.kind === "permission_resolved" ? { decidedBy: event.decidedBy, ...(event.message !== undefined ? { message: event.message } : {}) } : {}),
      time: new Date().toISOString(),
    });
  }

  /**
   * An agent that starts may never stream a line (nested): its card is offered its file. A card
   * that asked before the file existed tries again as its agent reports progress.
   */
  private noteAgent(event: ClientEvent): void {
    if (event.kind === "task_started" && event.taskType !== "local_bash" && event.toolUseId !== undefined) this.unstreamed.add(event.toolUseId);
    if (event.kind !== "task_progress" && event.kind !== "task_notification") return;
    const toolUseId = event.toolUseId;
    if (toolUseId === undefined || !this.asked.has(toolUseId) || this.sidechains.has(toolUseId)) return;
    this.loadSubagentBlocks(toolUseId).catch((error: unknown) =>
      this.options.log.baton("warning", "could not read a subagent transcript", { toolUseId, error: String(error) }, this.options.tabId),
    );
  }

  private get model(): SessionModel {
    this.flush();
    return this.applied;
  }

  /** Applies the pending events (see `pending`): one that fails is reported, every other is kept. */
  private flush(): void {
    const events = this.pending;
    if (events.length === 0) return;
    this.pending = [];
    this.applied.apply(events, (event, error) =>
      this.options.log.baton("error", "could not apply an event to the transcript", { kind: event.kind, error: String(error) }, this.options.tabId),
    );
    this.options.onApplied?.();
    this.options.onChange();
  }

  /** Events read from disk, applied to the same model (lines seen live are kept once), after the live ones before them. */
  private absorb(events: readonly ClientEvent[]): void {
    if (events.length === 0 || this.stopped) return;
    for (const event of events) this.pending.push(event);
    this.flush();
  }

  /** The subagent record of an Agent call, by the call's tool_use id. */
  recordOfCall(toolUseId: string): SubagentRecord | undefined {
    return this.model.findToolCall(toolUseId)?.subagent;
  }

  private location(): SidechainLocation | undefined {
    const { projectsDir } = this.options;
    const sessionId = this.sessionId;
    if (projectsDir === undefined || sessionId === undefined) return undefined;
    const reported = this.model.meta.cwd;
    const cwds = [...(reported ? [reported] : []), this.options.client.cwd];
    return { projectsDir, cwds, sessionId };
  }

  /**
   * Reads a Workflow's agents as they are now into the live state (the hub keeps one copy of what
   * it saw). The card asks again at each of the run's progress events (noteAgent): one read at a
   * time, and the asks that come during a read make one more read after it, not one each.
   */
  private readWorkflow(toolUseId: string, sessionId: string, run: string): Promise<readonly ClientEvent[]> {
    const current = this.workflowReads.get(toolUseId);
    if (current !== undefined) {
      current.again = true;
      return current.done;
    }
    const entry: { again: boolean; done: Promise<readonly ClientEvent[]> } = { again: false, done: Promise.resolve([]) };
    const read = async (): Promise<readonly ClientEvent[]> => {
      let events: ClientEvent[];
      do {
        entry.again = false;
        const problems: HistoryProblem[] = [];
        events = await workflowEvents(sessionId, toolUseId, run, problems, this.recordOfCall(toolUseId)?.status === "running");
        for (const p of problems) this.options.log.baton("warning", "could not read a Workflow agent's transcript", { path: p.path ?? "", error: p.message }, this.options.tabId);
        this.absorb(events);
      } while (entry.again && !this.stopped);
      return events;
    };
    entry.done = read().finally(() => {
      this.workflowReads.delete(toolUseId);
      this.pollWorkflow(toolUseId, sessionId, run);
    });
    this.workflowReads.set(toolUseId, entry);
    return entry.done;
  }

  /**
   * While a Workflow whose card was opened runs, its agents' files are read again every second:
   * an agent writes steps between the run's progress events (a long Bash, a slow model call).
   */
  private pollWorkflow(toolUseId: string, sessionId: string, run: string): void {
    if (this.stopped || this.workflowPolls.has(toolUseId) || this.recordOfCall(toolUseId)?.status !== "running") return;
    const timer = setTimeout(() => {
      this.workflowPolls.delete(toolUseId);
      this.readWorkflow(toolUseId, sessionId, run).catch((error: unknown) =>
        this.options.log.baton("warning", "could not read a Workflow's agents", { toolUseId, error: String(error) }, this.options.tabId),
      );
    }, WorkflowPollMs);
    timer.unref();
    this.workflowPolls.set(toolUseId, timer);
  }

  /** The folder of the Workflow run the call `toolUseId` launched, once it exists. */
  private workflowRun(toolUseId: string, where: SidechainLocation): string | undefined {
    const runId = workflowLaunchOf(this.model.findToolCall(toolUseId)?.result?.structured)?.runId;
    return runId === undefined ? undefined : workflowRunPath(where, runId);
  }

  /** Nested records with nothing streamed whose card has not asked yet, with their expected file (a Workflow's: its run's folder). */
  private offeredSidechains(): Map<string, string> {
    const paths = new Map<string, string>();
    if (this.unstreamed.size === 0) return paths;
    const where = this.location();
    for (const toolUseId of [...this.unstreamed]) {
      const record = this.recordOfCall(toolUseId);
      // A Workflow's card: offered its run's folder once its launch receipt names the run and the
      // folder exists (both may come after the card), until the card asks.
      if (record?.subagentType === WorkflowType) {
        const run = this.asked.has(toolUseId) || where === undefined ? undefined : this.workflowRun(toolUseId, where);
        if (this.asked.has(toolUseId)) this.unstreamed.delete(toolUseId);
        else if (run !== undefined) paths.set(toolUseId, run);
        continue;
      }
      // Gone from the set once asked, once something streamed, for a top-level agent (its steps
      // stream), or when the id is no Agent call (a SendMessage continuation names its own call).
      // A nested agent's card may hold the cards of agents it called: its own steps are still unstreamed.
      if (
        this.asked.has(toolUseId) ||
        (record !== undefined && (!stepsNotStreamed(record) || record.spawnDepth === 1)) ||
        (record === undefined && this.model.findToolCall(toolUseId) !== undefined)
      ) {
        this.unstreamed.delete(toolUseId);
        continue;
      }
      const file = where === undefined || record === undefined || record.taskId === "" || record.spawnDepth === undefined ? undefined : expectedSidechainPath(where, record.taskId);
      if (file !== undefined) paths.set(toolUseId, file);
    }
    return paths;
  }
}

/** The Agent tool_use whose subagent has task id `agentId`, searched through nested records. */
function agentCallOf(transcript: Transcript, agentId: string): string | undefined {
  return agentRecordOf(transcript, agentId)?.toolUseId;
}

function agentRecordOf(transcript: Transcript, agentId: string): SubagentRecord | undefined {
  const search = (blocks: readonly Block[]): SubagentRecord | undefined => {
    for (const b of blocks) {
      const record = b.call?.subagent;
      if (record === undefined) continue;
      if (record.taskId === agentId) return record;
      const inner = search(record.blocks);
      if (inner !== undefined) return inner;
    }
    return undefined;
  };
  return search(transcript.blocks);
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
