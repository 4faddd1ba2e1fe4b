// "New session": the toolbar's button and the dialog it opens. The dialog asks for the folder the
// session works in (labelled "Working directory"), filled in with the one used last, and offers the
// folders of recent sessions to pick; the desktop app adds its folder picker. A start that fails
// says why in the dialog and keeps what was typed. Without `claude` the button is disabled and says
// what to install.
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { ClaudeInstallCommand } from "../../shared/api.js";
import { api, report } from "../apiClient.js";
import { registerCommands } from "../palette/commands.js";
import { setActiveTab, setSessions, useApp } from "../state/appState.js";
import { VisibleText } from "../util/VisibleText.js";
import { useClaudeMissing } from "./claudeStatus.js";
import { folderName, recentProjects } from "./recentProjects.js";
import "./newSession.css";

const LastCwdKey = "baton.lastCwd";

function lastCwd(): string | undefined {
  try {
    return localStorage.getItem(LastCwdKey) ?? undefined;
  } catch {
    return undefined;
  }
}

function rememberCwd(dir: string): void {
  try {
    localStorage.setItem(LastCwdKey, dir);
  } catch {
    // Storage unavailable: next time the dialog starts from the recent projects instead.
  }
}

/** The desktop app's preload bridge has a folder picker; web mode has none (chooseDirectory answers null). */
function hasFolderPicker(): boolean {
  return (window as { baton?: unknown }).baton !== undefined;
}

export function NewSessionButton() {
  const [open, setOpen] = useState(false);
  const missing = useClaudeMissing();
  // The command palette's "New session…" opens this same dialog (left out while the button is disabled).
  useEffect(() => registerCommands([{ id: "session.new", title: "New session…", group: "Session", enabled: () => !missing, run: () => setOpen(true) }]), [missing]);
  return (
    <>
      <button
        aria-label="New session"
        disabled={missing}
        title={missing ? `Claude Code is not installed: install it (${ClaudeInstallCommand}) and restart Baton to start sessions` : "Start a session in a folder"}
        onClick={() => setOpen(true)}
      >
        + New session
      </button>
      {/* In the body, not in the toolbar: an item the toolbar folds away must not take the dialog with it. */}
      {open ? createPortal(<NewSessionDialog onClose={() => setOpen(false)} />, document.body) : null}
    </>
  );
}

function useRecentProjects(): string[] {
  const sessions = useApp((s) => s.sessions);
  // The Project panel lists sessions when it mounts; a closed panel has not, so ask here.
  useEffect(() => {
    if (sessions.length > 0) return;
    let live = true;
    void api().listSessions().then((r) => {
      if (live && r.ok && r.value.length > 0) setSessions(r.value);
    });
    return () => {
      live = false;
    };
  }, [sessions.length]);
  return recentProjects(sessions);
}

