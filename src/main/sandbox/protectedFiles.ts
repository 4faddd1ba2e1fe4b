// Files no preset agent may write, even inside its write root (issue 31): what runs code or
// changes the rules when something else reads it later. Git's config and hooks (core.fsmonitor,
// aliases, hooks), submodule URLs, Claude Code's project settings (hooks, permissions) and MCP
// servers, the agent and command definitions it loads, shell start-up files, editors' task files.
// The policy refuses Write, Edit, MultiEdit and NotebookEdit there; the OS sandbox
// (src/main/sandbox/sandboxPlan.ts) keeps Bash from them.

import path from "node:path";

/**
 * Names inside any write root. The sandbox runtime protects most of these itself in the folder it
 * is run for (and finds them in nested repositories too); Claude Code's settings it leaves out.
 * One that does not exist gets a placeholder in the sandbox while a command runs (a command's
 * `git status` shows it), so the list stays short.
 */
export const ProtectedNames: readonly string[] = [
  ".git/config",
  ".git/hooks",
  ".gitmodules",
  ".gitconfig",
  ".claude/settings.json",
  ".claude/settings.local.json",
  ".claude/agents",
  ".claude/commands",
  ".mcp.json",
  ".bashrc",
  ".bash_profile",
  ".profile",
  ".zshrc",
  ".zprofile",
  ".vscode",
  ".idea",
];

/** What a home folder holds that must not change when a write root takes in the home folder itself. */
export const ProtectedInHome: readonly string[] = [".ssh", ".gnupg", ".claude", ".claude.json", ".config", ".local/bin", ".cargo/bin", ".npmrc", ".bash_login", ".zshenv", ".zlogin"];

/** Every protected path for these write roots (absolute): the names in each, the home folder's when a root takes it in, Baton's own files inside them. */
export function protectedPaths(roots: readonly string[], home: string, batonFiles: readonly string[] = []): readonly string[] {
  const inRoots = roots.flatMap((root) => ProtectedNames.map((name) => path.join(root, name)));
  const inHome = roots.some((root) => isAtOrUnder(home, root)) ? ProtectedInHome.map((name) => path.join(home, name)) : [];
  const baton = batonFiles.filter((file) => roots.some((root) => isAtOrUnder(file, root)));
  return [...new Set([...inRoots, ...inHome, ...baton])];
}

/**
 * The protected path a write to `file` (absolute, real) would change, if any. For the editing
 * tools the whole of a `.git` folder counts: no agent edits git's own files by hand.
 */
export function protectedTarget(file: string, roots: readonly string[], home: string, batonFiles: readonly string[] = []): string | undefined {
  const hit = protectedPaths(roots, home, batonFiles).find((p) => isAtOrUnder(file, p));
  if (hit !== undefined) return hit;
  const parts = file.split(path.sep);
  const git = parts.indexOf(".git");
  return git > 0 ? parts.slice(0, git + 1).join(path.sep) : undefined;
}

export function isAtOrUnder(p: string, dir: string): boolean {
  const relative = path.relative(dir, p);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}
