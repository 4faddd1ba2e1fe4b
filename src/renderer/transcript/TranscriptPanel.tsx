// The centre panel: session tabs, the conversation, requests without a card, the composer.
import { api, report } from "../apiClient.js";
import { setActiveTab, useApp } from "../state/appState.js";
import { commandTitle } from "../../shared/commandEcho.js";
import { statusText } from "../panels/Toolbar.js";
import { Composer } from "./Composer.js";
import { OrphanPermissions } from "./OrphanPermissions.js";
import { TranscriptList } from "./TranscriptList.js";
import { VisibleText, visibleString } from "../util/VisibleText.js";

function SessionTabs() {
  const order = useApp((s) => s.tabOrder);
  const active = useApp((s) => s.activeTabId);
  return (
    <div className="session-tabs" role="tablist" aria-label="Sessions">
      {order.map((id) => (
        <SessionTab key={id} tabId={id} active={id === active} />
      ))}
    </div>
  );
}

function SessionTab({ tabId, active }: { tabId: string; active: boolean }) {
  const title = commandTitle(useApp((s) => s.tabs[tabId]?.transcript.meta?.title ?? s.tabs[tabId]?.info.title ?? "Session"));
  const status = useApp((s) => s.tabs[tabId]?.transcript.meta?.status ?? "idle");
  const restored = useApp((s) => s.restored[tabId] === true && s.tabs[tabId]?.info.live !== true);
  const waiting = useApp((s) => (s.tabs[tabId]?.transcript.pending.length ?? 0) > 0);
  const background = useApp((s) => s.tabs[tabId]?.transcript.meta?.backgroundAgents ?? 0);
  const said = waiting ? "waiting for you" : statusText(status, background);
  return (
    <div className={`session-tab ${active ? "active" : ""}`}>
      <button role="tab" aria-selected={active} onClick={() => setActiveTab(tabId)} title={visibleString(title)}>
        <span className={`dot ${waiting ? "waiting" : status}`} role="img" aria-label={said} title={said} data-status={waiting ? "waiting" : status} />
        <VisibleText text={title} />
        {restored ? <span className="dim"> (history)</span> : null}
      </button>
      <button className="close" aria-label={`Close ${title}`} onClick={() => void api().closeTab(tabId).then((r) => report("Close tab", r))}>
        ×
      </button>
    </div>
  );
}

export function TranscriptPanel() {
  const tabId = useApp((s) => s.activeTabId);
  return (
    <section className="panel transcript-panel" aria-label="Transcript">
      <SessionTabs />
      {tabId === undefined ? (
        <div className="empty">No session open. Start one with “New session”, or open a past one from the Project panel.</div>
      ) : (
        <>
          <TranscriptList key={tabId} tabId={tabId} />
          <OrphanPermissions tabId={tabId} />
          <Composer key={`c:${tabId}`} tabId={tabId} />
        </>
      )}
    </section>
  );
}
