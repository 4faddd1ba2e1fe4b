// The app core's tabs: each live tab owns a CLI (LiveSession), each restored tab a past session
// read from disk. This coordinates the parts that do the work: the tab list and its strip
// (tabList.ts), the cap on running CLIs (processCap.ts), the making of a live session
// (liveSessionFactory.ts), restored tabs (restoredTabs.ts), the person's answers (tabAnswers.ts)
// and the worktree actions (tabWorktrees.ts). Owns the permission broker, the delta publisher, the
// log bus and each orchestration tab's escalation desk; `shutdown()` stops every CLI and fails
// every open permission request closed.

import type { EscalationReply } from "../../shared/escalation.js";
import type { ClientEvent } from "../../shared/events.js";
import type { ForkLink, LogEntry, NewSessionOptions, PermissionAnswer, SearchHit, SessionFind, SessionInfo, SessionSummary, TabInfo } from "../../shared/api.js";
import type { PermissionMode } from "../../shared/protocol/messages.js";
import type { Block } from "../../shared/transcript.js";
import { LogBus } from "../platform/logBus.js";
import { AppError, toApiError } from "./appError.js";
import { DeltaPublisher, type DeltaListener } from "./deltaPublisher.js";
import type { HistorySource } from "./historySource.js";
import { LiveSessionFactory, type LiveSessionSettings } from "./liveSessionFactory.js";
import { DefaultPermissionGraceMs, PermissionBroker } from "./permissionBroker.js";
import { PolicyControl } from "./policyControl.js";
import { DefaultMaxRunningSessions, ProcessCap } from "./processCap.js";
import { RestoredTabs } from "./restoredTabs.js";
import { exportTab } from "./sessionExport.js";
import { recordedForkLink, recordedOrigins, recordForkWhenNamed } from "./forkRecord.js";
import { findForkPoint, type ForkPoint } from "./sessionFork.js";
import { LateLinesWaitMs } from "./lateLines.js";
import { findInLiveSession } from "./liveFind.js";
import type { ForkStart } from "./liveSessionFactory.js";
import { applyRewind, previewRewind, type RewindTarget } from "./fileRewind.js";
import type { RewindOutcome, RewindPreview } from "../../shared/fileRewind.js";
import type { ExportChoices, ExportedFile } from "../../shared/export/exportTypes.js";
import type { SessionEscalations } from "./sessionEscalations.js";
import { TabAnswers } from "./tabAnswers.js";
import { TabList, type LiveTab } from "./tabList.js";
import { TabWorktrees, worktreeApiCode } from "./tabWorktrees.js";
import { createSessionWorktree, discardSessionWorktree, linkedWorktreeOf, WorktreeActionError, WorktreeLocks } from "../worktrees/index.js";
import { randomBytes } from "node:crypto";
import { TerminalSessions } from "./terminalSessions.js";
import { AskVerdict, type HookInput, type HookLaunch, type HookVerdict } from "../../shared/terminalHooks.js";

export interface SessionManagerOptions extends LiveSessionSettings {
  readonly history?: HistorySource;
  readonly log?: LogBus;
  /** Shortest gap between two deltas of a tab. Default 50 ms. */
  readonly publishIntervalMs?: number;
  /** The most CLI processes running (or starting) at once (processCap.ts). Default DefaultMaxRunningSessions. */
  readonly maxRunningSessions?: number;
}

/** A fork's making: its start, the original's turns before it, the link its tab shows. */
interface Forked {
  readonly fork: ForkStart;
  readonly earlier: readonly ClientEvent[];
  /** The model calls of the agents in the earlier turns, read from the original's files (ForkPoint.agentCalls). */
  readonly agentCalls?: ForkPoint["agentCalls"];
  readonly link: ForkLink;
}

export class SessionManager {
  readonly log: LogBus;
  readonly broker: PermissionBroker;
  /** The person's hold on the policy (mode, presets, rules); absent without a PolicyService. */
  readonly policy: PolicyControl | undefined;
  /** The worktree actions of the API, on a tab's repository. */
  readonly worktrees: TabWorktrees;
  private readonly publisher: DeltaPublisher;
  private readonly tabs: TabList;
  private readonly cap: ProcessCap;
  private readonly factory: LiveSessionFactory;
  private readonly restored: RestoredTabs;
  private readonly answers: TabAnswers;
  /** Sessions running in a terminal, steered through their hooks (terminalSessions.ts). */
  private readonly terminal: TerminalSessions;
  /** Live tabs in orchestration mode: their escalation desks (questions and plans of their subagents). */
  private readonly escalations = new Map<string, SessionEscalations>();
  /** The worktree locks live tabs hold (worktrees/sessionLock.ts), by tab: released as the tab goes. */
  private readonly worktreeLocks: WorktreeLocks;
  private readonly worktreeHolds = new Map<string, () => Promise<void>>();
  private shuttingDown: Promise<void> | undefined;

