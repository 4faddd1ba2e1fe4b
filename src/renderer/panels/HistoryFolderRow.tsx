// The history folder at the top of the Project panel: which folder past sessions are listed from
// and why (switch, setting, $CLAUDE_CONFIG_DIR, default), and a way to change it, which lists the
// new folder's sessions at once. The desktop app offers its folder picker first; web mode (or a
// cancelled picker) asks for a path. Where a change could not take effect (no settings file, or a
// --projects-dir switch that wins for this run) "Change…" is disabled and its tooltip says why.
import { useEffect, useState } from "react";
import type { HistoryFolder, ProjectsDirSource } from "../../shared/api.js";
import { api, report } from "../apiClient.js";
import { useApp } from "../state/appState.js";

const SourceLabels: { readonly [S in ProjectsDirSource]: string } = {
  "command-line": "from --projects-dir",
  setting: "chosen here",
  environment: "from $CLAUDE_CONFIG_DIR",
  default: "default",
};

export function HistoryFolderRow({ onChanged }: { readonly onChanged: () => void }) {
  const sessions = useApp((s) => s.sessions);
  const [info, setInfo] = useState<HistoryFolder | undefined>(undefined);
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState("");
  const [error, setError] = useState<string | undefined>(undefined);

  // Read again whenever the list is (Refresh): the folder may have appeared or gone meanwhile.
  useEffect(() => {
    let live = true;
    void api().getHistoryFolder().then((r) => {
      if (!live) return;
      if (r.ok) setInfo(r.value);
      else if (r.error.code !== "unavailable") report("History folder", r);
    });
    return () => {
      live = false;
    };
  }, [sessions]);

  if (info === undefined) return null;
  const fixed = whyFixed(info);

  const apply = async (dir: string | null): Promise<void> => {
    const r = await api().setHistoryFolder(dir);
    if (!r.ok) {
      setError(r.error.message);
      return;
    }
    setInfo(r.value);
    setError(undefined);
    setEditing(false);
    onChanged();
  };
  const begin = async (): Promise<void> => {
    const chosen = await api().chooseDirectory();
    if (chosen.ok && chosen.value !== null) return apply(chosen.value);
    if (!chosen.ok) report("Choose folder", chosen);
    setText(info.saved ?? info.projectsDir);
    setError(undefined);
    setEditing(true);
  };
  const cancel = (): void => {
    setEditing(false);
    setError(undefined);
  };

  return (
    <section className="history-folder" aria-label="History folder">
      <div className="folder-line">
        {/* Cut at the start when narrow: the folder's own name matters most. */}
        <span className="folder-path" title={info.projectsDir} aria-label="History folder in use">
          <bdi dir="ltr">{info.projectsDir}</bdi>
        </span>
        <span className="dim">{SourceLabels[info.source]}</span>
        {!editing ? (
          <button disabled={fixed !== undefined} title={fixed ?? "List past sessions from another folder"} onClick={() => void begin()}>
            Change…
          </button>
        ) : null}
      </div>
      {editing ? (
        <form
          className="folder-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (text.trim() !== "") void apply(text.trim());
          }}
        >
          <input aria-label="History folder path" placeholder="/path/to/.claude/projects" value={text} autoFocus
            onChange={(e) => setText(e.target.value)} onKeyDown={(e) => e.key === "Escape" && cancel()} />
          <button type="submit" className="primary">Use</button>
          {info.saved !== undefined ? <button type="button" onClick={() => void apply(null)}>Use default</button> : null}
          <button type="button" onClick={cancel}>Cancel</button>
        </form>
      ) : null}
      {error !== undefined ? <div role="alert" className="folder-problem">{error}</div> : null}
      {error === undefined && !info.exists ? (
        <div role="alert" className="folder-problem">This folder does not exist, so no past sessions are listed.</div>
      ) : null}
      {info.source === "command-line" && info.saved !== undefined && info.saved !== info.projectsDir ? (
        <div className="dim">--projects-dir wins over the saved folder ({info.saved}) until Baton starts without it.</div>
      ) : null}
    </section>
  );
}

/** Why "Change…" cannot switch this Baton's folder, or undefined when it can. */
export function whyFixed(info: HistoryFolder): string | undefined {
  if (info.settingsFile === undefined) return "This Baton keeps no settings file, so its history folder is fixed; start it with --projects-dir to list another folder";
  if (info.source === "command-line") return "Baton was started with --projects-dir, which fixes the history folder for this run; start it without the switch to choose here";
  return undefined;
}
