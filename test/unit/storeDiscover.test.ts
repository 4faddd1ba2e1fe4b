// Finding transcripts between scans: listings are reused while a directory's mtime stands still,
// and read again as soon as it moves, so new sessions and new subagents are never missed.
import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { DirCache, discoverTranscripts } from "../../src/main/search/discover.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-disc-");
let root: string;
let project: string;

beforeEach(() => {
  root = tempDir();
  project = path.join(root, "-home-user-code-x");
  fs.mkdirSync(path.join(project, "s1", "subagents"), { recursive: true });
  fs.writeFileSync(path.join(project, "s1.jsonl"), "{}\n");
  fs.writeFileSync(path.join(project, "s1", "subagents", "agent-a1.jsonl"), "{}\n");
});

const names = (cache: DirCache): string[] => discoverTranscripts(root, cache).map((f) => path.relative(root, f.path)).sort();
/** Sets a directory's mtime to a fixed moment well in the past (as an old, settled folder has). */
const settle = (dir: string, at = new Date(Date.UTC(2025, 0, 1))): void => fs.utimesSync(dir, at, at);
const settleAll = (): void => [root, project, path.join(project, "s1", "subagents")].forEach((d) => settle(d));

describe("DirCache", () => {
  it("a new session and a new subagent show up on the next scan (their folders' mtimes moved)", () => {
    settleAll();
    const cache = new DirCache();
    expect(names(cache)).toEqual(["-home-user-code-x/s1.jsonl", "-home-user-code-x/s1/subagents/agent-a1.jsonl"]);
    fs.writeFileSync(path.join(project, "s2.jsonl"), "{}\n");
    fs.writeFileSync(path.join(project, "s1", "subagents", "agent-a2.jsonl"), "{}\n");
    expect(names(cache)).toEqual([
      "-home-user-code-x/s1.jsonl",
      "-home-user-code-x/s1/subagents/agent-a1.jsonl",
      "-home-user-code-x/s1/subagents/agent-a2.jsonl",
      "-home-user-code-x/s2.jsonl",
    ]);
  });

  it("an unchanged, settled folder is not read again: its listing is reused", () => {
    settleAll();
    const cache = new DirCache();
    names(cache);
    // A file appears but the folder's mtime is put back: only a re-read could see it.
    fs.writeFileSync(path.join(project, "s3.jsonl"), "{}\n");
    settle(project);
    expect(names(cache)).not.toContain("-home-user-code-x/s3.jsonl");
    expect(names(new DirCache())).toContain("-home-user-code-x/s3.jsonl");
  });

  it("a folder changed moments before it was listed is read again, even if its mtime stands still", () => {
    const cache = new DirCache();
    names(cache);
    // Same trick as above, but the folder's mtime is recent: a change in the same clock tick as
    // the listing would look exactly like this, so the listing is not trusted.
    const mtime = fs.statSync(project).mtime;
    fs.writeFileSync(path.join(project, "s3.jsonl"), "{}\n");
    fs.utimesSync(project, mtime, mtime);
    expect(names(cache)).toContain("-home-user-code-x/s3.jsonl");
  });

  it("a folder that disappears lists nothing, and its files are gone from the scan", () => {
    settleAll();
    const cache = new DirCache();
    names(cache);
    fs.rmSync(path.join(project, "s1"), { recursive: true });
    expect(names(cache)).toEqual(["-home-user-code-x/s1.jsonl"]);
  });
});
