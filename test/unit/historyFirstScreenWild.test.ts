// The first screen on every real transcript we have (../shared/wild: CLI 1.0.80 → 2.1.237, damaged
// and old layouts; ../shared/recordings: the scripted CLI runs): whatever the window size, it is the
// tail of the full restore, and a window that covers the file is the full restore itself.

import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EarlierBlocksNoticeId, restoreFirstScreen } from "../../src/main/history/firstScreen.js";
import { restoreSession } from "../../src/main/history/restore.js";
import type { Block } from "../../src/shared/transcript.js";
import { listRecordings, sharedDir } from "../support/recordings.js";
import { tempDirs } from "../support/tempDirs.js";

const wildDir = path.join(sharedDir, "wild");
const haveWild = existsSync(wildDir);
if (!haveWild) console.warn(`[historyFirstScreenWild] wild transcripts skipped: none at ${wildDir}`);

const tempDir = tempDirs("baton-wild-first-", "all");

/** The wild files put back at their original relative paths (`a__b__c.jsonl` → `a/b/c.jsonl`). */
function wildTree(): string[] {
  if (!haveWild) return [];
  const tree = tempDir();
  const files: string[] = [];
  for (const repo of readdirSync(wildDir)) {
    if (repo.endsWith(".md")) continue;
    for (const name of readdirSync(path.join(wildDir, repo))) {
      const to = path.join(tree, repo, ...name.split("__"));
      mkdirSync(path.dirname(to), { recursive: true });
      cpSync(path.join(wildDir, repo, name), to);
      files.push(to);
    }
  }
  return files;
}

function recordingFiles(): string[] {
  return listRecordings().flatMap((r) => {
    const root = path.join(r.dir, "projects");
    if (!existsSync(root)) return [];
    return readdirSync(root).flatMap((p) => readdirSync(path.join(root, p)).filter((f) => f.endsWith(".jsonl")).map((f) => path.join(root, p, f)));
  });
}

const mainFiles = [...wildTree(), ...recordingFiles()].filter((f) => f.endsWith(".jsonl") && !/\/subagents\//.test(f) && !path.basename(f).startsWith("agent-"));

/** Synthetic `notice:N` ids count from the session's start, which a window cannot know. */
const comparable = (blocks: readonly Block[]): unknown[] => blocks.map((b) => (b.kind === "notice" && b.id.startsWith("notice:") ? { ...b, id: "notice" } : b));

/**
 * A hand-trimmed fixture gives every line the same uuid: the full restore drops a repeat of an id
 * it has seen, which a window that starts after the first copy cannot know (a documented limit):
 * there only the size of the window is checked.
 */
function trimmedIds(file: string): boolean {
  return readFileSync(file, "utf8").includes('"uuid":"[trimmed for fixture]"');
}

describe.skipIf(mainFiles.length === 0)("first screen of real transcripts", () => {
  it.each(mainFiles.map((f) => [path.relative(os.tmpdir(), f), f] as const))("%s", async (_name, file) => {
    const full = await restoreSession(file);
    const exact = !trimmedIds(file);
    for (const minBlocks of [1, 3, 10, 1000]) {
      const first = await restoreFirstScreen(file, { minBlocks, chunkBytes: 4096 });
      if (first.complete) {
        expect(first.transcript).toEqual(full.transcript);
        continue;
      }
      const blocks = first.transcript.blocks.filter((b) => b.id !== EarlierBlocksNoticeId);
      expect(blocks.length).toBeGreaterThanOrEqual(minBlocks);
      if (exact) expect(comparable(blocks)).toEqual(comparable(full.transcript.blocks.slice(-blocks.length)));
      expect(first.transcript.title).toBe(full.transcript.title);
    }
  });
});
