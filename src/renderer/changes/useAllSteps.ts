// The Changes view lists what every agent changed, at every depth, so while it is shown it loads
// the steps of each agent whose steps are on disk and not in the window: a restored session's
// cards (and a live nested agent's on a CLI that does not stream them), and the older steps a
// card's record dropped. A few at a time; each load can reveal the next level of agents, which
// the walk then finds. The full lists go where "Show earlier steps" puts them (state/fullSteps.ts).

import { useEffect, useRef, useState } from "react";
import type { TranscriptState } from "../../shared/delta/index.js";
import { MaxNestedBlocks, stepsNotStreamed, type Block } from "../../shared/transcript.js";
import { api, report } from "../apiClient.js";
import { addLog, insertNested, useApp } from "../state/appState.js";
import { showAllSteps, useFullSteps } from "../state/fullSteps.js";

const MaxLoads = 3;

type FullTab = ReturnType<typeof useFullSteps.getState>["tabs"][string];

export interface StepsLoading {
  /** Agents whose steps are being read now or wait their turn. */
  readonly pending: number;
  /** Agents whose steps could not be read (the Console says why). */
  readonly failed: number;
}

/** Loads every agent's steps of the tab while `active`; says how many are still coming or failed. */
export function useAllSteps(tabId: string | undefined, active: boolean): StepsLoading {
  const transcript = useApp((s) => (tabId === undefined ? undefined : s.tabs[tabId]?.transcript));
  const full = useFullSteps((s) => (tabId === undefined ? undefined : s.tabs[tabId]));
  const asked = useRef(new Map<string, Set<string>>());
  const [state, setState] = useState<{ queued: number; failed: number }>({ queued: 0, failed: 0 });
  const running = useRef(0);
  const queue = useRef<{ tabId: string; blockId: string; toolUseId: string; whole: boolean }[]>([]);
  const wanted = active && tabId !== undefined && transcript !== undefined ? agentsToLoad(transcript, full) : [];
  const key = wanted.map((w) => w.blockId).join("\n");
  useEffect(() => {
    if (tabId === undefined) return;
    let seen = asked.current.get(tabId);
    if (seen === undefined) asked.current.set(tabId, (seen = new Set()));
    for (const w of wanted) {
      if (seen.has(w.blockId)) continue;
      seen.add(w.blockId);
      queue.current.push({ tabId, ...w });
      setState((s) => ({ ...s, queued: s.queued + 1 }));
    }
    const next = (): void => {
      while (running.current < MaxLoads && queue.current.length > 0) {
        const job = queue.current.shift()!;
        running.current += 1;
        void loadInto(job).then((ok) => {
          running.current -= 1;
          setState((s) => ({ queued: s.queued - 1, failed: s.failed + (ok ? 0 : 1) }));
          next();
        });
      }
    };
    next();
    // `key` names what `wanted` holds.
  }, [tabId, key]);
  return { pending: state.queued, failed: state.failed };
}

interface Wanted {
  readonly blockId: string;
  readonly toolUseId: string;
  /** The record dropped older steps: keep the whole list, not only the newest. */
  readonly whole: boolean;
}

/** The reachable agent cards whose steps are on disk and not (all) in the window. */
function agentsToLoad(transcript: TranscriptState, full: FullTab | undefined): Wanted[] {
  const out: Wanted[] = [];
  const stepsOf = (id: string): readonly string[] => full?.cards[id]?.ids ?? transcript.children.get(id) ?? full?.children.get(id) ?? [];
  const visit = (parentId: string, depth: number): void => {
    if (depth > 64) return;
    for (const id of stepsOf(parentId)) {
      const record = (transcript.blocksById.get(id) ?? full?.blocks.get(id))?.call?.subagent;
      if (record === undefined) continue;
      const steps = stepsOf(id);
      const dropped = record.droppedBlockCount > 0 && full?.cards[id] === undefined;
      const missing = steps.length === 0 || stepsNotStreamed(record);
      if (record.sidechainPath !== undefined && (missing || dropped)) out.push({ blockId: id, toolUseId: record.toolUseId, whole: dropped });
      else if (record.sidechainPath === undefined && dropped) out.push({ blockId: id, toolUseId: record.toolUseId, whole: true });
      visit(id, depth + 1);
    }
  };
  visit("", 0);
  return out;
}

/** Reads one agent's steps into the window, as opening its card (or "Show earlier steps") would. */
async function loadInto(job: { tabId: string; blockId: string; toolUseId: string; whole: boolean }): Promise<boolean> {
  let blocks: readonly Block[] | undefined;
  try {
    blocks = report("Changes: load subagent steps", await api().loadSubagentBlocks(job.tabId, job.toolUseId));
  } catch (error) {
    addLog({ time: new Date().toISOString(), level: "error", source: "baton", message: `Changes: load subagent steps: ${String(error)}`, fields: { toolUseId: job.toolUseId } });
  }
  if (blocks === undefined) return false;
  if (job.whole || blocks.length > MaxNestedBlocks) showAllSteps(job.tabId, job.blockId, blocks);
  else insertNested(job.tabId, job.blockId, blocks);
  return true;
}