  constructor(private readonly options: SessionManagerOptions) {
    const log = (this.log = options.log ?? new LogBus());
    const tabs = (this.tabs = new TabList((message, fields) => log.baton("error", message, fields)));
    this.broker = new PermissionBroker({
      graceMs: options.permissionGraceMs ?? DefaultPermissionGraceMs,
      onChange: (tabId) => this.publisher.markDirty(tabId),
      log: (message, fields) => log.baton("warning", message, fields),
    });
    this.publisher = new DeltaPublisher(
      { transcript: (tabId) => tabs.transcriptOf(tabId), pending: (tabId) => this.broker.pending(tabId) },
      options.publishIntervalMs,
      (error) => log.baton("error", "a transcript subscriber failed", { error: String(error) }),
    );
    this.policy = options.policy === undefined ? undefined : this.policyControl(options.policy);
    this.cap = new ProcessCap(options.maxRunningSessions ?? DefaultMaxRunningSessions, () => tabs.liveTabs());
    this.factory = new LiveSessionFactory({
      settings: options,
      log,
      broker: this.broker,
      policyControl: this.policy,
      changed: (tabId) => this.changed(tabId),
      addEscalations: (tabId, escalations) => this.escalations.set(tabId, escalations),
    });
    this.restored = new RestoredTabs({
      history: options.history,
      tabs,
      log,
      changed: (tabId) => this.changed(tabId),
      reset: (tabId) => this.publisher.reset(tabId),
    });
    this.answers = new TabAnswers({
      tabs,
      broker: this.broker,
      policy: this.policy,
      cap: this.cap,
      deskOf: (tabId) => this.escalations.get(tabId)?.desk,
      log,
      startFresh: (request) => this.newSession(request),
    });
    const home = options.env?.["HOME"];
    this.terminal = new TerminalSessions({
      tabs,
      restored: this.restored,
      broker: this.broker,
      projectsDir: () => options.history?.projectsDir,
      policy: options.policy,
      policyControl: this.policy,
      audit: options.audit,
      ...(home !== undefined && home !== "" ? { home } : {}),
      log,
    });
    this.worktrees = new TabWorktrees({ tabs, projectsDir: () => options.history?.projectsDir, env: options.env });
    this.worktreeLocks = new WorktreeLocks((what, error) => this.log.baton("warning", `git worktree lock: ${what} failed`, { error: String(error) }));
  }

  listTabs(): readonly TabInfo[] {
    return this.tabs.list();
  }

  async newSession(options: NewSessionOptions): Promise<TabInfo> {
    this.assertRunning();
    this.cap.assertRoom();
    const tabId = this.tabs.newTabId();
    // Claimed with the check: making the session may wait (a resumed session's phases) before it starts.
    const release = this.cap.claim(tabId);
    try {
      return await (options.newWorktree === true ? this.startInNewWorktree(tabId, options) : this.startLive(tabId, options));
    } finally {
      release();
    }
  }

