// The app core's tabs: each live tab owns a CLI (LiveSession), each restored tab a past session
// read from disk. Owns the permission broker, the delta publisher and the log bus; `shutdown()`
// stops every CLI and fails every open permission request closed.

import type { EscalationReply } from "../../shared/escalation.js";
import type {
  LogEntry,
  NewSessionOptions,
  PermissionAnswer,
  SearchHit,
  SessionInfo,
  SessionSummary,
  TabInfo,
} from "../../shared/api.js";
import type { PermissionMode } from "../../shared/protocol/messages.js";
import type { Block, Transcript } from "../../shared/transcript.js";
import type { ClaudeClientOptions } from "../cli/claudeClient.js";
import type { PermissionDecider, PermissionDecision } from "../cli/permissionGate.js";
import type { AuditTrail } from "../store/auditTrail.js";
import { AppError, toApiError } from "./appError.js";
import { DeltaPublisher, type DeltaListener } from "./deltaPublisher.js";
import type { HistorySource, RestoredSession } from "./historySource.js";
import { LiveSession, type ClientFactory } from "./liveSession.js";
import { LogBus } from "../platform/logBus.js";
import { PermissionBroker } from "./permissionBroker.js";
import { decisionFor } from "./permissionAnswers.js";
import { tabTitle } from "./tabTitle.js";
import { listTabWorktrees, mergeTabWorktree, openTabWorktree, removeTabWorktree, tabWorktreeDiff, type TabRepository } from "./tabWorktrees.js";
import type { WorktreeListing, WorktreeMerge, WorktreeOpened, WorktreeOpenTarget, WorktreeRemoval } from "../../shared/worktrees.js";
import type { PolicyService } from "../policy/policyService.js";
import type { SessionPolicy } from "../policy/sessionPolicy.js";
import { PolicyControl } from "./policyControl.js";
import { createSessionEscalations, DefaultConductorTimeoutMs, type SessionEscalations } from "./sessionEscalations.js";
import type { EscalationDesk } from "../orchestration/escalationDesk.js";
import { phasesFromTrail } from "../orchestration/restoredPhases.js";
import type { AuditWithTrail } from "../history/index.js";
import type { AuditReader } from "../store/auditTrail.js";

/** How long the tab strip may lag a title or session id change (see `changed`). */
const InfoCheckMs = 50;

/** How many CLI processes run at once unless the settings file says otherwise (settingsFile.ts). */
export const DefaultMaxRunningSessions = 8;

export interface SessionManagerOptions {
  readonly claudePath: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly history?: HistorySource;
  readonly log?: LogBus;
  /** How long permission requests wait with no UI connected before they are denied. Default 30 s. */
  readonly permissionGraceMs?: number;
  /** Shortest gap between two deltas of a tab. Default 50 ms. */
  readonly publishIntervalMs?: number;
  /** Extra client options for every CLI (stop timeouts, partial messages, …). */
  readonly clientDefaults?: Partial<Omit<ClaudeClientOptions, "claudePath" | "cwd" | "env" | "decidePermission" | "log" | "tap">>;
  readonly createClient?: ClientFactory;
  /** Baton's audit trail (permission decisions, interrupts); absent without a store. */
  readonly audit?: AuditTrail;
  /**
   * The most CLI processes running (or starting) at once; each is a `claude` with its own memory
   * and API traffic, and the page can ask for any number. Default DefaultMaxRunningSessions.
   */
  readonly maxRunningSessions?: number;
  /** Presets, the person's rules and orchestration mode (issue 22); absent: the CLI's own permission flow only. */
  readonly policy?: PolicyService;
  /** Orchestration mode: how long the conductor has to answer a subagent before the person is asked. Default 120 s. */
  readonly conductorTimeoutMs?: number;
  /** A session's audit trail: a resumed session's agents keep the phases it recorded. */
  readonly readAudit?: AuditReader;
}

type Tab =
  | { readonly kind: "live"; readonly tabId: string; readonly cwd: string; readonly session: LiveSession; readonly policy?: SessionPolicy }
  | { readonly kind: "restored"; readonly tabId: string; readonly session: RestoredSession };

