// A worktree's diff against its base in the view the Edit cards use: per file, its path and what
// happened to it, then its hunks. A large diff shows its first lines and says how many are left.
import { useMemo } from "react";
import { parseUnifiedDiff, type DiffHunk, type FileDiff } from "../../shared/unifiedDiff.js";
import { PatchDiff } from "../transcript/diff/DiffView.js";
import { VisibleText } from "../util/VisibleText.js";

/** Lines drawn at most: a worktree can hold a generated file of a million lines. */
const MaxDiffLines = 4000;

export function WorktreeDiff({ text }: { text: string }) {
  // A whole `git diff` can be megabytes: parsed once per diff, not on every render of its row.
  const { shown, hidden } = useMemo(() => withinBudget(parseUnifiedDiff(text)), [text]);
  if (shown.length === 0) return <div className="wt-note">(no changes)</div>;
  return (
    <div className="wt-diff" aria-label="Worktree diff">
      {shown.map(({ file, hunks }) => (
        <div className="wt-diff-file" key={`${file.oldPath ?? ""}>${file.path}`}>
          <div className="path">
            <VisibleText text={file.oldPath !== undefined ? `${file.oldPath} → ${file.path}` : file.path} /> <span className="chip">{changeText(file)}</span>
          </div>
          {file.binary ? <div className="wt-dim">binary file differs</div> : hunks.length > 0 ? <PatchDiff hunks={hunks} /> : null}
        </div>
      ))}
      {hidden > 0 ? <div className="wt-dim">{hidden} more lines not shown (`baton worktrees diff` prints them all)</div> : null}
    </div>
  );
}

/** The files with their first MaxDiffLines lines, and how many lines were left out. */
function withinBudget(files: readonly FileDiff[]): { shown: { file: FileDiff; hunks: DiffHunk[] }[]; hidden: number } {
  let budget = MaxDiffLines;
  let hidden = 0;
  const shown = files.map((f) => {
    const hunks: DiffHunk[] = [];
    for (const h of f.hunks) {
      const lines = h.lines.slice(0, Math.max(0, budget));
      budget -= lines.length;
      hidden += h.lines.length - lines.length;
      if (lines.length > 0) hunks.push({ ...h, lines });
    }
    return { file: f, hunks };
  });
  return { shown, hidden };
}

function changeText(f: FileDiff): string {
  return f.change === "modified" ? "changed" : f.change;
}
