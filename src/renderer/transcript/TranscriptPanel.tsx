// A session's panel in the dock: the conversation, requests without a card, the composer. Each open
// session is its own dock panel (layout/sessionPanels.ts); its tab is layout/PanelTabs.tsx.
import { useApp } from "../state/appState.js";
import { Composer } from "./Composer.js";
import { OrphanPermissions } from "./OrphanPermissions.js";
import { TranscriptList } from "./TranscriptList.js";

export function TranscriptPanel({ tabId }: { readonly tabId: string }) {
  const open = useApp((s) => s.tabs[tabId] !== undefined);
  return (
    <section className="panel transcript-panel" aria-label="Transcript">
      {open ? (
        <>
          <TranscriptList key={tabId} tabId={tabId} />
          <OrphanPermissions tabId={tabId} />
          <Composer key={`c:${tabId}`} tabId={tabId} />
        </>
      ) : null}
    </section>
  );
}

/** Where the sessions go while none is open. */
export function NoSessionPanel() {
  return (
    <section className="panel transcript-panel" aria-label="Transcript">
      <div className="empty">No session open. Start one with “New session”, or open a past one from the Project panel.</div>
    </section>
  );
}
