// A folded run of plain tool calls. It opens by itself while one of its calls waits for permission.
import { memo } from "react";
import { setExpanded, useApp } from "../state/appState.js";
import { useExpanded } from "../state/selectors.js";
import { TopBlock } from "./TopBlock.js";

export const ToolGroup = memo(function ToolGroup({ tabId, groupKey, ids }: { tabId: string; groupKey: string; ids: readonly string[] }) {
  const open = useExpanded(groupKey);
  const waiting = useApp((s) => s.tabs[tabId]?.transcript.pending.some((p) => ids.includes(p.toolUseId)) ?? false);
  const names = useApp((s) => {
    const seen = new Map<string, number>();
    for (const id of ids) {
      const name = s.tabs[tabId]?.transcript.blocksById.get(id)?.call?.name ?? "?";
      seen.set(name, (seen.get(name) ?? 0) + 1);
    }
    return [...seen].map(([n, c]) => (c > 1 ? `${n} ×${c}` : n)).join(", ");
  });
  const shown = open || waiting;
  return (
    <div className="tool-group" role="group" aria-label={`${ids.length} tool calls`}>
      <button className="group-head" aria-expanded={shown} onClick={() => setExpanded(groupKey, !open)}>
        {shown ? "▾" : "▸"} {ids.length} tool calls <span className="dim">{names}</span>
      </button>
      {shown ? ids.map((id) => <TopBlock key={id} tabId={tabId} id={id} />) : null}
    </div>
  );
});
