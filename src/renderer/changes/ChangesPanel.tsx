// The Changes view of the tab in front: every file its agents changed. The dock's "changes" panel.
import { useActiveTab } from "../state/selectors.js";

export function ChangesPanel() {
  const tab = useActiveTab();
  return (
    <section className="changes-panel" aria-label="Changes">
      {tab === undefined ? <div className="dim">No session open.</div> : <div className="dim">No files changed yet.</div>}
    </section>
  );
}
