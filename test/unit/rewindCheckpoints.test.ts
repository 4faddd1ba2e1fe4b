// A file's content at a prompt from the CLI's checkpoints (core/rewindCheckpoints.ts), on history
// lines shaped as each CLI writes them (docs/protocol-notes.md, "Where the checkpoints are"): the
// prompt's snapshot, 2.1.197's snapshot updates, 2.1.332's delta lines, a file first tracked after
// the prompt. What the history says is untrusted: a backup name that would leave the backups'
// folder, an oversized backup and a prompt whose snapshot is not on disk yet give no content.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { contentsAtPrompt, MaxRewindFileBytes } from "../../src/main/core/rewindCheckpoints.js";
import { tempDirs } from "../support/tempDirs.js";

const newDir = tempDirs("baton-rewind-");
const P1 = "11111111-0000-4000-8000-000000000001";
const P2 = "11111111-0000-4000-8000-000000000002";
const P3 = "11111111-0000-4000-8000-000000000003";

const backup = (backupFileName: string | null, version: number) => ({ backupFileName, version, backupTime: "2026-12-06T10:00:00.000Z" });
const snapshot = (messageId: string, tracked: Record<string, unknown>, isSnapshotUpdate = false) => ({
  type: "file-history-snapshot",
  messageId: isSnapshotUpdate ? "22222222-0000-4000-8000-000000000009" : messageId,
  snapshot: { messageId, trackedFileBackups: tracked, timestamp: "2026-12-06T10:00:00.000Z" },
  isSnapshotUpdate,
});
const delta = (snapshotMessageId: string, trackingPath: string, b: unknown) => ({ type: "file-history-delta", messageId: "33333333-0000-4000-8000-000000000001", snapshotMessageId, trackingPath, backup: b });

function setUp(lines: readonly unknown[], backups: Record<string, string>) {
  const root = newDir();
  const cwd = path.join(root, "code", "x");
  const backupsDir = path.join(root, "file-history", "s1");
  fs.mkdirSync(cwd, { recursive: true });
  fs.mkdirSync(backupsDir, { recursive: true });
  for (const [name, content] of Object.entries(backups)) fs.writeFileSync(path.join(backupsDir, name), content);
  const historyFile = path.join(root, "s1.jsonl");
  fs.writeFileSync(historyFile, [...lines.map((l) => JSON.stringify(l)), '{"type":"user","message":{"content":"not a checkpoint"}}', "{broken"].join("\n") + "\n");
  return { source: { historyFile, backupsDir, cwd }, file: (name: string) => path.join(cwd, name), root };
}

describe("a file's content at a prompt, from the CLI's checkpoints", () => {
  it("2.1.332: the prompt's snapshot, its delta lines, and a file first tracked later as its first backup holds it", async () => {
    const { source, file } = setUp(
      [
        snapshot(P1, {}),
        snapshot(P2, {}),
        delta(P2, "a.txt", backup("aaaaaaaaaaaaaaaa@v1", 1)),
        delta(P2, "sub/b.txt", backup(null, 1)),
        snapshot(P3, { "a.txt": backup("aaaaaaaaaaaaaaaa@v2", 2), "sub/b.txt": backup("bbbbbbbbbbbbbbbb@v2", 2) }),
      ],
      { "aaaaaaaaaaaaaaaa@v1": "one\n", "aaaaaaaaaaaaaaaa@v2": "two\n", "bbbbbbbbbbbbbbbb@v2": "new\n" },
    );
    const at = (prompt: string) => contentsAtPrompt(source, prompt, [file("a.txt"), file("sub/b.txt")]);
    expect(await at(P3)).toEqual(new Map([[file("a.txt"), "two\n"], [file("sub/b.txt"), "new\n"]]));
    expect(await at(P2)).toEqual(new Map([[file("a.txt"), "one\n"], [file("sub/b.txt"), null]]));
    // Neither file was tracked at the first prompt: each as its first backup holds it.
    expect(await at(P1)).toEqual(new Map([[file("a.txt"), "one\n"], [file("sub/b.txt"), null]]));
  });

  it("2.1.197: a prompt's snapshot updates add the files its turn changed", async () => {
    const { source, file } = setUp(
      [snapshot(P1, {}), snapshot(P1, { "a.txt": backup("aaaaaaaaaaaaaaaa@v1", 1) }, true), snapshot(P1, { "a.txt": backup("aaaaaaaaaaaaaaaa@v1", 1), "c.txt": backup(null, 1) }, true)],
      { "aaaaaaaaaaaaaaaa@v1": "before\n" },
    );
    expect(await contentsAtPrompt(source, P1, [file("a.txt"), file("c.txt")])).toEqual(new Map([[file("a.txt"), "before\n"], [file("c.txt"), null]]));
  });

  it("an earlier prompt whose snapshot line is not on disk yet: nothing is guessed", async () => {
    const { source, file } = setUp([snapshot(P1, {}), delta(P1, "a.txt", backup("aaaaaaaaaaaaaaaa@v1", 1))], { "aaaaaaaaaaaaaaaa@v1": "one\n" });
    expect(await contentsAtPrompt(source, P2, [file("a.txt")])).toEqual(new Map());
  });

  it("the latest prompt whose snapshot line is not on disk yet: each file's newest backup, by the hash of its path; none: it did not exist", async () => {
    const { source, file } = setUp([snapshot(P1, {})], {});
    const hashOf = (name: string) => createHash("sha256").update(file(name)).digest("hex").slice(0, 16);
    fs.writeFileSync(path.join(source.backupsDir, `${hashOf("a.txt")}@v1`), "one\n");
    fs.writeFileSync(path.join(source.backupsDir, `${hashOf("a.txt")}@v2`), "two\n");
    fs.writeFileSync(path.join(source.backupsDir, `${hashOf("a.txt")}@v10`), "ten\n");
    fs.writeFileSync(path.join(source.backupsDir, `${hashOf("other.txt")}@v3`), "not a.txt\n");
    expect(await contentsAtPrompt(source, P2, [file("a.txt"), file("new.txt")], true)).toEqual(new Map([[file("a.txt"), "ten\n"], [file("new.txt"), null]]));
  });

  it("a backup name that leaves the backups' folder, a backup too large and a missing backup give no content", async () => {
    const { source, file, root } = setUp(
      [
        snapshot(P1, {
          "a.txt": backup("../../secret@v1", 1),
          "b.txt": backup("/etc/passwd", 1),
          "big.txt": backup("cccccccccccccccc@v1", 1),
          "gone.txt": backup("dddddddddddddddd@v1", 1),
        }),
      ],
      { "cccccccccccccccc@v1": "x".repeat(MaxRewindFileBytes + 1) },
    );
    fs.writeFileSync(path.join(root, "secret@v1"), "secret\n");
    const files = ["a.txt", "b.txt", "big.txt", "gone.txt"].map(file);
    expect(await contentsAtPrompt(source, P1, files)).toEqual(new Map());
  });

  it("no history file: no content, no error", async () => {
    const { source, file } = setUp([], {});
    expect(await contentsAtPrompt({ ...source, historyFile: path.join(source.cwd, "missing.jsonl") }, P1, [file("a.txt")])).toEqual(new Map());
  });
});
