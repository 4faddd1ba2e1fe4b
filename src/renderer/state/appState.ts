// The renderer's app state (zustand): open tabs, each with its normalised transcript (blocks by id,
// children by parent id, meta, pending permissions), plus UI state that must outlive any single
// component: selection, which cards are expanded, logs, and the past-session list.

import { create } from "zustand";
import type { LogEntry, PolicyInfo, SessionInfo, SessionSummary, TabInfo } from "../../shared/api.js";
import type { NormalizedBlock } from "../../shared/api.js";
import type { Block } from "../../shared/transcript.js";
import { applyDelta, emptyTranscriptState, normalizeBlock, type TranscriptState } from "../../shared/delta/index.js";
import { loadExpanded, saveExpanded } from "./persist.js";

export interface TabState {
  readonly info: TabInfo;
  readonly transcript: TranscriptState;
  readonly sessionInfo?: SessionInfo;
}

export type Selection = { readonly tabId: string; readonly blockId: string } | undefined;

export interface AppState {
  readonly tabOrder: readonly string[];
  readonly tabs: Readonly<Record<string, TabState>>;
  readonly activeTabId: string | undefined;
  /** The selected block of the tab in front (what the Inspector shows), or undefined: `selectedByTab[activeTabId]`. */
  readonly selection: Selection;
  /** Each tab's selected block, kept while the tab is open: switching tabs brings its selection back. */
  readonly selectedByTab: Readonly<Record<string, string>>;
  /** Expanded subagent cards and tool groups, by toolUseId / group key. */
  readonly expanded: Readonly<Record<string, boolean>>;
  readonly logs: readonly LogEntry[];
  readonly sessions: readonly SessionSummary[];
  /** Tabs opened from history (read-only until resumed). TabInfo.live is also false while a CLI starts. */
  readonly restored: Readonly<Record<string, true>>;
  /** Bumped to ask the transcript to scroll a block into view. */
  readonly scrollRequest: ScrollRequest | undefined;
  /** An interrupt that would stop background agents, waiting for the person to confirm it (actions.ts). */
  readonly interruptConfirm: InterruptConfirm | undefined;
  /** Tabs whose interrupt was sent and has not taken effect yet. */
  readonly interrupting: Readonly<Record<string, true>>;
  /** Orchestration mode, presets and rules; undefined until known (or for a Baton without a policy). */
  readonly policy: PolicyInfo | undefined;
  /** Bumped to show an agent's worktree in the Worktrees tab (an agent card's badge asks). */
  readonly worktreeRequest: WorktreeRequest | undefined;
  /** Orphaned worktrees of each tab's repository, as last listed (absent: not listed yet). */
  readonly orphanedWorktrees: Readonly<Record<string, number>>;
}

export interface ScrollRequest {
  readonly blockId: string;
  readonly seq: number;
  /**
   * The cards that hold the block, outermost first, when the transcript's own tree may not hold it
   * (a card showing all its steps from their kept copies: fullSteps.ts). Else found from the tree.
   */
  readonly path?: readonly string[];
}

/** The worktree to show: the one an agent ran in (by its agent id, or the path its result named). */
export interface WorktreeRequest {
  readonly tabId: string;
  readonly agentId: string;
  readonly path?: string;
  /** The agent's label, for saying that its worktree is gone. */
  readonly agentLabel: string;
  readonly seq: number;
}

export interface InterruptConfirm {
  readonly tabId: string;
  /** The background agents it would stop, as counted when it was asked for. */
  readonly agents: number;
}

export const MaxLogEntries = 2000;

export const useApp = create<AppState>()(() => ({
  tabOrder: [],
  tabs: {},
  activeTabId: undefined,
  selection: undefined,
  selectedByTab: {},
  expanded: loadExpanded(),
  logs: [],
  sessions: [],
  restored: {},
  scrollRequest: undefined,
  interruptConfirm: undefined,
  interrupting: {},
  policy: undefined,
  worktreeRequest: undefined,
  orphanedWorktrees: {},
}));

export function emptyTab(info: TabInfo): TabState {
  return { info, transcript: emptyTranscriptState() };
}

/**
 * Replaces the tab list, keeping the transcripts of tabs that stay open. `remembered`: the window's
 * tab in front and selections before a reload (windowMemory.ts), for the first list it receives.
 */
export function setTabs(list: readonly TabInfo[], remembered?: { readonly front?: string; readonly selected: Readonly<Record<string, string>> }): void {
  useApp.setState((s) => {
    const tabs: Record<string, TabState> = {};
    for (const info of list) {
      const old = s.tabs[info.tabId];
      tabs[info.tabId] = old !== undefined ? { ...old, info } : emptyTab(info);
    }
    const order = list.map((t) => t.tabId);
    // A tab that just appeared (new session, plan continued in a fresh one) comes to the front.
    const added = order.filter((id) => s.tabs[id] === undefined);
    const kept = s.activeTabId !== undefined && tabs[s.activeTabId] !== undefined ? s.activeTabId : order[order.length - 1];
    const front = remembered?.front !== undefined && tabs[remembered.front] !== undefined ? remembered.front : undefined;
    const active = front ?? (added.length > 0 ? added[added.length - 1] : kept);
    const orphanedWorktrees = Object.fromEntries(Object.entries(s.orphanedWorktrees).filter(([id]) => tabs[id] !== undefined));
    // A closed tab's selection goes with it; the tab now in front shows its own.
    const selectedByTab = Object.fromEntries(Object.entries({ ...remembered?.selected, ...s.selectedByTab }).filter(([id]) => tabs[id] !== undefined));
    // A past session's tab is one still after a reload, which forgets what this window opened.
    const fromHistory = list.filter((t) => t.kind === "restored" && s.restored[t.tabId] === undefined);
    const restored = fromHistory.length === 0 ? s.restored : { ...s.restored, ...Object.fromEntries(fromHistory.map((t) => [t.tabId, true as const])) };
    return { tabs, tabOrder: order, activeTabId: active, orphanedWorktrees, selectedByTab, selection: selectionOf(selectedByTab, active), restored };
  });
}

