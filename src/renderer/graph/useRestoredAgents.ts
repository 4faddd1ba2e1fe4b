// A session reopened from history holds only the top-level agents until a card opens: a nested
// agent's Agent call lives in its caller's sidechain file (restore.ts, `sidechainPath`). The graph
// shows every depth, so while it is open on a restored tab it loads the steps of each agent that
// may have called agents, as opening its card would, a few at a time; each load can reveal the
// next level, which the structure key then brings here again.

import { useEffect, useRef } from "react";
import type { SubagentRecord } from "../../shared/transcript.js";
import { api, report } from "../apiClient.js";
import { addLog, useApp } from "../state/appState.js";

const MaxLoads = 3;

/** Whether the record may have started agents: unknown unless its hand-back listed its tools. */
function mayHaveCalledAgents(record: SubagentRecord): boolean {
  return record.toolsUsed === undefined || record.toolsUsed.some((t) => t === "Agent" || t === "Task");
}

export function useRestoredAgents(tabId: string, structure: string): void {
  const restored = useApp((s) => s.restored[tabId] === true && s.tabs[tabId]?.info.live !== true);
  const asked = useRef(new Set<string>());
  const running = useRef(0);
  const queue = useRef<{ toolUseId: string }[]>([]);
  // The agents to load, as one string: a record learns its sidechain path from the hub's delta,
  // which may arrive after the structure it belongs to.
  const wanted = useApp((s) => {
    const transcript = restored ? s.tabs[tabId]?.transcript : undefined;
    if (transcript === undefined) return "";
    const ids: string[] = [];
    for (const line of structure.split("\n")) {
      const id = line.slice(0, line.lastIndexOf("<"));
      const record = transcript.blocksById.get(id)?.call?.subagent;
      if (record?.sidechainPath === undefined || asked.current.has(id)) continue;
      if ((transcript.children.get(id)?.length ?? 0) > 0 || !mayHaveCalledAgents(record)) continue;
      ids.push(`${id}\t${record.toolUseId}`);
    }
    return ids.join("\n");
  });
  useEffect(() => {
    for (const line of wanted === "" ? [] : wanted.split("\n")) {
      const [blockId = "", toolUseId = ""] = line.split("\t");
      if (asked.current.has(blockId)) continue;
      asked.current.add(blockId);
      queue.current.push({ toolUseId });
    }
    const next = (): void => {
      while (running.current < MaxLoads && queue.current.length > 0) {
        const { toolUseId } = queue.current.shift()!;
        running.current += 1;
        void loadInto(tabId, toolUseId).finally(() => {
          running.current -= 1;
          next();
        });
      }
    };
    next();
  }, [tabId, wanted]);
}

/**
 * Asks for the agent's steps; the hub then holds them and its next delta brings them, each nested
 * record with its own sidechain path (what inserting the answer here would lose).
 */
async function loadInto(tabId: string, toolUseId: string): Promise<void> {
  try {
    report("Load subagent steps", await api().loadSubagentBlocks(tabId, toolUseId));
  } catch (error) {
    addLog({ time: new Date().toISOString(), level: "error", source: "baton", message: `Session graph: ${String(error)}`, fields: { toolUseId } });
  }
}
