// A worktree's uncommitted files with their `git status` codes, as the row and the rescue dialog list them.
import type { WorktreeChange } from "../../shared/worktrees.js";
import { VisibleText } from "../util/VisibleText.js";

export function ChangedFiles({ files, label, className }: { files: readonly WorktreeChange[]; label: string; className?: string }) {
  return (
    <ul className={className} aria-label={label}>
      {files.map((f) => (
        <li key={f.path}>
          <code>{f.code}</code> <VisibleText text={f.path} />
        </li>
      ))}
    </ul>
  );
}