export class SessionManager {
  readonly log: LogBus;
  readonly broker: PermissionBroker;
  /** The person's hold on the policy (mode, presets, rules); absent without a PolicyService. */
  readonly policy: PolicyControl | undefined;
  private readonly publisher: DeltaPublisher;
  private readonly tabs = new Map<string, Tab>();
  private readonly tabListeners = new Set<(tabs: readonly TabInfo[]) => void>();
  private lastInfos = new Map<string, TabInfo>();
  /** Tabs whose info may have changed since the tab strip was last sent. */
  private readonly infoDirty = new Set<string>();
  private infoTimer: ReturnType<typeof setTimeout> | undefined;
  private nextTab = 1;
  private shuttingDown: Promise<void> | undefined;
  /** Live tabs whose CLI is being started or restarted: counted before their process runs. */
  private readonly starting = new Set<string>();
  /** Live tabs in orchestration mode: their escalation desks (questions and plans of their subagents). */
  private readonly escalations = new Map<string, SessionEscalations>();

  constructor(private readonly options: SessionManagerOptions) {
    this.log = options.log ?? new LogBus();
    this.broker = new PermissionBroker({
      graceMs: options.permissionGraceMs ?? 30_000,
      onChange: (tabId) => this.publisher.markDirty(tabId),
      log: (message, fields) => this.log.baton("warning", message, fields),
    });
    this.publisher = new DeltaPublisher(
      { transcript: (tabId) => this.transcriptOf(tabId), pending: (tabId) => this.broker.pending(tabId) },
      options.publishIntervalMs,
      (error) => this.log.baton("error", "a transcript subscriber failed", { error: String(error) }),
    );
    const home = options.env?.["HOME"];
    this.policy =
      options.policy === undefined
        ? undefined
        : new PolicyControl({
            policy: options.policy,
            tab: (tabId) => {
              const tab = this.tabs.get(tabId);
              return tab === undefined ? undefined : this.infoOf(tab);
            },
            ...(home !== undefined && home !== "" ? { home } : {}),
            log: (level, message, fields) => this.log.baton(level, message, fields),
          });
  }

  listTabs(): readonly TabInfo[] {
    return [...this.tabs.values()].map((tab) => this.infoOf(tab));
  }

