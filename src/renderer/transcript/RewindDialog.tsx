// "Rewind files to here" (issue 37): the dialog a prompt's action opens. It asks the main side for
// the CLI's dry run first and shows every file that would change with its diff (its content now
// against its content just before the prompt, which a rewind restores); only "Rewind" changes
// files. The CLI's refusal (no checkpoint, checkpointing off) is shown in its own words. Paths and
// contents come from the session's files: drawn through VisibleText and the diff view only.
import { useEffect, useMemo, useRef, useState } from "react";
import { fileCount, type RewindFile, type RewindPreview } from "../../shared/fileRewind.js";
import { computedView, newFileView } from "../../shared/diff/computeDiff.js";
import { api } from "../apiClient.js";
import { useApp } from "../state/appState.js";
import { VisibleText } from "../util/VisibleText.js";
import { DiffView } from "./diff/DiffView.js";
import "./rewindDialog.css";
import { escapeCloses } from "./promptDialog.js";

type Step = { readonly kind: "asking" } | { readonly kind: "preview"; readonly preview: RewindPreview } | { readonly kind: "failed"; readonly message: string };

export interface RewindDialogProps {
  readonly tabId: string;
  readonly promptUuid: string;
  readonly prompt: string;
  readonly onClose: () => void;
}

export function RewindDialog({ tabId, promptUuid, prompt, onClose }: RewindDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cwd = useApp((s) => s.tabs[tabId]?.info.cwd);
  const [step, setStep] = useState<Step>({ kind: "asking" });
  const [applying, setApplying] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);

  useEffect(() => {
    const d = dialog.current;
    if (d !== null && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  useEffect(() => {
    let current = true;
    void api()
      .previewRewind(tabId, promptUuid)
      .then((r) => {
        if (current) setStep(r.ok ? { kind: "preview", preview: r.value } : { kind: "failed", message: r.error.message });
      });
    return () => {
      current = false;
    };
  }, [tabId, promptUuid]);

  const apply = async (): Promise<void> => {
    if (applying) return;
    setApplying(true);
    const r = await api().applyRewind(tabId, promptUuid);
    setApplying(false);
    if (!r.ok) return setProblem(r.error.message);
    if (!r.value.rewound) return setProblem(`Claude Code did not rewind: ${r.value.error ?? "it gave no reason."}`);
    onClose();
  };
  const close = (): void => {
    if (!applying) onClose();
  };
  const files = step.kind === "preview" && step.preview.canRewind ? step.preview.files : [];

  return (
    <dialog
      ref={dialog}
      className="rewind-files"
      aria-labelledby="rewind-files-title"
      {...escapeCloses(close)}
    >
      <h2 id="rewind-files-title">Rewind files to this prompt</h2>
      <p className="rewind-prompt">
        <VisibleText text={prompt} />
      </p>
      <StepBody step={step} cwd={cwd} />
      {problem !== undefined ? (
        <div role="alert" className="rewind-problem">
          <VisibleText text={problem} />
        </div>
      ) : null}
      <div className="rewind-actions">
        <button type="button" onClick={close} disabled={applying}>
          {files.length > 0 ? "Cancel" : "Close"}
        </button>
        {files.length > 0 ? (
          <button type="button" className="primary" onClick={() => void apply()} disabled={applying}>
            {applying ? "Rewinding…" : `Rewind ${fileCount(files.length)}`}
          </button>
        ) : null}
      </div>
    </dialog>
  );
}

function StepBody({ step, cwd }: { readonly step: Step; readonly cwd: string | undefined }) {
  switch (step.kind) {
    case "asking":
      return <p className="rewind-note">Asking Claude Code what a rewind would change…</p>;
    case "failed":
      return (
        <div role="alert" className="rewind-problem">
          <VisibleText text={step.message} />
        </div>
      );
    case "preview": {
      const { preview } = step;
      if (!preview.canRewind) {
        return (
          <div role="alert" className="rewind-problem">
            Claude Code cannot rewind to this prompt: <VisibleText text={preview.error ?? "it gave no reason."} />
          </div>
        );
      }
      if (preview.files.length === 0) return <p className="rewind-note">No file changed since this prompt: there is nothing to rewind.</p>;
      return (
        <>
          <p className="rewind-note">
            These files go back to how they were just before this prompt (+{preview.insertions} −{preview.deletions} lines). The conversation stays as it is.
          </p>
          <ul className="rewind-file-list" aria-label="Files a rewind changes">
            {preview.files.map((file) => (
              <RewindFileView key={file.path} file={file} cwd={cwd} />
            ))}
          </ul>
        </>
      );
    }
  }
}

function RewindFileView({ file, cwd }: { readonly file: RewindFile; readonly cwd: string | undefined }) {
  const name = cwd !== undefined && file.path.startsWith(`${cwd}/`) ? file.path.slice(cwd.length + 1) : file.path;
  const view = useMemo(() => diffOf(file), [file]);
  return (
    <li className="rewind-file" data-path={file.path}>
      <div className="rewind-file-head">
        <span className="rewind-file-name">
          <VisibleText text={name} />
        </span>
        <span className="chip">{whatHappens(file)}</span>
      </div>
      {view !== undefined ? <DiffView view={view} label={`What a rewind changes in ${name}`} /> : <p className="rewind-note">{whyNoDiff(file)}</p>}
    </li>
  );
}

/** The file's change from now to after the rewind. */
function diffOf(file: RewindFile) {
  if (file.current === undefined || file.restored === undefined) return undefined;
  if (file.current === null) return file.restored === null ? undefined : newFileView(file.restored);
  return computedView(file.current, file.restored ?? "");
}

function whatHappens(file: RewindFile): string {
  if (file.restored === null) return "deleted";
  if (file.current === null) return "created again";
  return "restored";
}

function whyNoDiff(file: RewindFile): string {
  if (file.current === undefined) return "Too large or unreadable to show.";
  return "Its content at this prompt is not in Claude Code's checkpoints, so the diff cannot be shown; the rewind restores it all the same.";
}
