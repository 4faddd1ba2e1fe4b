// Requests whose card is not on screen yet (a tool_use not yet streamed, an agent with no card):
// shown above the composer so the session never waits unseen.
import { useApp } from "../state/appState.js";
import { recordOfAgent, usePending } from "../state/selectors.js";
import type { TranscriptState } from "../../shared/delta/index.js";
import type { PendingPermission } from "../../shared/api.js";
import { PermissionPrompt } from "./PermissionPrompt.js";

export function hasHome(transcript: TranscriptState, p: PendingPermission): boolean {
  if (p.agentId === undefined) {
    const top = transcript.children.get("") ?? [];
    return top.includes(p.toolUseId);
  }
  return recordOfAgent(transcript, p.agentId) !== undefined;
}

export function OrphanPermissions({ tabId }: { tabId: string }) {
  const pending = usePending(tabId);
  const orphans = useApp((s) => {
    const transcript = s.tabs[tabId]?.transcript;
    if (transcript === undefined || pending.length === 0) return "";
    return pending.filter((p) => !hasHome(transcript, p)).map((p) => p.requestId).join(",");
  });
  if (orphans === "") return null;
  const ids = new Set(orphans.split(","));
  return (
    <div className="orphans">
      {pending.filter((p) => ids.has(p.requestId)).map((p) => (
        <PermissionPrompt key={p.requestId} tabId={tabId} request={p} />
      ))}
    </div>
  );
}
