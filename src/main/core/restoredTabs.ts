// Past sessions in tabs: the history folder's sessions listed and searched, and one opened as a
// restored tab. A big session opens on its newest blocks and is published whole once read; a
// session still written to (running in a terminal, or resumed there) updates in place.

import type { SearchHit, SessionFind, SessionSummary, TabInfo } from "../../shared/api.js";
import type { LogBus } from "../platform/logBus.js";
import { linkedWorktreeOf } from "../worktrees/index.js";
import { AppError } from "./appError.js";
import type { HistorySource } from "./historySource.js";
import { findInSession } from "./sessionFind.js";
import type { RestoredTab, TabList } from "./tabList.js";

export interface RestoredTabsOptions {
  /** Absent: no history folder is configured. */
  readonly history: HistorySource | undefined;
  readonly tabs: TabList;
  readonly log: LogBus;
  /** A tab's transcript changed. */
  readonly changed: (tabId: string) => void;
  /** A tab's transcript was replaced: its subscribers get it whole. */
  readonly reset: (tabId: string) => void;
}

export class RestoredTabs {
  constructor(private readonly options: RestoredTabsOptions) {}

  async listSessions(): Promise<readonly SessionSummary[]> {
    return this.options.history ? this.options.history.listSessions() : [];
  }

  async search(query: string, limit: number): Promise<readonly SearchHit[]> {
    const search = this.options.history?.search;
    if (search === undefined) throw new AppError("search_unavailable", "No search index is available (the history store is not open)");
    return search(query, limit);
  }

  /**
   * The hits of `query` inside a restored tab's session, each placed on its block (sessionFind.ts).
   * The sidechains they are in are loaded into the tab, as opening their cards would.
   */
  async find(tabId: string, query: string): Promise<SessionFind> {
    const tab = this.options.tabs.require(tabId);
    if (tab.kind !== "restored") throw new AppError("not_restored", "Find in session works in sessions opened from history");
    const found = await findInSession(this.options.history, tab.session, query);
    if (this.options.tabs.get(tabId) === tab) this.options.changed(tabId);
    return found;
  }

  /**
   * The session's tab: the one already open (live or restored), else a new restored tab. With
   * `project`, a restored tab of the same id from another project folder is another session.
   */
  async open(sessionId: string, project?: string): Promise<TabInfo> {
    const { tabs } = this.options;
    const existing = tabs.all().find(
      (t) => t.session.sessionId === sessionId && (project === undefined || t.kind !== "restored" || t.session.project === undefined || t.session.project === project),
    );
    if (existing !== undefined) return tabs.infoOf(existing);
    const history = this.options.history;
    if (history === undefined) throw new AppError("history_unavailable", "No history folder is configured");
    const session = await history.restore(sessionId, project);
    // A session that ran in a worktree still there shows its branch, and its prompts offer a fork in a new worktree.
    const worktree = session.cwd === undefined ? undefined : await linkedWorktreeOf(session.cwd).catch(() => undefined);
    const tab: RestoredTab = { kind: "restored", tabId: tabs.newTabId(), session, ...(worktree !== undefined ? { worktree } : {}) };
    tabs.set(tab);
    tabs.emit();
    this.follow(tab, sessionId);
    return tabs.infoOf(tab);
  }

  /** Updates the tab as its file grows and once a big session is read whole, while the tab is open. */
  private follow(tab: RestoredTab, sessionId: string): void {
    const { tabs, log } = this.options;
    const { tabId, session } = tab;
    const open = (): boolean => tabs.get(tabId) === tab;
    session.follow?.(
      () => {
        if (open()) this.options.changed(tabId);
      },
      (error) => log.baton("warning", "could not read new lines of the session file", { sessionId, error: String(error) }, tabId),
    );
    // What the file held that the tab cannot show as written, once the whole file was read.
    const reportProblems = (): void => {
      for (const p of session.problems?.() ?? []) log.baton("warning", p.message, { path: p.path }, tabId);
    };
    if (session.loaded === undefined) reportProblems();
    // Each card's share, once its subagents' files were counted.
    void session.usageCounted?.then(
      () => {
        if (open()) this.options.changed(tabId);
      },
      (error: unknown) => log.baton("warning", "could not count the tokens in the session's subagent files", { sessionId, error: String(error) }, tabId),
    );
    void session.loaded?.then(({ error }) => {
      if (!open()) return;
      if (error !== undefined) log.baton("error", "could not read the whole session", { sessionId, error }, tabId);
      reportProblems();
      this.options.reset(tabId);
      this.options.changed(tabId);
    });
  }
}
