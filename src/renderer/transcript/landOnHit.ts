// Landing on a find's hit (issue 34): the cards around its block are opened from the top-level one
// down, each showing the step that leads on (its kept steps, else its whole list loaded from the
// sidechain as "Show earlier steps" would), then the transcript scrolls to the block, any folded
// part that holds the marked words (a thinking block, a Read's output) opens, and the first mark is
// brought into the middle of the view. Every step waits for the state it needs, not for time; a
// landing that a newer one replaced stops.
import type { FoundPlace } from "../../shared/api.js";
import { api } from "../apiClient.js";
import { addLog, scrollToBlock, select, setExpanded, useApp } from "../state/appState.js";
import { showAllSteps, useFullSteps } from "../state/fullSteps.js";
import { MarkClass } from "../util/HitMarks.js";

/** How long a landing waits for one thing (the session read whole, a card's steps, the block drawn). */
const WaitMs = 30_000;

export async function landOnHit(tabId: string, place: FoundPlace, current: () => boolean): Promise<void> {
  const top = place.cards[0] ?? place.blockId;
  if (!(await until(current, () => blockOf(tabId, top) !== undefined))) return;
  const chain = [...place.cards, place.blockId];
  for (let depth = 0; depth < place.cards.length; depth++) {
    const card = place.cards[depth]!;
    setExpanded(card, true);
    if (!(await stepShown(tabId, card, chain[depth + 1]!, current))) return;
  }
  // A call is selected (the Inspector shows it whole, its words marked too); text is only scrolled to.
  if (blockOf(tabId, place.blockId)?.call !== undefined) select(tabId, place.blockId, false);
  await bringIntoView(tabId, place, current);
}

/** The block as the tab knows it: its live copy, or a kept copy of a card showing all its steps. */
function blockOf(tabId: string, id: string) {
  return useApp.getState().tabs[tabId]?.transcript.blocksById.get(id) ?? useFullSteps.getState().tabs[tabId]?.blocks.get(id);
}

/** The step ids a card draws (as useStepIds picks them). */
function stepIdsOf(tabId: string, card: string): readonly string[] {
  const full = useFullSteps.getState().tabs[tabId];
  const live = useApp.getState().tabs[tabId]?.transcript.children.get(card) ?? [];
  return full?.cards[card]?.ids ?? (live.length === 0 ? (full?.children.get(card) ?? live) : live);
}

/**
 * Waits until the card draws `step`. A card whose kept steps (the newest MaxNestedBlocks) lack it
 * loads its whole list once, as "Show earlier steps" does.
 */
async function stepShown(tabId: string, card: string, step: string, current: () => boolean): Promise<boolean> {
  let loading = false;
  return until(current, () => {
    const ids = stepIdsOf(tabId, card);
    if (ids.includes(step)) return true;
    const record = blockOf(tabId, card)?.call?.subagent;
    // Steps still to come from the sidechain (the card's own load), or dropped from the kept window.
    if (!loading && ids.length > 0 && record?.sidechainPath === undefined) {
      loading = true;
      void loadAll(tabId, card);
    }
    return false;
  });
}

async function loadAll(tabId: string, card: string): Promise<void> {
  const result = await api().loadSubagentBlocks(tabId, card);
  if (result.ok) showAllSteps(tabId, card, result.value);
  else addLog({ time: new Date().toISOString(), level: "error", source: "baton", message: `Find: the subagent's steps could not be loaded: ${result.error.message}`, fields: { toolUseId: card } });
}

/**
 * Once the block is drawn: opens what folds its first mark away and keeps the mark (else the
 * block) in the middle of the view while the rows around it settle (cards opening, rows measured).
 */
async function bringIntoView(tabId: string, place: FoundPlace, current: () => boolean): Promise<void> {
  const blockId = place.blockId;
  const find = (): HTMLElement | undefined => {
    const block = document.querySelector<HTMLElement>(`[data-transcript-tab="${CSS.escape(tabId)}"] [data-block-id="${CSS.escape(blockId)}"]`);
    return block === null ? undefined : (block.querySelector<HTMLElement>(`mark.${MarkClass}.current`) ?? block);
  };
  // The scroll request is made again now and then: a list mounted after one (a tab just opened)
  // does not take it.
  let frames = 0;
  const drawn = await until(current, () => {
    if (find() !== undefined) return true;
    if (frames++ % 60 === 0) scrollToBlock(blockId, place.cards);
    return false;
  });
  if (!drawn) return;
  let settled = 0;
  await until(current, () => {
    const target = find();
    if (target === undefined) return false;
    for (let open = target.closest("details:not([open])"); open !== null; open = open.parentElement?.closest("details:not([open])") ?? null) (open as HTMLDetailsElement).open = true;
    if (inView(target)) return ++settled >= 3;
    settled = 0;
    target.scrollIntoView({ block: "center", inline: "nearest" });
    return false;
  }, 5_000);
}

/** Whether the element is inside every scrolling box around it, and so on screen. */
function inView(element: HTMLElement): boolean {
  const box = element.getBoundingClientRect();
  if (box.height === 0 && box.width === 0) return false;
  for (let scroller = element.parentElement; scroller !== null; scroller = scroller.parentElement) {
    const style = getComputedStyle(scroller);
    if (!/(auto|scroll|hidden)/.test(style.overflowY + style.overflowX)) continue;
    const port = scroller.getBoundingClientRect();
    if (box.bottom <= port.top || box.top >= port.bottom || box.right <= port.left || box.left >= port.right) return false;
  }
  return box.bottom > 0 && box.top < window.innerHeight;
}

/** Checks `done` once a frame until it holds (true), the landing is replaced or the time is up (false). */
function until(current: () => boolean, done: () => boolean, timeoutMs = WaitMs): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  return new Promise((resolve) => {
    const check = (): void => {
      if (!current()) return resolve(false);
      if (done()) return resolve(true);
      if (performance.now() > deadline) return resolve(false);
      requestAnimationFrame(check);
    };
    check();
  });
}
