// Whether this Baton found `claude` when it started (getClaudeStatus), asked once per window: the
// lookup happens once on the main side too. Undefined until answered, and for a Baton that does
// not say (then nothing is disabled: a failed start still says why in the Console).
import { useSyncExternalStore } from "react";
import type { ClaudeStatus } from "../../shared/api.js";
import { api } from "../apiClient.js";

let status: ClaudeStatus | undefined;
let asked = false;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  if (!asked) {
    asked = true;
    void api().getClaudeStatus().then((r) => {
      if (!r.ok) return;
      status = r.value;
      for (const l of [...listeners]) l();
    });
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useClaudeStatus(): ClaudeStatus | undefined {
  return useSyncExternalStore(subscribe, () => status);
}

/** True once the main side said no `claude` was found. */
export function useClaudeMissing(): boolean {
  return useClaudeStatus()?.found === false;
}
