// Orchestration mode's switch in the toolbar (issue 22): presets and their sandboxes for the
// sessions started from now on (a running session keeps the policy it started with). A broken
// presets file is said beside it: the built-ins are in force until it is fixed or reset.
import { useState } from "react";
import { api, report } from "../apiClient.js";
import { useApp } from "../state/appState.js";
import { ConfigFileAlerts } from "./ConfigFileAlerts.js";
import { SandboxStatus } from "./SandboxStatus.js";
import { VisibleText } from "../util/VisibleText.js";

export function OrchestrationToggle() {
  const policy = useApp((s) => s.policy);
  const [busy, setBusy] = useState(false);
  if (policy === undefined) return null;
  const toggle = async (on: boolean): Promise<void> => {
    setBusy(true);
    report("Orchestration mode", await api().setOrchestration(on));
    setBusy(false);
  };
  return (
    <span className="tb-field orchestration">
      <label title="Presets and their sandboxes for the sessions started from now on; running sessions keep theirs">
        <input type="checkbox" aria-label="Orchestration" checked={policy.orchestration} disabled={busy} onChange={(e) => void toggle(e.target.checked)} />
        Orchestration {policy.orchestration ? "on" : "off"}
      </label>
      {policy.presetsProblem !== undefined ? (
        <span role="alert" className="tb-problem" aria-label="Presets problem" title={policy.presetsProblem}>
          ⚠ presets file not used (built-ins in force): <VisibleText text={policy.presetsProblem} />
        </span>
      ) : null}
      <SandboxStatus />
      <ConfigFileAlerts />
    </span>
  );
}
