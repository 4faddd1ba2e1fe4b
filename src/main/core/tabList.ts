// The open tabs and the tab strip the windows are sent. A live tab holds its LiveSession (and the
// policy it decides by), a restored tab a past session read from disk. Each tab's entry (title,
// session id, live or not) is built from its transcript; whether it changed is checked once per
// burst of changes, and the strip is sent only when an entry did.

import type { TabInfo, TerminalState } from "../../shared/api.js";
import type { Transcript } from "../../shared/transcript.js";
import type { SessionPolicy } from "../policy/sessionPolicy.js";
import { AppError } from "./appError.js";
import type { RestoredSession } from "./historySource.js";
import type { LiveSession } from "./liveSession.js";
import { tabTitle } from "./tabTitle.js";

export interface LiveTab {
  readonly kind: "live";
  readonly tabId: string;
  readonly cwd: string;
  readonly session: LiveSession;
  readonly policy?: SessionPolicy;
  /** Set on a tab forked from a prompt of another session. */
  readonly forkedFrom?: TabInfo["forkedFrom"];
  /** The linked git worktree the session runs in (one made for it, or the one its folder is in). */
  readonly worktree?: TabInfo["worktree"];
}

export interface RestoredTab {
  readonly kind: "restored";
  readonly tabId: string;
  readonly session: RestoredSession;
  /** The linked git worktree the session ran in, while it is still there (its fork may take a new one). */
  readonly worktree?: LiveTab["worktree"];
}

export type Tab = LiveTab | RestoredTab;

/** How long the tab strip may lag a title or session id change (see `changed`). */
const InfoCheckMs = 50;

export class TabList {
  private readonly tabs = new Map<string, Tab>();
  private readonly listeners = new Set<(tabs: readonly TabInfo[]) => void>();
  /** Each tab's entry as last sent. */
  private lastInfos = new Map<string, TabInfo>();
  /** Tabs whose entry may have changed since the tab strip was last sent. */
  private readonly infoDirty = new Set<string>();
  private infoTimer: ReturnType<typeof setTimeout> | undefined;
  /** Tabs that show a session running in a terminal (terminalSessions.ts), and its state. */
  private readonly terminals = new Map<string, TerminalState>();
  private nextTab = 1;

  constructor(private readonly logError: (message: string, fields: Record<string, unknown>) => void) {}

  newTabId(): string {
    return `tab-${this.nextTab++}`;
  }

  get(tabId: string): Tab | undefined {
    return this.tabs.get(tabId);
  }

  /** The tab, or the API's not_found. */
  require(tabId: string): Tab {
    const tab = this.tabs.get(tabId);
    if (tab === undefined) throw new AppError("not_found", `No tab ${tabId}`);
    return tab;
  }

  /** The tab's live session, or the API's not_found or read_only. */
  live(tabId: string): LiveSession {
    return this.liveTab(tabId).session;
  }

  /** The live tab `tabId`; a past session's is refused as read-only. */
  liveTab(tabId: string): LiveTab {
    const tab = this.require(tabId);
    if (tab.kind !== "live") throw new AppError("read_only", "This tab shows a past session; resume it to continue");
    return tab;
  }

  /** Adds or replaces a tab; the strip is sent by `emit`. */
  set(tab: Tab): void {
    this.tabs.set(tab.tabId, tab);
  }

  /** Removes a tab; the strip is sent by `emit`. */
  delete(tabId: string): void {
    this.tabs.delete(tabId);
    this.terminals.delete(tabId);
  }

  /** Marks a tab as a terminal session's, in `state`; the strip is sent when that changed it. */
  markTerminal(tabId: string, state: TerminalState): void {
    if (!this.tabs.has(tabId) || this.terminals.get(tabId) === state) return;
    this.terminals.set(tabId, state);
    this.emit();
  }

  terminalState(tabId: string): TerminalState | undefined {
    return this.terminals.get(tabId);
  }

  all(): readonly Tab[] {
    return [...this.tabs.values()];
  }

  liveTabs(): readonly LiveTab[] {
    return this.all().flatMap((t) => (t.kind === "live" ? [t] : []));
  }

  bySessionId(sessionId: string): Tab | undefined {
    return this.all().find((t) => t.session.sessionId === sessionId);
  }

  list(): readonly TabInfo[] {
    return this.all().map((tab) => this.infoOf(tab));
  }

  infoOf(tab: Tab): TabInfo {
    const transcript = this.transcriptOf(tab.tabId);
    const forkedFrom = tab.kind === "live" ? tab.forkedFrom : tab.session.forkedFrom;
    const sessionId = tab.session.sessionId;
    const cwd = tab.kind === "live" ? tab.cwd : (transcript?.cwd ?? tab.session.cwd);
    const terminal = this.terminals.get(tab.tabId);
    return {
      tabId: tab.tabId,
      ...(sessionId ? { sessionId } : {}),
      title: tabTitle(transcript, tab.kind === "restored" ? tab.session.titleFacts?.() : undefined),
      live: tab.kind === "live" && tab.session.client.running,
      kind: tab.kind,
      ...(cwd !== undefined ? { cwd } : {}),
      ...(forkedFrom !== undefined ? { forkedFrom } : {}),
      ...(tab.worktree !== undefined ? { worktree: tab.worktree } : {}),
      ...(terminal !== undefined ? { terminal } : {}),
    };
  }

  transcriptOf(tabId: string): Transcript | undefined {
    const tab = this.tabs.get(tabId);
    if (tab === undefined) return undefined;
    return tab.kind === "live" ? tab.session.transcript : tab.session.transcript();
  }

  onChanged(listener: (tabs: readonly TabInfo[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * A tab's transcript changed. Whether its entry changed is asked once per burst, not per event:
   * it reads the transcript, and building that for every line of a busy session cost more than the rest.
   */
  changed(tabId: string): void {
    this.infoDirty.add(tabId);
    this.infoTimer ??= setTimeout(() => this.checkInfos(), InfoCheckMs);
  }

  /** Sends the tab strip if this tab's entry in it changed; says whether it did. */
  refresh(tabId: string): boolean {
    const tab = this.tabs.get(tabId);
    if (tab === undefined) return false;
    const before = this.lastInfos.get(tabId);
    const now = this.infoOf(tab);
    if (before !== undefined && before.title === now.title && before.sessionId === now.sessionId && before.live === now.live && before.terminal === now.terminal) return false;
    this.emit();
    return true;
  }

  /** Sends the tab strip to every listener. */
  emit(): void {
    const infos = this.list();
    this.lastInfos = new Map(infos.map((i) => [i.tabId, i]));
    for (const listener of [...this.listeners]) {
      try {
        listener(infos);
      } catch (error) {
        this.logError("a tabs listener failed", { error: String(error) });
      }
    }
  }

  /** Forgets every tab and listener, and clears the pending check. */
  close(): void {
    clearTimeout(this.infoTimer);
    this.tabs.clear();
    this.terminals.clear();
    this.listeners.clear();
  }

  private checkInfos(): void {
    this.infoTimer = undefined;
    const dirty = [...this.infoDirty];
    this.infoDirty.clear();
    // One sending carries every entry: the rest of the burst need not be checked.
    for (const tabId of dirty) if (this.refresh(tabId)) return;
  }
}