  /**
   * A new live tab continuing the tab's session from just before prompt `promptUuid`, its earlier
   * turns shown from the original's file, `text` sent as its first prompt (core/sessionFork.ts);
   * `inNewWorktree`: in a worktree of its own, made from the commit of the checkout the session
   * ran in (the CLI finds the original's file in any project folder and runs the fork where it is started).
   */
  async forkSession(tabId: string, promptUuid: string, text?: string, inNewWorktree = false): Promise<TabInfo> {
    this.assertRunning();
    const tab = this.tabs.require(tabId);
    const sessionId = tab.session.sessionId;
    const cwd = tab.kind === "live" ? tab.cwd : (this.tabs.transcriptOf(tabId)?.cwd ?? tab.session.cwd);
    if (sessionId === undefined || cwd === undefined) throw new AppError("not_found", "This session has no id or folder yet: it cannot be forked.");
    // A live CLI may not have written a prompt it has just answered yet (2.1.197 writes a turn's lines late).
    // A fork of a fork: the agents of turns the tab's session copied ran in the sessions it came from.
    const isFork = (tab.kind === "live" ? tab.forkedFrom : tab.session.forkedFrom) !== undefined;
    const origins = isFork ? await recordedOrigins(this.options, sessionId) : [];
    const point = await findForkPoint(this.options.env ?? process.env, sessionId, promptUuid, tab.kind === "live" && tab.session.client.running ? LateLinesWaitMs : 0, origins);
    this.cap.assertRoom();
    const forkTab = this.tabs.newTabId();
    const release = this.cap.claim(forkTab);
    try {
      const fork: ForkStart = { sessionId, ...(point.resumeAt !== undefined ? { resumeAt: point.resumeAt } : {}), ...(origins.length > 0 ? { origins } : {}) };
      // A live session's fork keeps its permission mode (the CLI reported it); a history file's is not taken on trust.
      const mode = tab.kind === "live" ? this.tabs.transcriptOf(tabId)?.permissionMode : undefined;
      const request: NewSessionOptions = { cwd, ...(text !== undefined ? { initialPrompt: text } : {}), ...(mode !== undefined ? { permissionMode: mode } : {}) };
      const forked: Forked = { fork, earlier: point.earlier, ...(point.agentCalls !== undefined ? { agentCalls: point.agentCalls } : {}), link: { sessionId, promptUuid } };
      return await (inNewWorktree ? this.startInNewWorktree(forkTab, request, forked) : this.startLive(forkTab, request, forked));
    } finally {
      release();
    }
  }

  /** `project`: the session's project folder, when the page knows it (two folders may hold one id). */
  async openSession(sessionId: string, project?: string): Promise<TabInfo> {
    this.assertRunning();
    return this.restored.open(sessionId, project);
  }

  /**
   * A terminal session's hook, as Baton's socket hands it over: its tab is opened or marked, and
   * the verdict is the policy's or the person's; "ask" on any failure and once Baton is quitting.
   * `gaveUp`: the hook stopped waiting, and its request leaves the card. `launch`: how `baton claude`
   * started the session (with `--orchestration`, Baton's presets hold its agents).
   */
  handleTerminalHook(input: HookInput, gaveUp?: AbortSignal, launch?: HookLaunch): Promise<HookVerdict> {
    if (this.shuttingDown !== undefined) return Promise.resolve({ ...AskVerdict, reason: "Baton is quitting; the terminal asks instead" });
    return this.terminal.handle(input, gaveUp, launch);
  }

  async closeTab(tabId: string): Promise<void> {
    this.tabs.require(tabId);
    await this.removeTab(tabId);
  }

  async sendPrompt(tabId: string, text: string, images?: readonly { readonly mediaType: string; readonly data: string }[]): Promise<void> {
    const session = this.tabs.live(tabId);
    // A CLI that ended since the last turn (crashed, killed) continues in a new process.
    if (!session.client.running) {
      this.cap.assertRoom();
      const release = this.cap.claim(tabId);
      try {
        await session.continueAfterExit();
      } finally {
        release();
      }
    }
    session.client.send(images?.length ? { text, images } : text);
  }

  async interrupt(tabId: string): Promise<void> {
    await this.tabs.live(tabId).interrupt();
  }

  async setPermissionMode(tabId: string, mode: PermissionMode): Promise<void> {
    await this.tabs.live(tabId).client.setPermissionMode(mode);
  }

  async setModel(tabId: string, model: string): Promise<void> {
    await this.tabs.live(tabId).client.setModel(model);
  }

  /** What rewinding a live tab's files to just before prompt `promptUuid` would change, with each file's content now and then (core/fileRewind.ts). */
  previewRewind(tabId: string, promptUuid: string): Promise<RewindPreview> {
    return previewRewind(this.rewindTarget(tabId), promptUuid);
  }

  /** Rewinds a live tab's files to just before prompt `promptUuid`; the transcript marks it. */
  applyRewind(tabId: string, promptUuid: string): Promise<RewindOutcome> {
    return applyRewind(this.rewindTarget(tabId), promptUuid);
  }

  private rewindTarget(tabId: string): RewindTarget {
    const { session, cwd } = this.tabs.liveTab(tabId);
    return { session, env: this.options.env ?? process.env, cwd, ...(this.options.audit !== undefined ? { audit: this.options.audit } : {}) };
  }

