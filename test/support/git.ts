// The tests' own git: a commit needs an identity, and a new repository's first branch is `main`
// whatever the machine's git would name it, so a test reads the same everywhere. None of this
// config runs a program, so a test of what a repository's config may run sees only that config.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** The `-c` options every test's git runs with. */
export const TestGitConfig: readonly string[] = ["user.name=Test", "user.email=t@example.com", "init.defaultBranch=main"].flatMap((c) => ["-c", c]);

/** git `args` in `cwd`; its standard output. Throws (with git's stderr) when git fails. */
export function git(cwd: string, ...args: string[]): string {
  return gitWith([], cwd, ...args);
}

/** `git` with extra `-c` settings (e.g. `core.quotePath=true`), which win over the test's own. */
export function gitWith(config: readonly string[], cwd: string, ...args: string[]): string {
  return execFileSync("git", [...TestGitConfig, ...config.flatMap((c) => ["-c", c]), ...args], { cwd, encoding: "utf8" });
}

/** Writes `text` to `file` under `dir`, making its folders. */
export function writeFileIn(dir: string, file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), text);
}

/** Writes `file` and commits it alone with `message`. */
export function commitFile(dir: string, file: string, text: string, message: string): void {
  writeFileIn(dir, file, text);
  git(dir, "add", "--", file);
  git(dir, "commit", "-q", "-m", message);
}

/** Makes `dir` a repository on `main` with one commit (a README): a worktree needs a commit to start from. Returns its real path. */
export function initRepository(dir: string): string {
  git(dir, "init", "-q", "-b", "main");
  commitFile(dir, "README.md", "# project\n", "First commit");
  return fs.realpathSync(dir);
}