  async newSession(options: NewSessionOptions): Promise<TabInfo> {
    this.assertRunning();
    this.assertProcessRoom();
    const tabId = this.newTabId();
    let live: LiveSession | undefined;
    let escalations: SessionEscalations | undefined;
    const audit = this.options.audit;
    const policy = this.options.policy?.forSession({
      cwd: options.cwd,
      agentType: (agentId) => live?.agentTypeOf(agentId),
      sessionId: () => live?.sessionId ?? options.resumeSessionId,
      ...(audit !== undefined ? { record: (entry) => audit.policyDecision(entry) } : {}),
      emit: (event) => live?.addEvent(event),
      phaseOf: (agentId) => {
        // An agent of a resumed session's earlier run goes by the Agent call that made it: this
        // run's model has no record of that call (a continuation's card sits on its SendMessage).
        const call = escalations?.desk.restoredCallOf(agentId) ?? live?.agentRecord(agentId)?.toolUseId;
        return call === undefined ? undefined : escalations?.desk.phaseOf(call);
      },
      onDeliberateSpawn: (toolUseId) => escalations?.desk.agentSpawned(toolUseId),
      log: (message, fields) => this.log.baton("warning", message, fields, tabId),
    });
    if (policy?.orchestration === true) {
      escalations = createSessionEscalations({
        live: () => live,
        policy,
        conductorTimeoutMs: this.options.conductorTimeoutMs ?? DefaultConductorTimeoutMs,
        graceMs: this.options.permissionGraceMs ?? 30_000,
        personPresent: () => this.broker.present,
        ...(audit !== undefined ? { record: (entry) => audit.policyDecision(entry) } : {}),
        log: (message, fields) => this.log.baton("info", message, fields, tabId),
      });
      this.escalations.set(tabId, escalations);
    }
    const desk = escalations?.desk;
    if (desk !== undefined && options.resumeSessionId !== undefined) await this.restorePhases(desk, options.resumeSessionId, tabId);
    const defaults = this.options.clientDefaults;
    const session = new LiveSession({
      tabId,
      client: {
        ...defaults,
        ...(policy !== undefined
          ? { initialize: policy.initialize(defaults?.initialize), onHookCallback: policy.hookHandler(defaults?.onHookCallback) }
          : {}),
        claudePath: this.options.claudePath,
        cwd: options.cwd,
        ...(this.options.env ? { env: this.options.env } : {}),
        ...(options.permissionMode !== undefined ? { permissionMode: options.permissionMode } : {}),
        ...(options.model !== undefined ? { model: options.model } : {}),
        ...(options.resumeSessionId !== undefined ? { resume: options.resumeSessionId } : {}),
        ...(escalations !== undefined ? { mcpServers: [...(defaults?.mcpServers ?? []), escalations.server] } : {}),
      },
      decidePermission: policy !== undefined ? policy.decider(this.personFor(tabId, options.cwd)) : this.broker.deciderFor(tabId),
      log: this.log,
      onChange: () => this.changed(tabId),
      ...(desk !== undefined ? { onApplied: () => desk.checkAgents((id) => live?.recordOfCall(id)?.status) } : {}),
      ...(this.options.createClient ? { createClient: this.options.createClient } : {}),
      ...(this.options.audit ? { audit: this.options.audit } : {}),
      ...(this.options.history?.projectsDir !== undefined ? { projectsDir: this.options.history.projectsDir } : {}),
    });
    live = session;
    const tab: Tab = { kind: "live", tabId, cwd: options.cwd, session, ...(policy !== undefined ? { policy } : {}) };
    this.tabs.set(tabId, tab);
    this.starting.add(tabId);
    this.emitTabs();
    try {
      await session.start();
    } catch (error) {
      this.log.baton("error", "could not start claude", { error: toApiError(error).message }, tabId);
      await this.removeTab(tabId);
      throw error;
    } finally {
      this.starting.delete(tabId);
    }
    this.log.baton("info", "session started", { cwd: options.cwd, resume: options.resumeSessionId ?? null }, tabId);
    this.refreshInfo(tabId); // live now
    if (options.initialPrompt !== undefined) session.client.send(options.initialPrompt);
    return this.infoOf(tab);
  }

  /**
   * Before a resumed session's CLI starts: its Deliberate agents' phases from the audit trail, so
   * one that never had a plan approved is still refused changes when SendMessage continues it.
   */
  private async restorePhases(desk: EscalationDesk, sessionId: string, tabId: string): Promise<void> {
    const read = this.options.readAudit;
    await this.options.audit?.flush(); // what the earlier run wrote, all of it
    const audit = read === undefined ? undefined : ((await read(sessionId)) as AuditWithTrail | undefined);
    if (audit === undefined) {
      this.log.baton("warning", "no audit trail to restore the subagents' phases from: agents of the earlier runs are not held to their plans", { sessionId }, tabId);
      return;
    }
    desk.restorePhases(phasesFromTrail(audit.trail));
  }

  async openSession(sessionId: string): Promise<TabInfo> {
    this.assertRunning();
    const existing = [...this.tabs.values()].find((t) => this.sessionIdOf(t) === sessionId);
    if (existing !== undefined) return this.infoOf(existing);
    const history = this.requireHistory();
    const session = await history.restore(sessionId);
    const tab: Tab = { kind: "restored", tabId: this.newTabId(), session };
    this.tabs.set(tab.tabId, tab);
    this.emitTabs();
    // A session still written to (running in a terminal, or resumed there) updates in place.
    session.follow?.(
      () => {
        if (this.tabs.get(tab.tabId) === tab) this.changed(tab.tabId);
      },
      (error) => this.log.baton("warning", "could not read new lines of the session file", { sessionId, error: String(error) }, tab.tabId),
    );
    // What the file held that the tab cannot show as written, once the whole file was read.
    const reportProblems = (): void => {
      for (const p of session.problems?.() ?? []) this.log.baton("warning", p.message, { path: p.path }, tab.tabId);
    };
    if (session.loaded === undefined) reportProblems();
    // A big session opened on its newest blocks: publish the whole transcript once it is read.
    void session.loaded?.then(({ error }) => {
      if (this.tabs.get(tab.tabId) !== tab) return;
      if (error !== undefined) this.log.baton("error", "could not read the whole session", { sessionId, error }, tab.tabId);
      reportProblems();
      this.publisher.reset(tab.tabId);
      this.changed(tab.tabId);
    });
    return this.infoOf(tab);
  }