/** The git repository `dir` is in, as main says (checked a moment after typing stops); null: none; undefined: not known yet. */
function useRepositoryOf(dir: string): string | null | undefined {
  const [found, setFound] = useState<{ readonly dir: string; readonly repository: string | null } | undefined>(undefined);
  // Main takes absolute paths only; the start refuses any other.
  const absolute = dir.startsWith("/") || /^[A-Za-z]:[\\/]/.test(dir);
  useEffect(() => {
    if (!absolute) return;
    let live = true;
    const timer = setTimeout(() => {
      void api().repositoryOf(dir).then((r) => {
        if (live) setFound({ dir, repository: r.ok ? r.value : null });
      });
    }, 200);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [dir, absolute]);
  if (!absolute) return null;
  return found?.dir === dir ? found.repository : undefined;
}

function NewSessionDialog({ onClose }: { readonly onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const recent = useRecentProjects();
  const [cwd, setCwd] = useState(() => lastCwd() ?? "");
  const [error, setError] = useState<string | undefined>(undefined);
  const [starting, setStarting] = useState(false);
  const [inWorktree, setInWorktree] = useState(false);
  const [firstPrompt, setFirstPrompt] = useState("");
  const found = useRepositoryOf(cwd.trim());
  const repository = found ?? undefined;
  // Nothing used yet: the most recent project is the likeliest. The list comes while the person
  // may already be in the field, so the suggestion is selected: what they type replaces it
  // instead of joining it into one path. Offered once: a field emptied later stays empty.
  const firstRecent = recent[0];
  const field = useRef<HTMLInputElement>(null);
  const offered = useRef(false);
  const suggested = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (firstRecent === undefined || offered.current) return;
    offered.current = true;
    // What the field holds now, not a render's value: a keystroke may have come since.
    if ((field.current?.value ?? "") !== "") return;
    suggested.current = firstRecent;
    setCwd(firstRecent);
  }, [firstRecent]);
  useLayoutEffect(() => {
    // Selected once, in the render that shows it (an effect run twice selects nothing more).
    if (suggested.current === undefined || cwd !== suggested.current) return;
    suggested.current = undefined;
    if (document.activeElement === field.current) field.current?.select();
  }, [cwd]);

  useEffect(() => {
    const d = dialog.current;
    if (d === null) return;
    // Modal: in the top layer, so the toolbar's paint containment cannot clip it.
    if (!d.open) d.showModal();
    return () => d.close();
  }, []);

  const start = async (): Promise<void> => {
    const dir = cwd.trim();
    if (dir === "" || starting) return;
    setStarting(true);
    const worktree = inWorktree && repository !== undefined;
    const prompt = firstPrompt.trim();
    // In a new worktree, the first prompt (if any) names its branch and is sent once the session runs.
    const r = await api().newSession({ cwd: dir, ...(worktree ? { newWorktree: true } : {}), ...(worktree && prompt !== "" ? { initialPrompt: prompt } : {}) });
    setStarting(false);
    if (!r.ok) {
      setError(r.error.message);
      return;
    }
    rememberCwd(dir);
    setActiveTab(r.value.tabId);
    onClose();
  };
  const browse = async (): Promise<void> => {
    const chosen = await api().chooseDirectory();
    const dir = report("Choose folder", chosen);
    if (dir !== undefined && dir !== null) {
      setCwd(dir);
      setError(undefined);
    }
  };

  return (
    <dialog
      ref={dialog}
      className="new-session"
      aria-labelledby="new-session-title"
      onCancel={(e) => {
        e.preventDefault(); // the effect's cleanup closes it
        onClose();
      }}
      onKeyDown={(e) => {
        // Esc closes the dialog and goes no further: the window's Esc interrupts the running session.
        if (e.key !== "Escape") return;
        e.preventDefault();
        e.stopPropagation();
        onClose();
      }}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void start();
        }}
      >
        <h2 id="new-session-title">New session</h2>
        <label className="ns-field">
          <span>Working directory</span>
          <span className="ns-row">
            <input
              ref={field}
              aria-label="Working directory"
              placeholder="/path/to/project"
              value={cwd}
              autoFocus
              spellCheck={false}
              onChange={(e) => {
                setCwd(e.target.value);
                setError(undefined);
              }}
            />
            {hasFolderPicker() ? (
              <button type="button" onClick={() => void browse()}>
                Browse…
              </button>
            ) : null}
          </span>
        </label>
        <label className="ns-check" title={repository === undefined ? "Only for a folder in a git repository" : `A new branch and folder under ${repository}/.claude/worktrees/`}>
          <input type="checkbox" checked={inWorktree && repository !== undefined} disabled={repository === undefined} onChange={(e) => setInWorktree(e.target.checked)} />
          <span>In a new worktree</span>
          <span className="ns-hint">{repository === undefined ? found === undefined ? "" : "(not a git repository)" : "(its own branch and folder)"}</span>
        </label>
        {inWorktree && repository !== undefined ? (
          <label className="ns-field ns-first-prompt">
            <span>First prompt (optional: names the branch)</span>
            <textarea aria-label="First prompt" rows={3} placeholder="What should this session do?" value={firstPrompt} onChange={(e) => setFirstPrompt(e.target.value)} />
          </label>
        ) : null}
        {error !== undefined ? (
          <div role="alert" className="ns-problem">
            {error}
          </div>
        ) : null}
        {recent.length > 0 ? (
          <section className="ns-recent" aria-label="Recent projects">
            <h3>Recent projects</h3>
            <ul>
              {recent.map((dir) => (
                <li key={dir}>
                  <button
                    type="button"
                    className="ns-project"
                    aria-pressed={dir === cwd.trim()}
                    title={dir}
                    onClick={() => {
                      setCwd(dir);
                      setError(undefined);
                    }}
                    onDoubleClick={() => void start()}
                  >
                    <span className="ns-name">
                      <VisibleText text={folderName(dir)} />
                    </span>
                    <span className="ns-path">
                      <VisibleText text={dir} />
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        <div className="ns-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={cwd.trim() === "" || starting}>
            {starting ? "Starting…" : "Start"}
          </button>
        </div>
      </form>
    </dialog>
  );
}
