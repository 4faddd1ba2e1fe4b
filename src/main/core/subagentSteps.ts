// What a live tab's subagent cards are offered and given from disk. The stream leaves out what
// the CLI only writes to the session's files (a nested agent's own messages, the steps a capped
// record dropped, a Workflow run's agents): a card with nothing streamed is offered its file
// (`sidechainPath`), and when it asks, the file is read (liveSidechains.ts, workflowReads.ts) and
// its events are applied to the tab's model like the streamed ones.

import type { ClientEvent } from "../../shared/events.js";
import { stepsNotStreamed, WorkflowType, type Block, type SubagentRecord, type Transcript } from "../../shared/transcript.js";
import { workflowLaunchOf } from "../../shared/workflowLaunch.js";
import { MarkedTranscript, ownBlocks } from "../history/index.js";
import type { SessionModel } from "../hub/index.js";
import { expectedSidechainPath, offeredPaths, SidechainReader, stepsWithSidechainPaths, workflowRunPath, type SidechainLocation } from "./liveSidechains.js";
import { CopiedAgents, type CopiedWork } from "./copiedAgents.js";
import { WorkflowReads } from "./workflowReads.js";

export interface SubagentStepsOptions {
  /** The tab's model, every event so far applied. */
  readonly model: () => SessionModel;
  readonly sessionId: () => string | undefined;
  /** The history folder the CLI writes to (docs/configuration.md); without it cards show only what streamed. */
  readonly projectsDir?: string;
  /** The folder the CLI was started in. */
  readonly cwd: string;
  /** A fork's origin session: the agents of the turns it copied have their files there. */
  readonly forkedFrom?: string;
  /** The sessions the origin was forked from, as recorded (a fork of a fork's copied agents may have run there). */
  readonly originsOfOrigin?: readonly string[];
  /** Events read from disk, for the tab's model. */
  readonly absorb: (events: readonly ClientEvent[]) => void;
  /** A card asked for its steps: the transcript it is offered changes. */
  readonly onChange: () => void;
  readonly warn: (message: string, fields: Record<string, unknown>) => void;
}

export class SubagentSteps {
  private readonly sidechains: SidechainReader;
  private readonly workflows: WorkflowReads;
  /** Agents whose card may need its steps from disk: nothing streamed for them (yet). */
  private readonly unstreamed = new Set<string>();
  /** Agents this tab saw start: never a copied one. */
  private readonly started = new Set<string>();
  /** Cards that asked for their steps: they are not offered a sidechain path again. */
  private readonly asked = new Set<string>();
  /** The hub's transcript with sidechain paths offered, built once per change (history/sidechainPaths.ts). */
  private readonly shown = new MarkedTranscript(() => offeredPaths(this.offeredSidechains()));
  /** A fork's: the files of the agents of the turns it copied. */
  private readonly copied: CopiedAgents | undefined;

  constructor(private readonly options: SubagentStepsOptions) {
    this.sidechains = new SidechainReader({
      onEvents: (events) => options.absorb(events),
      onError: (path, error) => options.warn("could not read a subagent transcript", { path, error: String(error) }),
    });
    const { projectsDir, forkedFrom, originsOfOrigin } = options;
    this.copied =
      projectsDir === undefined || forkedFrom === undefined
        ? undefined
        : new CopiedAgents({ projectsDir, origin: forkedFrom, ...(originsOfOrigin !== undefined ? { originsOfOrigin } : {}), onFound: options.onChange, warn: options.warn });
    this.workflows = new WorkflowReads({
      status: (toolUseId) => this.recordOfCall(toolUseId)?.status,
      absorb: (events) => options.absorb(events),
      warn: options.warn,
    });
  }

  /** The hub's transcript; records with nothing streamed carry their sidechain path (see SubagentRecord). */
  transcript(hub: Transcript): Transcript {
    return this.shown.of(hub, `${this.asked.size}/${this.copied?.size ?? 0}`);
  }

  /**
   * Each event the tab takes in. An agent that starts may never stream a line (nested): its card is
   * offered its file. A card that asked before the file existed tries again as its agent reports progress.
   */
  note(event: ClientEvent): void {
    if (event.kind === "task_started" && event.taskType !== "local_bash" && event.toolUseId !== undefined) {
      this.unstreamed.add(event.toolUseId);
      this.started.add(event.toolUseId);
    }
    if (event.kind !== "task_progress" && event.kind !== "task_notification") return;
    const toolUseId = event.toolUseId;
    if (toolUseId === undefined || !this.asked.has(toolUseId) || this.sidechains.has(toolUseId)) return;
    this.load(toolUseId).catch((error: unknown) => this.options.warn("could not read a subagent transcript", { toolUseId, error: String(error) }));
  }