  async closeTab(tabId: string): Promise<void> {
    this.tab(tabId);
    await this.removeTab(tabId);
  }

  async sendPrompt(tabId: string, text: string, images?: readonly { readonly mediaType: string; readonly data: string }[]): Promise<void> {
    const session = this.live(tabId);
    // A CLI that crashed since the last turn continues the same conversation in a new process.
    if (!session.client.running && session.client.sessionId !== undefined) {
      this.assertProcessRoom();
      this.starting.add(tabId);
      try {
        await session.client.restart();
      } finally {
        this.starting.delete(tabId);
      }
    }
    session.client.send(images?.length ? { text, images } : text);
  }

  async interrupt(tabId: string): Promise<void> {
    await this.live(tabId).interrupt();
  }

  async setPermissionMode(tabId: string, mode: PermissionMode): Promise<void> {
    await this.live(tabId).client.setPermissionMode(mode);
  }

  async setModel(tabId: string, model: string): Promise<void> {
    await this.live(tabId).client.setModel(model);
  }

  async answerPermission(tabId: string, requestId: string, answer: PermissionAnswer): Promise<void> {
    const tab = this.tab(tabId);
    const request = this.broker.find(tabId, requestId);
    if (request === undefined) throw new AppError("not_found", `No permission request ${requestId} is waiting in this tab`);
    const outcome = decisionFor(request, answer);
    if (!outcome.ok) throw new AppError(outcome.code, outcome.message);
    // Refused before the answer goes out, so the plan still waits in its prompt.
    if (outcome.startFreshWith !== undefined) this.assertProcessRoom();
    // Kept before the answer goes out, so the next identical call finds the rule.
    if (outcome.keep !== undefined && this.policy !== undefined) await this.policy.keepAnswerRules(tabId, outcome.keep);
    // A denial that stops the turn cuts subagents like an interrupt does: the restore must know.
    if (outcome.decision.behavior === "deny" && outcome.decision.interrupt === true && tab.kind === "live") tab.session.noteInterrupt();
    // A session rule Baton keeps answers the next calls through the hook; the CLI is not told one
    // too, so deleting Baton's rule in the Rules view really ends it.
    const decision = outcome.keep !== undefined && this.policy !== undefined ? withoutCliRules(outcome.decision) : outcome.decision;
    this.broker.answer(tabId, requestId, decision);
    this.log.baton("info", "permission answered", { requestId, toolName: request.toolName, behavior: answer.behavior }, tabId);
    if (outcome.startFreshWith !== undefined && tab.kind === "live") {
      const model = tab.session.transcript.model;
      await this.newSession({ cwd: tab.cwd, permissionMode: "default", initialPrompt: outcome.startFreshWith, ...(model ? { model } : {}) });
    }
  }

  answerEscalation(tabId: string, escalationId: string, reply: EscalationReply): void {
    this.live(tabId);
    const desk = this.escalations.get(tabId)?.desk;
    if (desk === undefined) throw new AppError("not_found", "This tab runs no orchestration session: it has no subagent questions or plans");
    const outcome = desk.answerByPerson(escalationId, reply);
    if (!outcome.ok) throw new AppError(outcome.code, outcome.message);
    this.log.baton("info", "escalation answered", { escalationId, reply: reply.kind }, tabId);
  }

  getSessionInfo(tabId: string): SessionInfo {
    const init = this.live(tabId).initialize;
    return {
      slashCommands: init?.commands.map((c) => c.name) ?? [],
      models: init?.models.map((m) => ({ value: m.value, displayName: m.displayName ?? m.value })) ?? [],
      agents: init?.agents.map((a) => a.name) ?? [],
    };
  }