  answerPermission(tabId: string, requestId: string, answer: PermissionAnswer): Promise<void> {
    return this.answers.permission(tabId, requestId, answer);
  }

  answerEscalation(tabId: string, escalationId: string, reply: EscalationReply): void {
    this.answers.escalation(tabId, escalationId, reply);
  }

  getSessionInfo(tabId: string): SessionInfo {
    const init = this.tabs.live(tabId).initialize;
    return {
      slashCommands: init?.commands.map((c) => c.name) ?? [],
      models: init?.models.map((m) => ({ value: m.value, displayName: m.displayName ?? m.value })) ?? [],
      agents: init?.agents.map((a) => a.name) ?? [],
    };
  }

  async loadSubagentBlocks(tabId: string, toolUseId: string): Promise<readonly Block[]> {
    const tab = this.tabs.require(tabId);
    if (tab.kind === "restored") {
      const blocks = await tab.session.loadSubagentBlocks(toolUseId);
      this.changed(tabId);
      return blocks;
    }
    const blocks = await tab.session.loadSubagentBlocks(toolUseId);
    if (blocks === undefined) throw new AppError("not_found", `No subagent ${toolUseId} in this tab`);
    return blocks;
  }

  listSessions(): Promise<readonly SessionSummary[]> {
    return this.restored.listSessions();
  }

  searchHistory(query: string, limit = 50): Promise<readonly SearchHit[]> {
    return this.restored.search(query, limit);
  }

  /** The tab's session as one Markdown or HTML file (core/sessionExport.ts). */
  exportSession(tabId: string, choices: ExportChoices): Promise<ExportedFile> {
    return exportTab(this.tabs.require(tabId), this.options.history, choices);
  }

  /** The hits of `query` inside a tab's session, where each shows (core/sessionFind.ts; a live tab's: core/liveFind.ts). */
  findInSession(tabId: string, query: string): Promise<SessionFind> {
    const tab = this.tabs.require(tabId);
    if (tab.kind === "live") return findInLiveSession(this.options.history, tab.session.sessionId, query);
    return this.restored.find(tabId, query);
  }

  subscribeTranscript(tabId: string, listener: DeltaListener): () => void {
    return this.publisher.subscribe(tabId, listener);
  }
  onTabsChanged(listener: (tabs: readonly TabInfo[]) => void): () => void {
    return this.tabs.onChanged(listener);
  }
  /** Replays the Console's ring first, then follows. */
  onLog(listener: (entry: LogEntry) => void): () => void {
    for (const entry of this.log.entries()) listener(entry);
    return this.log.subscribe(listener);
  }
  /** A UI is connected until the returned function is called (see PermissionBroker). */
  acquirePresence(): () => void {
    const release = this.broker.acquirePresence();
    this.presenceChanged();
    return () => {
      release();
      this.presenceChanged();
    };
  }

  /** CLI processes running or starting (processCap.ts). */
  runningProcessCount(): number {
    return this.cap.running();
  }

  /** Denies every open request, stops every CLI, stops every timer. Idempotent. */
  shutdown(): Promise<void> {
    this.shuttingDown ??= (async () => {
      this.broker.close();
      for (const e of this.escalations.values()) e.desk.close("Baton is quitting.");
      for (const tab of this.tabs.all()) if (tab.kind === "restored") tab.session.close?.();
      const live = this.tabs.liveTabs();
      await Promise.allSettled(live.map((t) => t.session.stop()));
      // The CLIs are gone, and with them every command they ran in a sandbox.
      for (const t of live) t.policy?.close();
      await Promise.allSettled(live.map((t) => this.releaseWorktree(t.tabId)));
      this.publisher.close();
      this.tabs.close();
    })();
    return this.shuttingDown;
  }

  /** Starts the session in a new worktree of its folder's repository (worktrees/sessionWorktree.ts), undone when its CLI does not start. */
  private async startInNewWorktree(tabId: string, options: NewSessionOptions, forked?: Forked): Promise<TabInfo> {
    const made = await createSessionWorktree(options.cwd, options.initialPrompt, randomBytes(3).toString("hex")).catch((error: unknown) => {
      throw error instanceof WorktreeActionError ? new AppError(worktreeApiCode(error.code), `No new worktree: ${error.message}`) : error;
    });
    this.log.baton("info", "worktree made for a new session", { path: made.path, branch: made.branch }, tabId);
    const { newWorktree: _, ...rest } = options;
    try {
      return await this.startLive(tabId, { ...rest, cwd: made.cwd }, forked);
    } catch (error) {
      if (!(await discardSessionWorktree(made).catch(() => false))) {
        this.log.baton("warning", "the worktree made for a session that did not start is kept", { path: made.path, branch: made.branch }, tabId);
      }
      throw error;
    }
  }