  /**
   * A subagent's full step list. Read from its sidechain file when the stream did not carry it
   * (nothing streamed, a nested agent, or older steps dropped by the cap): the lines are fed into the live state,
   * so the card shows them too, and so are the lines the file gets later. No file: the streamed
   * steps. Undefined: no such subagent.
   */
  async load(toolUseId: string): Promise<readonly Block[] | undefined> {
    const record = this.recordOfCall(toolUseId);
    if (record === undefined) return undefined;
    if (!this.asked.has(toolUseId)) {
      this.asked.add(toolUseId);
      this.options.onChange();
    }
    const fromDisk = stepsNotStreamed(record) || record.droppedBlockCount > 0 || this.sidechains.has(toolUseId);
    if (!fromDisk) return this.asShown(record.blocks);
    // A card opened before the copied agents' files were read waits for them.
    await this.readCopied();
    const where = this.location();
    if (where === undefined) return this.asShown(record.blocks);
    // A Workflow's card holds the agents of its run (a copied one's is its origin's); any other, its sidechain.
    const run = this.workflowRun(toolUseId, where) ?? this.copiedRun(toolUseId);
    const events = run !== undefined ? await this.workflows.read(toolUseId, where.sessionId, run) : await this.sidechains.read(where, toolUseId, record.taskId);
    const now = this.recordOfCall(toolUseId) ?? record;
    if (events === undefined || now.droppedBlockCount === 0) return this.asShown(now.blocks);
    return this.asShown(ownBlocks(where.sessionId, toolUseId, events, now.status !== "running", this.options.model().agentKilled(toolUseId)));
  }

  /** Stops following the files and reading the runs. */
  stop(): void {
    this.sidechains.stop();
    this.workflows.stop();
  }

  private recordOfCall(toolUseId: string): SubagentRecord | undefined {
    return this.options.model().findToolCall(toolUseId)?.subagent;
  }

  /**
   * Steps as the window's transcript has them: the card of a nested agent not read yet names its
   * file (offeredSidechains). The window puts the steps it is sent in place of its own copies, which
   * may already have come with the transcript: without the file, such a card could not be opened.
   */
  private asShown(blocks: readonly Block[]): readonly Block[] {
    return stepsWithSidechainPaths(blocks, this.offeredSidechains());
  }

  private location(): SidechainLocation | undefined {
    const { projectsDir, forkedFrom } = this.options;
    const { copied } = this;
    const sessionId = this.options.sessionId();
    if (projectsDir === undefined) return undefined;
    const copiedFile = copied === undefined ? {} : { copied: (toolUseId: string, taskId: string) => this.copiedFile(toolUseId, taskId) };
    // A fork's tab shows the turns it copied before its CLI names its session: their agents' files are its origin's.
    if (sessionId === undefined) return forkedFrom === undefined ? undefined : { projectsDir, cwds: [], sessionId: forkedFrom, ...copiedFile };
    const reported = this.options.model().meta.cwd;
    const cwds = [...(reported ? [reported] : []), this.options.cwd];
    return { projectsDir, cwds, sessionId, ...copiedFile };
  }

  /** The folder of the Workflow run the call `toolUseId` launched, once it exists. */
  private workflowRun(toolUseId: string, where: SidechainLocation): string | undefined {
    const runId = this.runIdOf(toolUseId);
    return runId === undefined ? undefined : workflowRunPath(where, runId);
  }

  private runIdOf(toolUseId: string): string | undefined {
    return workflowLaunchOf(this.options.model().findToolCall(toolUseId)?.result?.structured)?.runId;
  }

  /** A copied Workflow call's run, in the folder of the session that ran it: never one this tab launched. */
  private copiedRun(toolUseId: string): string | undefined {
    return this.started.has(toolUseId) ? undefined : this.copied?.runOf(toolUseId);
  }

  /** Reads the copied agents' files and runs, once. */
  private readCopied(): Promise<void> | undefined {
    return this.copied?.read(() => this.copiedWork());
  }

  /** The copied agents' cards that have not asked yet, with their files; the first call starts reading them. */
  private copiedOffers(): Map<string, string> {
    const paths = new Map<string, string>();
    if (this.copied === undefined) return paths;
    void this.readCopied();
    // Only records with no steps yet take the offer (offeredPaths).
    for (const toolUseId of this.copied.calls()) {
      const file = this.asked.has(toolUseId) ? undefined : this.copiedFile(toolUseId, this.recordOfCall(toolUseId)?.taskId ?? "");
      if (file !== undefined) paths.set(toolUseId, file);
    }
    for (const toolUseId of this.copied.runCalls()) {
      const run = this.asked.has(toolUseId) ? undefined : this.copiedRun(toolUseId);
      if (run !== undefined) paths.set(toolUseId, run);
    }
    return paths;
  }

  /** A copied agent's file: never one of this tab's own agents (a call id may repeat across sessions; an agent id does not). */
  private copiedFile(toolUseId: string, taskId: string): string | undefined {
    return this.started.has(toolUseId) ? undefined : this.copied?.fileOf(toolUseId, taskId);
  }

  /**
   * The copied turns' agents that ran (an agent id) with steps to read, and their Workflow calls
   * with the runs their receipts name: calls that never started here and streamed nothing.
   */
  private copiedWork(): CopiedWork {
    const calls = new Set<string>();
    const runs = new Map<string, string>();
    const walk = (blocks: readonly Block[]): void => {
      for (const block of blocks) {
        const record = block.call?.subagent;
        if (record === undefined) continue;
        if (!this.started.has(record.toolUseId)) {
          const runId = record.subagentType === WorkflowType ? this.runIdOf(record.toolUseId) : undefined;
          if (runId !== undefined) runs.set(record.toolUseId, runId);
          else if (record.taskId !== "" && record.subagentType !== WorkflowType && stepsNotStreamed(record)) calls.add(record.toolUseId);
        }
        walk(record.blocks);
      }
    };
    walk(this.options.model().transcript().blocks);
    return { calls, runs };
  }

  /** Nested records with nothing streamed whose card has not asked yet, with their expected file (a Workflow's: its run's folder). */
  private offeredSidechains(): Map<string, string> {
    const paths = this.copiedOffers();
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
        (record === undefined && this.options.model().findToolCall(toolUseId) !== undefined)
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