  async loadSubagentBlocks(tabId: string, toolUseId: string): Promise<readonly Block[]> {
    const tab = this.tab(tabId);
    if (tab.kind === "restored") {
      const blocks = await tab.session.loadSubagentBlocks(toolUseId);
      this.changed(tabId);
      return blocks;
    }
    const blocks = await tab.session.loadSubagentBlocks(toolUseId);
    if (blocks === undefined) throw new AppError("not_found", `No subagent ${toolUseId} in this tab`);
    return blocks;
  }

  async listSessions(): Promise<readonly SessionSummary[]> {
    return this.options.history ? this.options.history.listSessions() : [];
  }

  async searchHistory(query: string, limit = 50): Promise<readonly SearchHit[]> {
    const search = this.options.history?.search;
    if (search === undefined) throw new AppError("search_unavailable", "No search index is available (the history store is not open)");
    return search(query, limit);
  }

  listWorktrees(tabId: string): Promise<WorktreeListing> {
    return listTabWorktrees(this.repositoryOf(tabId));
  }

  worktreeDiff(tabId: string, path: string): Promise<string> {
    return tabWorktreeDiff(this.repositoryOf(tabId), path);
  }

  mergeWorktree(tabId: string, path: string): Promise<WorktreeMerge> {
    return mergeTabWorktree(this.repositoryOf(tabId), path);
  }

  removeWorktree(tabId: string, path: string, rescue: boolean): Promise<WorktreeRemoval> {
    return removeTabWorktree(this.repositoryOf(tabId), path, rescue);
  }

  /** The program is found on, and started with, the environment Baton gives the CLI. */
  openWorktree(tabId: string, path: string, where: WorktreeOpenTarget): Promise<WorktreeOpened> {
    return openTabWorktree(this.repositoryOf(tabId), path, where, this.options.env ?? process.env);
  }

