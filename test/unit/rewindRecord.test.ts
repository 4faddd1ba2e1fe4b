// A file rewind's mark outlives the live tab (issue 37): applying a rewind records it in the audit
// trail through the store's worker (the session, the prompt, the files), and a restore of the
// session puts the mark back on the same prompt (auditOverlay.ts feeds the live tab's
// `files_rewound` event after that prompt's line): the latest rewind to a prompt is its mark, as
// live; a prompt the file does not hold marks nothing. Each rewind's notice goes where it happened:
// before the first prompt sent after it, else at the end. An audit trail that is damaged, newer or
// absent costs the lasting mark only: the rewind is applied and marked in its tab, the failure
// reported, the session restored without it.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ClientEvent } from "../../src/shared/events.js";
import type { Block } from "../../src/shared/transcript.js";
import { rewindRecord } from "../../src/main/audit/audit.js";
import { applyRewind } from "../../src/main/core/fileRewind.js";
import { createHistorySource } from "../../src/main/core/historySource.js";
import { renderTranscriptTree } from "../../src/main/hub/transcriptTree.js";
import { restoreFirstScreen } from "../../src/main/history/firstScreen.js";
import { restoreSession } from "../../src/main/history/index.js";
import type { LiveSession } from "../../src/main/core/liveSession.js";
import { createAuditReader, createAuditTrail, type AuditTrail } from "../../src/main/store/auditTrail.js";
import { tempDirs } from "../support/tempDirs.js";
import { failures, plantAuditFile, withStore } from "../support/auditStoreKit.js";

const tempDir = tempDirs("baton-rewind-record-");

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const Files = ["/home/user/code/x/a.txt", "/home/user/code/x/sub/b.txt"];

