// Session controls and the running session's numbers.
import { api, report } from "../apiClient.js";
import { interruptActive } from "../actions.js";
import { OverflowToolbar } from "../layout/OverflowToolbar.js";
import { ViewMenu } from "../layout/ViewMenu.js";
import { NeedsYouButton } from "../needsYou/NeedsYou.js";
import { backgroundAgentsText, InterruptConfirm } from "./InterruptConfirm.js";
import { OrchestrationToggle } from "./OrchestrationToggle.js";
import { NewSessionButton } from "../session/NewSessionDialog.js";
import { useApp } from "../state/appState.js";
import { ThemeSwitch } from "../theme/ThemeSwitch.js";
import { useActiveTab } from "../state/selectors.js";
import { ExportButton } from "../export/ExportDialog.js";
import { SessionFigures } from "./SessionFigures.js";
import { PlanMeter } from "./PlanMeter.js";
import { visibleString } from "../util/VisibleText.js";

const Modes = ["default", "acceptEdits", "plan", "bypassPermissions"] as const;

/** The words of the status pill: a running session is "working", and says what works in the background. */
export function statusText(status: string | undefined, backgroundAgents: number): string {
  if (status === undefined) return "no session";
  if (status !== "running") return status;
  return backgroundAgents > 0 ? `working · ${backgroundAgentsText(backgroundAgents)}` : "working";
}

export function Toolbar() {
  const tab = useActiveTab();
  const meta = tab?.transcript.meta;
  const tabId = tab?.info.tabId;
  // "running" also while background agents of the session live after its turn's result.
  const running = meta?.status === "running";
  const waiting = (tab?.transcript.pending.length ?? 0) > 0;
  const background = meta?.backgroundAgents ?? 0;
  const interrupting = useApp((s) => tabId !== undefined && s.interrupting[tabId] === true);
  const models = tab?.sessionInfo?.models ?? [];
  const restored = useApp((s) => tabId !== undefined && s.restored[tabId] === true && s.tabs[tabId]?.info.live !== true);
  return (
    // One line always: what does not fit goes into "…" (OverflowToolbar); the name and View stay.
    <OverflowToolbar label="Session controls" pinned={2}>
      <span className="brand">Baton</span>
      <ViewMenu />
      <NeedsYouButton />
      <NewSessionButton />
      <ExportButton />
      <label className="tb-field">
        Model
        <select
          aria-label="Model"
          disabled={tabId === undefined || restored}
          value={meta?.model ?? ""}
          onChange={(e) => tabId !== undefined && void api().setModel(tabId, e.target.value).then((r) => report("Set model", r))}
        >
          {meta?.model !== undefined && !models.some((m) => m.value === meta.model) ? <option value={meta.model}>{visibleString(meta.model)}</option> : null}
          {models.length === 0 && meta?.model === undefined ? <option value="">–</option> : null}
          {models.map((m) => (
            <option key={m.value} value={m.value}>{visibleString(m.displayName)}</option>
          ))}
        </select>
      </label>
      <label className="tb-field">
        Mode
        <select
          aria-label="Permission mode"
          disabled={tabId === undefined || restored}
          value={meta?.permissionMode ?? "default"}
          onChange={(e) => tabId !== undefined && void api().setPermissionMode(tabId, e.target.value).then((r) => report("Set mode", r))}
        >
          {[...new Set([...Modes, meta?.permissionMode ?? "default"])].map((m) => (
            <option key={m} value={m}>{visibleString(m)}</option>
          ))}
        </select>
      </label>
      <span className="interrupt-slot">
        <button
          className={running ? "danger" : ""}
          disabled={!running || interrupting}
          onClick={interruptActive}
          title={background > 0 ? `Interrupt (Esc): also stops ${backgroundAgentsText(background)}` : "Interrupt (Esc)"}
        >
          {interrupting ? "■ Interrupting…" : "■ Interrupt"}
        </button>
        <InterruptConfirm />
      </span>
      <OrchestrationToggle />
      <ThemeSwitch />
      <span className="spacer" />
      <span className={`status-pill ${waiting ? "waiting" : (meta?.status ?? "idle")}`} aria-label="Session status">
        {waiting ? "waiting for you" : statusText(meta?.status, background)}
      </span>
      <PlanMeter />
      {/* A restored session's cost and tokens are unknown, not $0.00: history keeps no turn results. */}
      <SessionFigures tab={tab} />
    </OverflowToolbar>
  );
}
