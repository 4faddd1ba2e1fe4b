// The Changes view of the tab in front: every file its agents changed, at every depth, in the
// order of their first change, each with who changed it and, opened, the diff of every change.
// A change's heading selects its tool call in the transcript. While shown, it loads the steps of
// agents the window does not hold yet (useAllSteps.ts). The dock's "changes" panel.
import { useEffect, useMemo, useRef, useState } from "react";
import { changeDiff } from "../../shared/diff/changeDiff.js";
import { isApplied, type FileChange } from "../../shared/diff/fileChanges.js";
import { relativeInside } from "../../shared/posixPath.js";
import { showPanel } from "../layout/panels.js";
import { select, useApp } from "../state/appState.js";
import { DiffView } from "../transcript/diff/DiffView.js";
import { useTabChanges } from "../transcript/diff/tabChanges.js";
import { VisibleText } from "../util/VisibleText.js";
import { useAllSteps } from "./useAllSteps.js";
import "./changes.css";

interface ChangedFile {
  readonly path: string;
  readonly changes: readonly FileChange[];
}

export function ChangesPanel() {
  const tabId = useApp((s) => s.activeTabId);
  const cwd = useApp((s) => (s.activeTabId === undefined ? undefined : s.tabs[s.activeTabId]?.transcript.meta?.cwd));
  const root = useRef<HTMLElement>(null);
  const shown = useShown(root);
  const loading = useAllSteps(tabId, shown);
  const changes = useTabChanges(tabId);
  const files = useMemo(() => byFile(changes?.list ?? []), [changes]);
  return (
    <section className="changes-panel" aria-label="Changes" ref={root}>
      {tabId === undefined ? (
        <div className="changes-empty">No session open.</div>
      ) : (
        <>
          <div className="changes-head" role="status">
            {files.length === 0 ? "No files changed yet." : `${files.length} ${files.length === 1 ? "file" : "files"} changed`}
            {loading.pending > 0 ? <span className="dim"> · reading subagents' steps…</span> : null}
            {loading.failed > 0 ? <span className="error"> · {loading.failed} subagents' steps could not be read (see Console)</span> : null}
          </div>
          {/* Keyed by tab: which files are open belongs to the session. */}
          <FileList key={tabId} tabId={tabId} files={files} cwd={cwd} />
        </>
      )}
    </section>
  );
}

function FileList({ tabId, files, cwd }: { tabId: string; files: readonly ChangedFile[]; cwd: string | undefined }) {
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = (path: string): void =>
    setOpen((s) => {
      const next = new Set(s);
      if (!next.delete(path)) next.add(path);
      return next;
    });
  return (
    <ul className="changes-files" aria-label="Changed files">
      {files.map((f) => {
        const expanded = open.has(f.path);
        const shown = displayPath(f.path, cwd);
        return (
          <li key={f.path} className="changes-file" data-path={shown}>
            <button className="changes-file-row" aria-expanded={expanded} onClick={() => toggle(f.path)} title={f.path}>
              <span className="changes-caret" aria-hidden="true">{expanded ? "▾" : "▸"}</span>
              <span className="changes-path"><VisibleText text={shown} /></span>
              <span className="chip">{f.changes.length === 1 ? "1 change" : `${f.changes.length} changes`}</span>
              <span className="changes-who"><VisibleText text={whoChanged(f.changes)} /></span>
            </button>
            {expanded ? (
              <ol className="changes-list" aria-label={`Changes to ${shown}`}>
                {f.changes.map((c) => (
                  <li key={c.call.toolUseId} className="changes-entry">
                    <ChangeEntry tabId={tabId} change={c} />
                  </li>
                ))}
              </ol>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

function ChangeEntry({ tabId, change }: { tabId: string; change: FileChange }) {
  const who = agentLabel(change);
  const waiting = !isApplied(change);
  const show = (): void => {
    select(tabId, change.blockId, true);
    showPanel("transcript");
  };
  return (
    <>
      <button className="changes-entry-head" onClick={show} title="Show this call in the transcript">
        <span className="tool-name">{change.call.name}</span>
        <span className="changes-by">
          by <VisibleText text={who} />
          {change.agents.length > 0 ? <span className="chip"><VisibleText text={change.agents[change.agents.length - 1]!.subagentType} /></span> : null}
        </span>
        {waiting ? <span className="chip">not made yet</span> : null}
      </button>
      <DiffView view={changeDiff(change)} label={`Diff of ${change.call.name} by ${who}`} />
    </>
  );
}

/** The changes grouped by file, files in the order of their first change. Refused and failed calls changed nothing. */
function byFile(list: readonly FileChange[]): ChangedFile[] {
  const files = new Map<string, FileChange[]>();
  for (const change of list) {
    if (!isApplied(change) && change.call.status !== "pending" && change.call.status !== "running") continue;
    let changes = files.get(change.path);
    if (changes === undefined) files.set(change.path, (changes = []));
    changes.push(change);
  }
  return [...files].map(([path, changes]) => ({ path, changes }));
}

/** "main agent", or the agents' descriptions from the outermost: "Refactor › Fix tests". */
function agentLabel(change: FileChange): string {
  return change.agents.length === 0 ? "main agent" : change.agents.map((a) => a.description || a.subagentType).join(" › ");
}

function whoChanged(changes: readonly FileChange[]): string {
  return [...new Set(changes.map(agentLabel))].join(", ");
}

/** The path inside the session's folder as a relative path, any other as it is. */
function displayPath(path: string, cwd: string | undefined): string {
  const inside = cwd === undefined ? undefined : relativeInside(cwd, path);
  return inside === undefined || inside === "" ? path : inside;
}

/**
 * Whether the element is on screen: a dock keeps a hidden panel mounted and takes its content out
 * of the page, which leaves it no size. Nothing is loaded for a view nobody sees.
 */
function useShown(ref: React.RefObject<HTMLElement | null>): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (el === null) return;
    const measure = (): void => setShown(el.isConnected && el.getClientRects().length > 0);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return shown;
}