  /** Makes the tab's session and starts its CLI; a CLI that cannot start takes its tab with it. */
  private async startLive(tabId: string, options: NewSessionOptions, forked?: Forked): Promise<TabInfo> {
    // The link outlives the tab in the audit trail; a resumed fork's tab reads it back (forkRecord.ts).
    const forkedFrom = forked?.link ?? (await recordedForkLink(this.options, options.resumeSessionId));
    const { session, policy } = await this.factory.make(tabId, options, forked?.fork);
    // A fork's tab shows the turns it continues before its CLI says anything.
    for (const event of forked?.earlier ?? []) session.addEvent(event);
    if (forked?.agentCalls !== undefined) session.countRecordedCalls(forked.agentCalls);
    if (forked !== undefined && this.options.audit !== undefined) recordForkWhenNamed(session, forked.link, this.options.audit);
    // A session in a linked worktree (made for it, or a resumed one's) shows its branch on the tab.
    const worktree = await linkedWorktreeOf(options.cwd);
    // Locked while the tab lives: no other tool removes the folder under the session.
    if (worktree !== undefined) this.worktreeHolds.set(tabId, await this.worktreeLocks.hold(worktree.path));
    const tab: LiveTab = { kind: "live", tabId, cwd: options.cwd, session, ...(policy !== undefined ? { policy } : {}), ...(forkedFrom !== undefined ? { forkedFrom } : {}), ...(worktree !== undefined ? { worktree } : {}) };
    this.tabs.set(tab);
    this.tabs.emit();
    try {
      await session.start();
    } catch (error) {
      this.log.baton("error", "could not start claude", { error: toApiError(error).message }, tabId);
      await this.removeTab(tabId);
      throw error;
    }
    this.log.baton("info", "session started", { cwd: options.cwd, resume: options.resumeSessionId ?? null }, tabId);
    this.tabs.refresh(tabId); // live now
    if (options.initialPrompt !== undefined) session.client.send(options.initialPrompt);
    return this.tabs.infoOf(tab);
  }

  private policyControl(policy: NonNullable<SessionManagerOptions["policy"]>): PolicyControl {
    const home = this.options.env?.["HOME"];
    return new PolicyControl({
      policy,
      tab: (tabId) => {
        const tab = this.tabs.get(tabId);
        return tab === undefined ? undefined : this.tabs.infoOf(tab);
      },
      ...(home !== undefined && home !== "" ? { home } : {}),
      log: (level, message, fields) => this.log.baton(level, message, fields),
    });
  }

  private presenceChanged(): void {
    for (const e of this.escalations.values()) e.desk.presenceChanged();
  }

  private async removeTab(tabId: string): Promise<void> {
    const tab = this.tabs.get(tabId);
    if (tab === undefined) return;
    const sessionId = tab.kind === "live" ? tab.session.sessionId : undefined;
    if (sessionId !== undefined) this.policy?.forgetSession(sessionId);
    this.broker.denyTab(tabId, "tab-closed", "The tab was closed; denied.");
    this.escalations.get(tabId)?.desk.close("The tab was closed.");
    this.escalations.delete(tabId);
    this.tabs.delete(tabId);
    this.publisher.drop(tabId);
    this.tabs.emit();
    if (tab.kind === "live") {
      await tab.session.stop();
      tab.policy?.close();
      await this.releaseWorktree(tabId);
    } else tab.session.close?.();
  }

  /** The tab's hold on its worktree's lock, let go once its CLI has stopped. */
  private async releaseWorktree(tabId: string): Promise<void> {
    const release = this.worktreeHolds.get(tabId);
    this.worktreeHolds.delete(tabId);
    await release?.();
  }

  /** A tab's transcript changed: its subscribers get a delta, the tab strip is checked. */
  private changed(tabId: string): void {
    this.publisher.markDirty(tabId);
    this.tabs.changed(tabId);
  }

  private assertRunning(): void {
    if (this.shuttingDown !== undefined) throw new AppError("shutting_down", "Baton is shutting down");
  }
}
