// The confirm an interrupt asks for when it would stop background agents (actions.ts): it names
// how many. Keyboard: it takes the focus on its Interrupt button, so Enter or Esc (the second Esc of
// "Esc twice") sends the interrupt; Tab reaches Cancel. It closes by itself once no agent is left.
import { useEffect, useRef } from "react";
import { cancelInterrupt, interruptActive } from "../actions.js";
import { useApp } from "../state/appState.js";

export function backgroundAgentsText(n: number): string {
  return n === 1 ? "1 background agent" : `${n} background agents`;
}

export function InterruptConfirm() {
  const confirm = useApp((s) => (s.interruptConfirm !== undefined && s.interruptConfirm.tabId === s.activeTabId ? s.interruptConfirm : undefined));
  const live = useApp((s) => (confirm === undefined ? 0 : (s.tabs[confirm.tabId]?.transcript.meta?.backgroundAgents ?? 0)));
  const button = useRef<HTMLButtonElement>(null);
  const open = confirm !== undefined;
  useEffect(() => {
    if (open) button.current?.focus();
  }, [open]);
  useEffect(() => {
    // Nothing left to stop: the interrupt no longer needs a confirm (the next one goes straight out).
    if (open && live === 0) cancelInterrupt();
  }, [open, live]);
  if (confirm === undefined) return null;
  return (
    <div className="interrupt-confirm" role="alertdialog" aria-label="Confirm interrupt" aria-describedby="interrupt-confirm-text">
      <span id="interrupt-confirm-text">Interrupt will stop {backgroundAgentsText(live)}.</span>
      <button ref={button} className="danger" onClick={interruptActive}>
        Interrupt
      </button>
      <button onClick={cancelInterrupt}>Cancel</button>
    </div>
  );
}