/** A history folder holding session s1: `count` prompts (uuid 1, 2, 3, …, sent at 10:01, 10:02, …), each answered. */
function projects(dir: string, count = 3): string {
  const projectsDir = path.join(dir, "projects");
  const folder = path.join(projectsDir, "-home-user-code-x");
  fs.mkdirSync(folder, { recursive: true });
  const lines: object[] = [];
  let parent: string | null = null;
  for (let n = 1; n <= count; n++) {
    const base = { sessionId: "s1", cwd: "/home/user/code/x", timestamp: `2026-12-06T10:${String(n).padStart(2, "0")}:00.000Z` };
    lines.push({ ...base, type: "user", message: { role: "user", content: `prompt ${n}` }, uuid: uuid(n), parentUuid: parent });
    const answer = `a${String(n).padStart(7, "0")}-0000-4000-8000-000000000000`;
    lines.push({ ...base, type: "assistant", message: { id: `msg_${n}`, role: "assistant", model: "m", content: [{ type: "text", text: `answer ${n}` }] }, uuid: answer, parentUuid: uuid(n) });
    parent = answer;
  }
  fs.writeFileSync(path.join(folder, "s1.jsonl"), lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  return projectsDir;
}

/** A live tab's session whose CLI answers rewinds as both CLIs do, keeping what the tab was given. */
function fakeLive(sessionId: string, changed: readonly string[]): { session: LiveSession; events: ClientEvent[] } {
  const events: ClientEvent[] = [];
  // Its fourth prompt (9) never reached the file.
  const blocks = [1, 2, 3, 9].map((n) => ({ kind: "user", id: uuid(n), text: `prompt ${n}` }));
  const client = { running: true, rewindFiles: async (_: string, dryRun: boolean) => (dryRun ? { canRewind: true, filesChanged: changed, insertions: 1, deletions: 1 } : { canRewind: true, filesChanged: [], insertions: 0, deletions: 0 }) };
  const session = { client, sessionId, transcript: { blocks }, addEvent: (e: ClientEvent) => events.push(e) };
  return { session: session as unknown as LiveSession, events };
}

async function rewind(trail: AuditTrail | undefined, promptUuid: string, changed: readonly string[] = Files): Promise<ClientEvent[]> {
  const live = fakeLive("s1", changed);
  expect(await applyRewind({ session: live.session, env: {}, cwd: "/home/user/code/x", ...(trail !== undefined ? { audit: trail } : {}) }, promptUuid)).toEqual({ rewound: true, filesChanged: changed.length });
  return live.events;
}

const marks = (blocks: readonly Block[]) => blocks.filter((b) => b.kind === "user").map((b) => [b.text, b.rewound?.files ?? null]);

describe("the rewind's mark in the audit trail", () => {
  it("is recorded through the worker and put back on the same prompt by a restore, the latest rewind to a prompt its mark", async () => {
    const dir = tempDir();
    const projectsDir = projects(dir);
    await withStore(dir, async (store) => {
      const { errors, onError } = failures();
      const trail = createAuditTrail(store, onError);
      const live = await rewind(trail, uuid(3), [Files[0]!]);
      await rewind(trail, uuid(2));
      // A prompt the session's file does not hold (the CLI never wrote its line): recorded, and marks nothing on restore.
      await rewind(trail, uuid(9), [Files[0]!]);
      await trail.flush();
      const marked = live.find((e) => e.kind === "files_rewound");
      const rows = (await store.readAudit("s1")).trail;
      expect(rows.map((r) => (r.kind === "rewind" ? [r.promptUuid, r.files, r.fileCount] : r.kind))).toEqual([
        [uuid(3), [Files[0]], 1],
        [uuid(2), Files, 2],
        [uuid(9), [Files[0]], 1],
      ]);
      // The record's time is the live mark's.
      expect(rows[0]).toMatchObject({ time: marked?.kind === "files_rewound" ? marked.timestamp : "none" });

      const history = createHistorySource({ projectsDir, audit: createAuditReader(store, onError) });
      let restored = (await history.restore("s1")).transcript();
      expect(marks(restored.blocks)).toEqual([
        ["prompt 1", null],
        ["prompt 2", 2],
        ["prompt 3", 1],
      ]);
      expect(restored.blocks.find((b) => b.id === uuid(2))?.rewound).toEqual({ files: 2, at: rows[1]!.time });
      // The answers are as the file says, and the notices the live tab showed follow them (both rewinds came after the last prompt).
      const liveNotice = live.find((e) => e.kind === "notice");
      expect(restored.blocks.filter((b) => b.kind !== "user").map((b) => b.text)).toEqual([
        "answer 1",
        "answer 2",
        "answer 3",
        liveNotice?.kind === "notice" ? liveNotice.text : "none",
        "Files rewound (2 files) to just before the prompt “prompt 2”.",
      ]);
      // `baton export`'s text tree says it under the prompt.
      expect(renderTranscriptTree(restored)).toContain("  » prompt 2\n    (Files rewound to here: 2 files)\n  answer 2");

      // Rewound again to the third prompt: the latest rewind is its mark, as live.
      await rewind(trail, uuid(3));
      await trail.flush();
      restored = (await history.restore("s1")).transcript();
      expect(marks(restored.blocks)).toEqual([
        ["prompt 1", null],
        ["prompt 2", 2],
        ["prompt 3", 2],
      ]);
      expect(errors).toEqual([]);
    });
  });

  it("puts each rewind's notice where it happened: before the first prompt sent after it, else at the end", async () => {
    const dir = tempDir();
    const projectsDir = projects(dir);
    await withStore(dir, async (store) => {
      const { errors, onError } = failures();
      const trail = createAuditTrail(store, onError);
      // Prompts were sent at 10:01, 10:02 and 10:03.
      trail.rewind(rewindRecord("s1", uuid(1), [Files[0]!], "2026-12-06T10:02:30.000Z"));
      trail.rewind(rewindRecord("s1", uuid(2), Files, "2026-12-06T10:02:40.000Z"));
      trail.rewind(rewindRecord("s1", uuid(2), Files, "2026-12-06T10:09:00.000Z"));
      // A rewind to a prompt the file lacks has no mark, and no notice to explain one.
      trail.rewind(rewindRecord("s1", uuid(9), Files, "2026-12-06T10:09:30.000Z"));
      await trail.flush();
      const history = createHistorySource({ projectsDir, audit: createAuditReader(store, onError) });
      const restored = (await history.restore("s1")).transcript();
      expect(restored.blocks.map((b) => (b.kind === "user" ? `» ${b.text}${b.rewound !== undefined ? ` [${b.rewound.files}]` : ""}` : b.text))).toEqual([
        "» prompt 1 [1]",
        "answer 1",
        "» prompt 2 [2]",
        "answer 2",
        "Files rewound (1 file) to just before the prompt “prompt 1”.",
        "Files rewound (2 files) to just before the prompt “prompt 2”.",
        "» prompt 3",
        "answer 3",
        "Files rewound (2 files) to just before the prompt “prompt 2”.",
      ]);
      expect(restored.blocks.filter((b) => b.kind === "notice").map((b) => b.level)).toEqual(["info", "info", "info"]);
      expect(errors).toEqual([]);
    });
  });

  it("a big session's first screen marks the prompts it shows; the full read that follows marks every one and places the notices", async () => {
    const dir = tempDir();
    const projectsDir = projects(dir, 40);
    const file = path.join(projectsDir, "-home-user-code-x", "s1.jsonl");
    await withStore(dir, async (store) => {
      await store.recordRewind(rewindRecord("s1", uuid(3), Files, "2026-12-06T10:03:30.000Z"));
      await store.recordRewind(rewindRecord("s1", uuid(39), [Files[0]!], "2026-12-06T11:00:00.000Z"));
      const audit = await store.readAudit("s1");
      const first = await restoreFirstScreen(file, { audit, minBlocks: 6 });
      expect(first.complete).toBe(false);
      const shown = first.transcript.blocks.filter((b) => b.kind === "user");
      expect(shown.some((b) => b.id === uuid(3))).toBe(false);
      expect(shown.filter((b) => b.rewound !== undefined).map((b) => [b.id, b.rewound?.files])).toEqual([[uuid(39), 1]]);
      const full = (await restoreSession(file, { audit })).transcript;
      expect(full.blocks.filter((b) => b.rewound !== undefined).map((b) => [b.id, b.rewound?.files])).toEqual([
        [uuid(3), 2],
        [uuid(39), 1],
      ]);
      const notices = full.blocks.flatMap((b, i) => (b.kind === "notice" ? [[i, b.text]] : []));
      expect(notices).toEqual([
        [6, "Files rewound (2 files) to just before the prompt “prompt 3”."],
        [full.blocks.length - 1, "Files rewound (1 file) to just before the prompt “prompt 39”."],
      ]);
      expect(full.blocks[7]?.text).toBe("prompt 4");
    });
  });

  it("a damaged audit file is moved aside: the restore goes on without marks, and rewinds are recorded again", async () => {
    const dir = tempDir();
    const projectsDir = projects(dir);
    plantAuditFile(dir, "damaged");
    await withStore(dir, async (store) => {
      expect(store.info.audit.movedAsideTo).not.toBeNull();
      const { errors, onError } = failures();
      const history = createHistorySource({ projectsDir, audit: createAuditReader(store, onError) });
      expect(marks((await history.restore("s1")).transcript().blocks).every(([, files]) => files === null)).toBe(true);
      const trail = createAuditTrail(store, onError);
      await rewind(trail, uuid(1));
      await trail.flush();
      expect(marks((await history.restore("s1")).transcript().blocks)[0]).toEqual(["prompt 1", 2]);
      expect(errors).toEqual([]);
    });
  });

  it("an audit trail that cannot be written or read (a newer Baton's), or no store at all: the rewind is applied and marked in its tab, the failure reported, no lasting mark", async () => {
    const dir = tempDir();
    const projectsDir = projects(dir);
    plantAuditFile(dir, "newer");
    await withStore(dir, async (store) => {
      expect(store.info.audit.error?.code).toBe("newer_schema");
      const { errors, onError } = failures();
      const trail = createAuditTrail(store, onError);
      const live = await rewind(trail, uuid(2));
      await trail.flush();
      expect(live.map((e) => e.kind)).toEqual(["files_rewound", "notice"]);
      const history = createHistorySource({ projectsDir, audit: createAuditReader(store, onError) });
      expect(marks((await history.restore("s1")).transcript().blocks).every(([, files]) => files === null)).toBe(true);
      expect(errors.map((e) => e.slice(0, e.indexOf(":")))).toEqual([`rewind of s1 to ${uuid(2)}`, "audit trail of s1"]);
      expect(errors.every((e) => e.includes("update Baton"))).toBe(true);
    });
    expect((await rewind(undefined, uuid(2))).map((e) => e.kind)).toEqual(["files_rewound", "notice"]);
    const bare = createHistorySource({ projectsDir });
    expect(marks((await bare.restore("s1")).transcript().blocks).every(([, files]) => files === null)).toBe(true);
  });
});
