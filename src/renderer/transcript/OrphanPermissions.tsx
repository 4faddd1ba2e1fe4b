// Requests whose card is not on screen yet (a tool_use not yet streamed, an agent with no card):
// shown above the composer so the session never waits unseen.
import { useApp } from "../store/appStore.js";
import { recordOfAgent, usePending } from "../store/selectors.js";
import type { TranscriptStore } from "../../shared/delta/index.js";
import type { PendingPermission } from "../../shared/api.js";
import { PermissionPrompt } from "./PermissionPrompt.js";

export function hasHome(store: TranscriptStore, p: PendingPermission): boolean {
  if (p.agentId === undefined) {
    const top = store.children.get("") ?? [];
    return top.includes(p.toolUseId);
  }
  return recordOfAgent(store, p.agentId) !== undefined;
}

export function OrphanPermissions({ tabId }: { tabId: string }) {
  const pending = usePending(tabId);
  const orphans = useApp((s) => {
    const store = s.tabs[tabId]?.transcript;
    if (store === undefined || pending.length === 0) return "";
    return pending.filter((p) => !hasHome(store, p)).map((p) => p.requestId).join(",");
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
