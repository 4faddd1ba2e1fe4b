// "Export…": the toolbar's button and the dialog it opens for the tab in front (issue 34). The
// person picks HTML (one self-contained file) or Markdown and whether tool outputs and thinking
// go in; the main side writes the file from the session's history (exportSession) and the page
// saves it (saveExport.ts). A failure says why in the dialog and keeps the choices. The choices
// are remembered for the next export.
import { useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { DefaultExportChoices, type ExportChoices, type ExportFormat } from "../../shared/export/exportTypes.js";
import { api } from "../apiClient.js";
import { useApp } from "../state/appState.js";
import { VisibleText } from "../util/VisibleText.js";
import { saveExport } from "./saveExport.js";
import "./export.css";

const ChoicesKey = "baton.exportChoices";

function rememberedChoices(): ExportChoices {
  try {
    const saved = JSON.parse(localStorage.getItem(ChoicesKey) ?? "null") as Partial<ExportChoices> | null;
    return {
      format: saved?.format === "md" ? "md" : DefaultExportChoices.format,
      toolOutputs: typeof saved?.toolOutputs === "boolean" ? saved.toolOutputs : DefaultExportChoices.toolOutputs,
      thinking: typeof saved?.thinking === "boolean" ? saved.thinking : DefaultExportChoices.thinking,
    };
  } catch {
    return DefaultExportChoices;
  }
}

function rememberChoices(choices: ExportChoices): void {
  try {
    localStorage.setItem(ChoicesKey, JSON.stringify(choices));
  } catch {
    // Storage unavailable: the next export starts from the defaults.
  }
}

export function ExportButton() {
  const tabId = useApp((s) => s.activeTabId);
  // A session without an id has written no history yet: there is nothing to export.
  const exportable = useApp((s) => (s.activeTabId !== undefined ? (s.tabs[s.activeTabId]?.info.sessionId ?? "") !== "" : false));
  const [open, setOpen] = useState<string | undefined>(undefined);
  return (
    <>
      <button disabled={!exportable} title={exportable ? "Export this session as HTML or Markdown" : "Open a session to export it"} onClick={() => setOpen(tabId)}>
        Export…
      </button>
      {/* In the body, not in the toolbar: an item the toolbar folds away must not take the dialog with it. */}
      {open !== undefined ? createPortal(<ExportDialog tabId={open} onClose={() => setOpen(undefined)} />, document.body) : null}
    </>
  );
}

export function ExportDialog({ tabId, onClose }: { readonly tabId: string; readonly onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const title = useApp((s) => s.tabs[tabId]?.info.title ?? "Session");
  const [choices, setChoices] = useState<ExportChoices>(rememberedChoices);
  const [error, setError] = useState<string | undefined>(undefined);
  const [working, setWorking] = useState(false);

  useEffect(() => {
    const d = dialog.current;
    if (d === null) return;
    // Modal: in the top layer, so the toolbar's paint containment cannot clip it.
    if (!d.open) d.showModal();
    return () => d.close();
  }, []);

  const choose = (change: Partial<ExportChoices>): void => {
    setChoices((c) => ({ ...c, ...change }));
    setError(undefined);
  };
  const run = async (): Promise<void> => {
    if (working) return;
    setWorking(true);
    const r = await api().exportSession(tabId, choices);
    setWorking(false);
    if (!r.ok) {
      setError(r.error.message);
      return;
    }
    rememberChoices(choices);
    saveExport(r.value);
    onClose();
  };
  const format = (value: ExportFormat, label: string, hint: string) => (
    <label>
      <input type="radio" name="export-format" value={value} checked={choices.format === value} onChange={() => choose({ format: value })} />
      <span>
        {label} <span className="export-hint">{hint}</span>
      </span>
    </label>
  );

  return (
    <dialog
      ref={dialog}
      className="export-session"
      aria-labelledby="export-session-title"
      onCancel={(e) => {
        e.preventDefault(); // the effect's cleanup closes it
        if (!working) onClose();
      }}
      onKeyDown={(e) => {
        // Esc closes the dialog and goes no further: the window's Esc interrupts the running session.
        if (e.key !== "Escape") return;
        e.preventDefault();
        e.stopPropagation();
        if (!working) onClose();
      }}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <h2 id="export-session-title">Export session</h2>
        <p className="export-what">
          <VisibleText text={title} />
        </p>
        <fieldset>
          <legend>Format</legend>
          {format("html", "HTML", "one file, opens in any browser, subagents folded")}
          {format("md", "Markdown", "text, subagents as <details> sections")}
        </fieldset>
        <fieldset>
          <legend>Include</legend>
          <label>
            <input type="checkbox" checked={choices.toolOutputs} onChange={(e) => choose({ toolOutputs: e.target.checked })} />
            Tool outputs
          </label>
          <label>
            <input type="checkbox" checked={choices.thinking} onChange={(e) => choose({ thinking: e.target.checked })} />
            Thinking
          </label>
        </fieldset>
        <p className="export-hint">Every subagent's steps are read from the session's history; your home folder is written as ~.</p>
        {error !== undefined ? (
          <div role="alert" className="export-problem">
            {error}
          </div>
        ) : null}
        <div className="export-actions">
          <button type="button" onClick={onClose} disabled={working}>
            Cancel
          </button>
          <button type="submit" className="primary" autoFocus disabled={working}>
            {working ? "Exporting…" : "Export"}
          </button>
        </div>
      </form>
    </dialog>
  );
}
