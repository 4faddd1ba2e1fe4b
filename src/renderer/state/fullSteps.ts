// Every step of a subagent, for cards whose record dropped older steps (the hub keeps the newest
// MaxNestedBlocks). "Show earlier steps" loads the full list once; from then on the card's step
// ids are that list plus every id the live window adds, each once. Copies of the blocks are kept
// here because the transcript state forgets blocks that fall out of the live window.

import { create } from "zustand";
import type { NormalizedBlock } from "../../shared/api.js";
import { normalizeBlock, type TranscriptState } from "../../shared/delta/index.js";
import type { Block } from "../../shared/transcript.js";
import { useApp } from "./appState.js";

interface CardSteps {
  /** Every step id, oldest first. */
  readonly ids: readonly string[];
  /** The live child list last merged into `ids` (compared by identity). */
  readonly liveSeen: readonly string[] | undefined;
}

interface TabSteps {
  readonly cards: Readonly<Record<string, CardSteps>>;
  /** Blocks under loaded cards (nested ones too), as last seen. */
  readonly blocks: ReadonlyMap<string, NormalizedBlock>;
  readonly children: ReadonlyMap<string, readonly string[]>;
}

interface StepsState {
  readonly tabs: Readonly<Record<string, TabSteps>>;
}

export const useFullSteps = create<StepsState>()(() => ({ tabs: {} }));

const NoTab: TabSteps = { cards: {}, blocks: new Map(), children: new Map() };

/** `known` followed by the ids of `live` it lacks, in their order; `known` itself when none are new. */
export function mergeStepIds(known: readonly string[], live: readonly string[]): readonly string[] {
  const have = new Set(known);
  const added = live.filter((id) => !have.has(id));
  return added.length === 0 ? known : [...known, ...added];
}

/** Shows `blocks` (a record's full step list) under the card `cardId`, then follows the live window. */
export function showAllSteps(tabId: string, cardId: string, blocks: readonly Block[]): void {
  const tab = useFullSteps.getState().tabs[tabId] ?? NoTab;
  const copies = new Map(tab.blocks);
  const children = new Map(tab.children);
  const walk = (parent: string, list: readonly Block[]): void => {
    children.set(parent, list.map((b) => b.id));
    for (const b of list) {
      copies.set(b.id, normalizeBlock(b));
      const nested = b.call?.subagent?.blocks;
      if (nested !== undefined && nested.length > 0) walk(b.id, nested);
    }
  };
  walk(cardId, blocks);
  const card: CardSteps = { ids: blocks.map((b) => b.id), liveSeen: undefined };
  useFullSteps.setState((s) => ({ tabs: { ...s.tabs, [tabId]: { cards: { ...tab.cards, [cardId]: card }, blocks: copies, children } } }));
  follow();
}

/** Keeps loaded cards current with the transcript state; returns the function that stops it. */
export function startFullSteps(): () => void {
  return useApp.subscribe((s, prev) => {
    if (s.tabs !== prev.tabs) follow();
  });
}

/** Merges new live ids into every loaded card and refreshes the copies of live blocks. */
function follow(): void {
  const { tabs } = useFullSteps.getState();
  if (Object.keys(tabs).length === 0) return;
  const app = useApp.getState().tabs;
  const next: Record<string, TabSteps> = {};
  let changed = false;
  for (const [tabId, tab] of Object.entries(tabs)) {
    const transcript = app[tabId]?.transcript;
    if (transcript === undefined) {
      changed = true; // The tab closed: forget its steps.
      continue;
    }
    const updated = followTab(tab, transcript);
    next[tabId] = updated;
    if (updated !== tab) changed = true;
  }
  if (changed) useFullSteps.setState({ tabs: next });
}

function followTab(tab: TabSteps, transcript: TranscriptState): TabSteps {
  let blocks: Map<string, NormalizedBlock> | undefined;
  let children: Map<string, readonly string[]> | undefined;
  let cards: Record<string, CardSteps> | undefined;
  // Copies blocks (and, for nested agents, their step lists) whose live version changed.
  const copy = (ids: readonly string[]): void => {
    for (const id of ids) {
      const block = transcript.blocksById.get(id);
      if (block === undefined) continue;
      if ((blocks ?? tab.blocks).get(id) !== block) (blocks ??= new Map(tab.blocks)).set(id, block);
      const nested = transcript.children.get(id);
      if (nested === undefined) continue;
      if ((children ?? tab.children).get(id) !== nested) (children ??= new Map(tab.children)).set(id, nested);
      copy(nested);
    }
  };
  for (const [cardId, card] of Object.entries(tab.cards)) {
    const live = transcript.children.get(cardId);
    if (live === undefined) continue;
    copy(live);
    if (live === card.liveSeen) continue;
    (cards ??= { ...tab.cards })[cardId] = { ids: mergeStepIds(card.ids, live), liveSeen: live };
  }
  if (blocks === undefined && children === undefined && cards === undefined) return tab;
  return { cards: cards ?? tab.cards, blocks: blocks ?? tab.blocks, children: children ?? tab.children };
}

/** The ids to show under `parentId`: the full list once loaded, else the live ones (or kept copies of them). */
export function useStepIds(tabId: string, parentId: string, live: readonly string[]): readonly string[] {
  const full = useFullSteps((s) => s.tabs[tabId]?.cards[parentId]?.ids);
  const kept = useFullSteps((s) => s.tabs[tabId]?.children.get(parentId));
  return full ?? (live.length === 0 && kept !== undefined ? kept : live);
}

/** A step block: the live one, or its kept copy once the live window dropped it. */
export function useStepBlock(tabId: string, id: string): Block | undefined {
  const live = useApp((s) => s.tabs[tabId]?.transcript.blocksById.get(id));
  const kept = useFullSteps((s) => s.tabs[tabId]?.blocks.get(id));
  return live ?? kept;
}

export function useShowingAllSteps(tabId: string, cardId: string): boolean {
  return useFullSteps((s) => s.tabs[tabId]?.cards[cardId] !== undefined);
}
