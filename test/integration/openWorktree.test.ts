// Opening a worktree in the file manager or a terminal (issue 25) with real git and fake desktop
// programs: shell scripts on a PATH of our own that record their cwd and arguments. Shows what
// ran and where, that $TERMINAL wins, and that anything but a live registered worktree is refused
// before a program starts.
import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { openWorktree } from "../../src/main/worktrees/index.js";
import { refusal } from "../support/worktreeErrors.js";
import { tempDirs } from "../support/tempDirs.js";
import { git } from "../support/git.js";

const tempDir = tempDirs("baton-open-");
let root: string;
let repo: string;
let bin: string;
let record: string;

/** The folder of the git this test runs, so PATH can hold it and only our fakes besides. */
function gitFolder(): string {
  for (const folder of (process.env["PATH"] ?? "").split(path.delimiter)) {
    const file = path.join(folder, "git");
    if (folder !== "" && fs.existsSync(file)) return path.dirname(fs.realpathSync(file));
  }
  throw new Error("git not found on PATH");
}

/** A fake program that appends its name, `pwd -P` and arguments to the record file, then "end". */
function fake(name: string): void {
  const file = path.join(bin, name);
  fs.writeFileSync(
    file,
    `#!/bin/sh\nout="name=${name}\ncwd=$(pwd -P)"\nfor a in "$@"; do out="$out\narg=$a"; done\nprintf '%s\\nend\\n' "$out" >> '${record}'\n`,
  );
  fs.chmodSync(file, 0o755);
}

function env(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: [bin, gitFolder()].join(path.delimiter), ...extra };
}

/** The record's lines once a program has written them; bounded by the test's timeout. */
async function recorded(): Promise<string[]> {
  for (;;) {
    const text = fs.existsSync(record) ? fs.readFileSync(record, "utf8") : "";
    if (text.endsWith("end\n")) return text.split("\n").slice(0, -2);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function addWorktree(name: string): string {
  const where = path.join(root, name);
  git(repo, "worktree", "add", "-q", "-b", name, where, "main");
  return fs.realpathSync(where);
}

beforeEach(() => {
  root = tempDir();
  expect(root).not.toContain("'");
  repo = path.join(root, "repo");
  bin = path.join(root, "bin");
  record = path.join(root, "record.txt");
  fs.mkdirSync(repo);
  fs.mkdirSync(bin);
  git(repo, "init", "-q", "-b", "main");
  fs.writeFileSync(path.join(repo, "a.txt"), "one\n");
  git(repo, "add", "a.txt");
  git(repo, "commit", "-q", "-m", "First commit");
  fake("xdg-open");
  fake("x-terminal-emulator");
  fake("my-terminal");
});

describe.skipIf(process.platform === "win32")("openWorktree", () => {
  it("shows a worktree in the file manager: xdg-open gets its real path", async () => {
    const wt = addWorktree("feature");
    const opened = await openWorktree(repo, wt, "folder", { platform: "linux", env: env() });
    expect(opened).toEqual({ command: path.join(bin, "xdg-open"), args: [wt] });
    expect(await recorded()).toEqual(["name=xdg-open", `cwd=${wt}`, `arg=${wt}`]);
  });

  it("opens a terminal whose cwd is the worktree's real path, through a symlink to it too", async () => {
    const wt = addWorktree("feature");
    const link = path.join(root, "link-to-feature");
    fs.symlinkSync(wt, link);
    const opened = await openWorktree(repo, link, "terminal", { platform: "linux", env: env() });
    expect(opened).toEqual({ command: path.join(bin, "x-terminal-emulator"), args: [] });
    expect(await recorded()).toEqual(["name=x-terminal-emulator", `cwd=${wt}`]);
  });

  it("runs $TERMINAL before the usual terminals", async () => {
    const wt = addWorktree("feature");
    await openWorktree(repo, wt, "terminal", { platform: "linux", env: env({ TERMINAL: "my-terminal" }) });
    expect(await recorded()).toEqual(["name=my-terminal", `cwd=${wt}`]);
  });

  it("refuses a path that is not one of the repository's worktrees, and runs nothing", async () => {
    const parentLink = path.join(root, "parent-link");
    fs.symlinkSync(root, parentLink);
    for (const target of [root, parentLink, path.join(repo, ".."), bin]) {
      for (const where of ["folder", "terminal"] as const) {
        const error = await refusal(openWorktree(repo, target, where, { platform: "linux", env: env() }));
        expect(error.code).toBe("not-a-worktree");
      }
    }
    expect(fs.existsSync(record)).toBe(false);
  });

  it("refuses a worktree whose folder is gone, and runs nothing", async () => {
    const wt = addWorktree("gone");
    fs.rmSync(wt, { recursive: true, force: true });
    const error = await refusal(openWorktree(repo, wt, "terminal", { platform: "linux", env: env() }));
    expect(error.code).toBe("folder-gone");
    expect(fs.existsSync(record)).toBe(false);
  });

  it("fails with open-failed naming what it tried when nothing is on PATH", async () => {
    const wt = addWorktree("feature");
    const empty = path.join(root, "empty-bin");
    fs.mkdirSync(empty);
    const terminal = await refusal(openWorktree(repo, wt, "terminal", { platform: "linux", env: { PATH: empty, TERMINAL: "my-terminal" } }));
    expect(terminal.code).toBe("open-failed");
    expect(terminal.message).toMatch(/my-terminal \(not found on PATH\).*x-terminal-emulator.*gnome-terminal.*xterm/);
    expect(terminal.message).toMatch(/Set TERMINAL/);
    const folder = await refusal(openWorktree(repo, wt, "folder", { platform: "linux", env: { PATH: empty } }));
    expect(folder.code).toBe("open-failed");
    expect(folder.message).toMatch(/file manager.*xdg-open \(not found on PATH\)/);
    expect(fs.existsSync(record)).toBe(false);
  });
});
