// One tool call. Permission requests of the main agent appear on the card of the call that asked.
import { memo } from "react";
import type { Block } from "../../shared/transcript.js";
import { select } from "../state/appState.js";
import { useAgentName, usePendingForTool } from "../state/selectors.js";
import { mcpName, toolIcon, toolSummary } from "../util/format.js";
import { PermissionBadge, PermissionPrompt } from "./PermissionPrompt.js";
import { VisibleText } from "../util/VisibleText.js";
import { ToolBody } from "./toolBodies.js";
import { useSelected } from "./useSelected.js";

/** Tools whose pending prompt already shows their input (the form replaces the body). */
const Interactive = new Set(["AskUserQuestion", "ExitPlanMode"]);

export const ToolCard = memo(function ToolCard({ tabId, block, nested }: { tabId: string; block: Block; nested: boolean }) {
  const call = block.call!;
  const pending = usePendingForTool(tabId, nested ? "" : call.toolUseId);
  const selected = useSelected(tabId, block.id);
  const mcp = mcpName(call.name);
  const title = mcp !== undefined ? `${mcp.server} › ${mcp.tool}` : call.name;
  const recipient = useAgentName(tabId, call.name === "SendMessage" && typeof call.input["to"] === "string" ? call.input["to"] : "");
  return (
    <article
      className={`card tool ${selected ? "selected" : ""}`}
      aria-label={`Tool ${call.name}`}
      data-status={call.status}
      data-block-id={block.id}
      data-selected={selected}
    >
      <header className="card-head" onClick={() => select(tabId, block.id, false)}>
        <span className={`icon st-${call.status}`} aria-label={call.status}>{toolIcon(call.status)}</span>
        <button className="title-btn" onClick={() => select(tabId, block.id, false)} aria-label={`Inspect ${call.name}`}>
          <span className="tool-name"><VisibleText text={title} /></span>
          <span className="summary"><VisibleText text={toolSummary(call.name, call.input, { agentName: () => recipient })} /></span>
        </button>
        {call.permission !== undefined && pending === undefined ? <PermissionBadge state={call.permission} /> : null}
      </header>
      {pending === undefined || !(Interactive.has(call.name) || pending.requiresUserInteraction === true) ? (
        <div className="card-body">
          <ToolBody call={call} tabId={tabId} />
        </div>
      ) : null}
      {pending !== undefined ? <PermissionPrompt tabId={tabId} request={pending} /> : null}
    </article>
  );
});
