// What holds preset agents' commands (issue 31), beside the orchestration switch while it is on:
// the OS sandbox (quietly), none at all (an alert naming what to install: their Bash is refused),
// or "policy check only", the person's choice, in the warning colour on every tab.
import { useApp } from "../state/appState.js";
import { VisibleText } from "../util/VisibleText.js";

export function SandboxStatus() {
  const policy = useApp((s) => s.policy);
  if (policy === undefined || !policy.orchestration) return null;
  const { state, message, missing } = policy.sandbox;
  if (state === "os") {
    return (
      <span className="tb-chip sandbox-ok" aria-label="OS sandbox" title={message}>
        OS sandbox
      </span>
    );
  }
  if (state === "policy-only") {
    return (
      <span role="status" className="tb-warning" aria-label="Policy check only" title={message}>
        ⚠ Policy check only: no OS sandbox
      </span>
    );
  }
  return (
    <span role="alert" className="tb-problem" aria-label="No OS sandbox" title={message}>
      ⚠ No OS sandbox{missing.length > 0 ? <>: install {missing.join(", ")}</> : null}; preset agents' Bash is refused (<VisibleText text={message} />)
    </span>
  );
}
