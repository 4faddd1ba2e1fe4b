// The name of a session's own worktree (issue 37): its folder `<repo>/.claude/worktrees/<name>`
// and its branch `worktree-<name>`, as the CLI names the ones `--worktree <name>` makes. Pure: the
// name is made only of [a-z0-9-], so nothing a prompt holds reaches git or a path as typed.

/** Longest name: a folder and a branch a person can still read on a tab. */
export const MaxWorktreeNameLength = 40;

/** The prefix of a session worktree's branch, as the CLI's `--worktree` gives it. */
export const SessionBranchPrefix = "worktree-";

/**
 * A slug of `text` (a first prompt): lower case letters and digits joined by single dashes, cut at
 * a dash to MaxWorktreeNameLength. Empty when nothing usable is left. A name the CLI would take
 * for an agent's worktree (`agent-<id>`) is prefixed so the Worktrees view does not.
 */
export function worktreeSlug(text: string): string {
  const words = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");
  let slug = "";
  for (const word of words) {
    const next = slug === "" ? word : `${slug}-${word}`;
    if (next.length > MaxWorktreeNameLength) {
      if (slug === "") slug = word.slice(0, MaxWorktreeNameLength);
      break;
    }
    slug = next;
  }
  return /^agent-[0-9a-z]+$/.test(slug) ? `session-${slug}`.slice(0, MaxWorktreeNameLength) : slug;
}

/**
 * A name for a new session worktree: the slug of `hint` (else `session-<shortId>`), made unique
 * against `taken` (existing worktree folder names and branch names, either form) with `-2`, `-3`, ….
 */
export function sessionWorktreeName(hint: string | undefined, shortId: string, taken: ReadonlySet<string>): string {
  const fallback = `session-${worktreeSlug(shortId) || "new"}`.slice(0, MaxWorktreeNameLength);
  const base = (hint === undefined ? "" : worktreeSlug(hint)) || fallback;
  const used = (name: string): boolean => taken.has(name) || taken.has(`${SessionBranchPrefix}${name}`);
  if (!used(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const name = `${base.slice(0, MaxWorktreeNameLength - suffix.length).replace(/-+$/, "")}${suffix}`;
    if (!used(name)) return name;
  }
}
