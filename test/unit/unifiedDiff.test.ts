// A worktree's diff as the Edit cards show theirs: real `git diff` output taken apart into files
// and hunks, with git's quoting of unusual paths undone and hunks ended by their counts.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseUnifiedDiff, unquoteGitPath, type FileDiff } from "../../src/shared/unifiedDiff.js";
import { gitWith } from "../support/git.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-diff-", "all");
let root: string;
let files: FileDiff[];

/** git in the test's repository, quoting unusual paths (its default, which a machine's config may turn off). */
const git = (...args: string[]): string => gitWith(["core.quotePath=true"], root, ...args);

beforeAll(() => {
  root = tempDir();
  git("init", "-q");
  fs.writeFileSync(path.join(root, "f.txt"), "a\n-- separator\nc\n");
  fs.writeFileSync(path.join(root, "sp ace.txt"), "x");
  fs.writeFileSync(path.join(root, "bin.dat"), Buffer.from([0, 1, 2]));
  fs.writeFileSync(path.join(root, "old name.txt"), "one\ntwo\nthree\nfour\nfive\n");
  git("add", ".");
  git("commit", "-q", "-m", "first");
  // A removed line "-- separator" prints as "--- separator": it must stay a line of the hunk.
  fs.writeFileSync(path.join(root, "f.txt"), "a\nc\nd\n");
  fs.writeFileSync(path.join(root, 'é"q.txt'), "new\n");
  fs.writeFileSync(path.join(root, "bin.dat"), Buffer.from([0, 9]));
  fs.rmSync(path.join(root, "sp ace.txt"));
  fs.renameSync(path.join(root, "old name.txt"), path.join(root, "new name.txt"));
  git("add", "-A");
  files = parseUnifiedDiff(git("diff", "--no-color", "-M", "--cached", "HEAD"));
});

const file = (p: string): FileDiff | undefined => files.find((f) => f.path === p);

describe("parseUnifiedDiff", () => {
  it("reads every file git changed, with what happened to it", () => {
    expect(files.map((f) => [f.path, f.change, f.binary]).sort()).toEqual(
      [
        ["bin.dat", "modified", true],
        ["f.txt", "modified", false],
        ["new name.txt", "renamed", false],
        ["sp ace.txt", "deleted", false],
        ['é"q.txt', "added", false],
      ].sort(),
    );
    expect(file("new name.txt")?.oldPath).toBe("old name.txt");
  });

  it("keeps a removed line that looks like a file header inside its hunk", () => {
    expect(file("f.txt")?.hunks).toEqual([{ oldStart: 1, newStart: 1, lines: [" a", "--- separator", " c", "+d"] }]);
  });

  it("keeps the no-newline note with its line, and a new file's lines", () => {
    expect(file("sp ace.txt")?.hunks[0]?.lines).toEqual(["-x", "\\ No newline at end of file"]);
    expect(file('é"q.txt')?.hunks).toEqual([{ oldStart: 0, newStart: 1, lines: ["+new"] }]);
  });

  it("undoes git's C quoting, octal UTF-8 bytes included", () => {
    expect(unquoteGitPath('"a/\\303\\251\\"q\\ttab.txt"')).toBe('a/é"q\ttab.txt');
    expect(unquoteGitPath("plain.txt")).toBe("plain.txt");
  });

  it("reads nothing from text that is not a diff", () => {
    expect(parseUnifiedDiff("")).toEqual([]);
    expect(parseUnifiedDiff("fatal: bad revision\n@@ -1 +1 @@\n-x\n")).toEqual([]);
  });
});