  subscribeTranscript(tabId: string, listener: DeltaListener): () => void {
    return this.publisher.subscribe(tabId, listener);
  }
  onTabsChanged(listener: (tabs: readonly TabInfo[]) => void): () => void {
    this.tabListeners.add(listener);
    return () => this.tabListeners.delete(listener);
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

  private presenceChanged(): void {
    for (const e of this.escalations.values()) e.desk.presenceChanged();
  }

  /** Denies every open request, stops every CLI, stops every timer. Idempotent. */
  shutdown(): Promise<void> {
    this.shuttingDown ??= (async () => {
      this.broker.close();
      for (const e of this.escalations.values()) e.desk.close("Baton is quitting.");
      for (const tab of this.tabs.values()) if (tab.kind === "restored") tab.session.close?.();
      const live = [...this.tabs.values()].flatMap((t) => (t.kind === "live" ? [t] : []));
      await Promise.allSettled(live.map((t) => t.session.stop()));
      // The CLIs are gone, and with them every command they ran in a sandbox.
      for (const t of live) t.policy?.close();
      this.publisher.close();
      clearTimeout(this.infoTimer);
      this.tabs.clear();
      this.tabListeners.clear();
    })();
    return this.shuttingDown;
  }

  /** The person's side of a tab's requests: the broker, told which rules the prompt may offer. */
  private personFor(tabId: string, cwd: string): PermissionDecider {
    const policy = this.policy;
    return this.broker.deciderFor(tabId, policy === undefined ? undefined : (request) => policy.allowRulesFor(request.toolName, request.input, cwd));
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
    this.emitTabs();
    if (tab.kind === "live") {
      await tab.session.stop();
      tab.policy?.close();
    } else tab.session.close?.();
  }

  private changed(tabId: string): void {
    this.publisher.markDirty(tabId);
    // Whether the tab strip changed is asked once per burst, not per event: it reads the
    // transcript, and building that for every line of a busy session cost more than the rest.
    this.infoDirty.add(tabId);
    this.infoTimer ??= setTimeout(() => this.checkInfos(), InfoCheckMs);
  }

  private checkInfos(): void {
    this.infoTimer = undefined;
    const dirty = [...this.infoDirty];
    this.infoDirty.clear();
    for (const tabId of dirty) if (this.refreshInfo(tabId)) return;
  }

  /** Sends the tab strip if this tab's entry in it changed; says whether it did. */
  private refreshInfo(tabId: string): boolean {
    const tab = this.tabs.get(tabId);
    if (tab === undefined) return false;
    const before = this.lastInfos.get(tabId);
    const now = this.infoOf(tab);
    if (before !== undefined && before.title === now.title && before.sessionId === now.sessionId && before.live === now.live) return false;
    this.emitTabs();
    return true;
  }

  private emitTabs(): void {
    const infos = this.listTabs();
    this.lastInfos = new Map(infos.map((i) => [i.tabId, i]));
    for (const listener of [...this.tabListeners]) {
      try {
        listener(infos);
      } catch (error) {
        this.log.baton("error", "a tabs listener failed", { error: String(error) });
      }
    }
  }

  private infoOf(tab: Tab): TabInfo {
    const transcript = this.transcriptOf(tab.tabId);
    const sessionId = this.sessionIdOf(tab);
    const cwd = tab.kind === "live" ? tab.cwd : (transcript?.cwd ?? tab.session.cwd);
    return {
      tabId: tab.tabId,
      ...(sessionId ? { sessionId } : {}),
      title: tabTitle(transcript),
      live: tab.kind === "live" && tab.session.client.running,
      kind: tab.kind,
      ...(cwd !== undefined ? { cwd } : {}),
    };
  }

  private sessionIdOf(tab: Tab): string | undefined {
    return tab.kind === "live" ? tab.session.sessionId : tab.session.sessionId;
  }

  private transcriptOf(tabId: string): Transcript | undefined {
    const tab = this.tabs.get(tabId);
    if (tab === undefined) return undefined;
    return tab.kind === "live" ? tab.session.transcript : tab.session.transcript();
  }

  private tab(tabId: string): Tab {
    const tab = this.tabs.get(tabId);
    if (tab === undefined) throw new AppError("not_found", `No tab ${tabId}`);
    return tab;
  }

  private live(tabId: string): LiveSession {
    const tab = this.tab(tabId);
    if (tab.kind !== "live") throw new AppError("read_only", "This tab shows a past session; resume it to continue");
    return tab.session;
  }

  /** The repository a tab's worktree actions act on: its cwd's, live or restored. */
  private repositoryOf(tabId: string): TabRepository {
    const cwd = this.infoOf(this.tab(tabId)).cwd;
    if (cwd === undefined) throw new AppError("no_repository", "This session has no working folder, so no repository");
    const liveSessionIds = new Set<string>();
    for (const t of this.tabs.values()) {
      const id = t.kind === "live" ? t.session.sessionId : undefined;
      if (id !== undefined) liveSessionIds.add(id);
    }
    const projectsDir = this.options.history?.projectsDir;
    return { cwd, liveSessionIds, ...(projectsDir !== undefined ? { projectsDir } : {}) };
  }

  private requireHistory(): HistorySource {
    if (this.options.history === undefined) throw new AppError("history_unavailable", "No history folder is configured");
    return this.options.history;
  }

  /** CLI processes running or starting; restored tabs and live tabs whose CLI has exited run none. */
  runningProcessCount(): number {
    let count = 0;
    for (const tab of this.tabs.values()) if (tab.kind === "live" && (tab.session.client.running || this.starting.has(tab.tabId))) count++;
    return count;
  }

  /**
   * Refuses one more CLI process past the cap. Callers claim their slot (`starting`) in the same
   * synchronous step as this check, so two concurrent calls cannot both take the last one.
   */
  private assertProcessRoom(): void {
    const max = this.options.maxRunningSessions ?? DefaultMaxRunningSessions;
    const running = this.runningProcessCount();
    if (running < max) return;
    throw new AppError(
      "too_many_sessions",
      `${running} Claude Code sessions are running, the most Baton runs at once. Close a tab you no longer need, or raise "maxRunningSessions" (now ${max}) in Baton's settings.json and restart Baton.`,
    );
  }

  private assertRunning(): void {
    if (this.shuttingDown !== undefined) throw new AppError("shutting_down", "Baton is shutting down");
  }

  private newTabId(): string {
    return `tab-${this.nextTab++}`;
  }
}

function withoutCliRules(decision: PermissionDecision): PermissionDecision {
  if (decision.behavior !== "allow" || decision.updatedPermissions === undefined) return decision;
  const { updatedPermissions: _dropped, ...rest } = decision;
  return rest;
}