export function setActiveTab(tabId: string): void {
  useApp.setState((s) => ({ activeTabId: tabId, selection: selectionOf(s.selectedByTab, tabId) }));
}

function selectionOf(selectedByTab: Readonly<Record<string, string>>, tabId: string | undefined): Selection {
  const blockId = tabId === undefined ? undefined : selectedByTab[tabId];
  return blockId === undefined ? undefined : { tabId: tabId!, blockId };
}

export function setSessionInfo(tabId: string, info: SessionInfo): void {
  useApp.setState((s) => {
    const tab = s.tabs[tabId];
    return tab === undefined ? {} : { tabs: { ...s.tabs, [tabId]: { ...tab, sessionInfo: info } } };
  });
}

export function setExpanded(key: string, open: boolean): void {
  const s = useApp.getState();
  const tab = s.activeTabId !== undefined ? s.tabs[s.activeTabId] : undefined;
  useApp.setState({ expanded: { ...s.expanded, [key]: open } });
  saveExpanded(tab?.transcript.meta?.sessionId ?? "", key, open);
}

/** Selects a block of a tab (the tab's own selection; shown by the Inspector while the tab is in front). */
export function select(tabId: string, blockId: string, scroll: boolean): void {
  useApp.setState((s) => ({
    selectedByTab: { ...s.selectedByTab, [tabId]: blockId },
    ...(tabId === s.activeTabId || s.activeTabId === undefined ? { selection: { tabId, blockId } } : {}),
    ...(scroll ? { scrollRequest: { blockId, seq: (s.scrollRequest?.seq ?? 0) + 1 } } : {}),
  }));
}

/** Asks the transcript to open the cards `path` (outermost first) and scroll `blockId` into view. */
export function scrollToBlock(blockId: string, path?: readonly string[]): void {
  useApp.setState((s) => ({ scrollRequest: { blockId, seq: (s.scrollRequest?.seq ?? 0) + 1, ...(path !== undefined ? { path } : {}) } }));
}

export function setOrphanedWorktrees(tabId: string, count: number): void {
  useApp.setState((s) => (s.orphanedWorktrees[tabId] === count ? {} : { orphanedWorktrees: { ...s.orphanedWorktrees, [tabId]: count } }));
}

export function showWorktree(request: Omit<WorktreeRequest, "seq">): void {
  useApp.setState((s) => ({ worktreeRequest: { ...request, seq: (s.worktreeRequest?.seq ?? 0) + 1 } }));
}

export function addLog(entry: LogEntry): void {
  useApp.setState((s) => {
    const logs = s.logs.length >= MaxLogEntries ? s.logs.slice(s.logs.length - MaxLogEntries + 1) : s.logs.slice();
    logs.push(entry);
    return { logs };
  });
}

export function setSessions(sessions: readonly SessionSummary[]): void {
  useApp.setState({ sessions });
}

/** Puts lazily loaded nested blocks (a restored subagent's sidechain) under their card. */
export function insertNested(tabId: string, parentId: string, blocks: readonly Block[]): void {
  const upserts: NormalizedBlock[] = [];
  const children: Record<string, readonly string[]> = {};
  const walk = (parent: string, list: readonly Block[]): void => {
    children[parent] = list.map((b) => b.id);
    for (const b of list) {
      upserts.push(normalizeBlock(b));
      const nested = b.call?.subagent?.blocks;
      if (nested !== undefined && nested.length > 0) walk(b.id, nested);
    }
  };
  walk(parentId, blocks);
  useApp.setState((s) => {
    const tab = s.tabs[tabId];
    if (tab === undefined) return {};
    return { tabs: { ...s.tabs, [tabId]: { ...tab, transcript: applyDelta(tab.transcript, { tabId, upserts, children }) } } };
  });
}

export function setInterruptConfirm(confirm: InterruptConfirm | undefined): void {
  useApp.setState({ interruptConfirm: confirm });
}

export function setInterrupting(tabId: string, on: boolean): void {
  useApp.setState((s) => {
    if ((s.interrupting[tabId] === true) === on) return {};
    const { [tabId]: _gone, ...rest } = s.interrupting;
    return { interrupting: on ? { ...rest, [tabId]: true } : rest };
  });
}

export function markRestored(tabId: string): void {
  useApp.setState((s) => ({ restored: { ...s.restored, [tabId]: true } }));
}

export function setPolicy(policy: PolicyInfo): void {
  useApp.setState({ policy });
}
