// Baton only reads the CLI's projects folder (docs/configuration.md: it never writes into it). Every
// way it reads history (the session list, restoring every session with every subagent opened,
// export, the search index and its re-scan, following a file) must leave the folder exactly as it
// was: the same entries, and every file with the same bytes, size, mode and times.

import { createHash } from "node:crypto";
import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, utimesSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createHistorySource } from "../../src/main/core/historySource.js";
import { bufferIO } from "../../src/main/commands/commandIO.js";
import { run as exportRun } from "../../src/main/commands/export.js";
import { listSessions } from "../../src/main/history/sessionList.js";
import { followJsonl, followTranscript } from "../../src/main/history/tail.js";
import { openStore } from "../../src/main/store/storeClient.js";
import type { ClientEvent } from "../../src/shared/events.js";
import { listRecordings, warnIfNoRecordings } from "../support/recordings.js";
import { placedBlocks } from "../support/transcriptWalk.js";
import { tempDirs } from "../support/tempDirs.js";

const noRecordings = warnIfNoRecordings("historyReadOnly");

/** Long enough ago that any write, at any clock resolution, shows as a newer time. */
const Past = new Date("2020-01-02T03:04:05.000Z");

type Snapshot = Map<string, string>;

/** Every entry under `root` (folders too): its type and mode, and a file's size, times and SHA-256. */
function snapshot(root: string): Snapshot {
  const out: Snapshot = new Map();
  const visit = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const st = lstatSync(full);
      const rel = path.relative(root, full);
      const times = `mtime ${st.mtimeMs} ctime ${st.ctimeMs}`;
      if (st.isDirectory()) {
        out.set(rel, `dir mode ${st.mode.toString(8)} ${times}`);
        visit(full);
      } else {
        const hash = st.isFile() ? createHash("sha256").update(readFileSync(full)).digest("hex") : "-";
        out.set(rel, `${st.isFile() ? "file" : "other"} mode ${st.mode.toString(8)} size ${st.size} ${times} sha256 ${hash}`);
      }
    }
  };
  visit(root);
  return out;
}

/**
 * Writable, so that a write Baton attempted would land (the recordings are read-only on disk), and
 * dated in the past; folders after their contents, whose changes would move the folder's times.
 */
function makeWritableAndOld(dir: string): void {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (lstatSync(full).isDirectory()) makeWritableAndOld(full);
    else {
      chmodSync(full, 0o644);
      utimesSync(full, Past, Past);
    }
  }
  chmodSync(dir, 0o755);
  utimesSync(dir, Past, Past);
}

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).map((rel) => path.join(dir, rel)).filter((f) => lstatSync(f).isFile());
}

describe.skipIf(noRecordings)("Baton never writes into the projects folder", { timeout: 60_000 }, () => {
  const tempDir = tempDirs("baton-readonly-", "all");
  let tmp: string;
  let projects: string;
  let before: Snapshot;
  let mainFiles: string[];
  let sidechainFiles: string[];
  let cardSidechains: string[];

  beforeAll(() => {
    tmp = tempDir();
    projects = path.join(tmp, "projects");
    mkdirSync(projects);
    for (const r of listRecordings()) {
      const from = path.join(r.dir, "projects");
      if (existsSync(from)) cpSync(from, projects, { recursive: true });
    }
    makeWritableAndOld(projects);
    before = snapshot(projects);
    const all = files(projects).filter((f) => f.endsWith(".jsonl"));
    mainFiles = all.filter((f) => path.dirname(path.dirname(f)) === projects && !path.basename(f).startsWith("agent-"));
    sidechainFiles = all.filter((f) => f.includes(`${path.sep}subagents${path.sep}`) && path.basename(f).startsWith("agent-"));
    // The agents a Workflow script ran have no card of their own (the Workflow's card stands for them).
    cardSidechains = sidechainFiles.filter((f) => !f.includes(`${path.sep}subagents${path.sep}workflows${path.sep}`));
  });

  /** Runs one way of reading and checks the folder against its state just before, so a failure names the culprit. */
  async function leavesItAsItWas(activity: () => Promise<void>): Promise<void> {
    const start = snapshot(projects);
    await activity();
    expect(snapshot(projects)).toEqual(start);
  }

  it("copied a tree with sessions, subagents (nested ones too) and their meta files", () => {
    expect(mainFiles.length).toBeGreaterThan(5);
    expect(sidechainFiles.length).toBeGreaterThan(5);
    expect([...before.keys()].some((k) => k.endsWith(".meta.json"))).toBe(true);
    expect(files(projects).some((f) => f.includes("e-nested-agents") || f.includes("nested-subagents"))).toBe(true);
  });

  it("listing the sessions", () =>
    leavesItAsItWas(async () => {
      const listed = await listSessions(projects);
      expect(listed.map((s) => s.path).sort()).toEqual([...mainFiles].sort());
      expect(await createHistorySource({ projectsDir: projects }).listSessions()).toHaveLength(mainFiles.length);
    }));

  it("restoring every session as the app does, opening every subagent card, nested ones too, then following and closing it", () =>
    leavesItAsItWas(async () => {
      const source = createHistorySource({ projectsDir: projects });
      const opened = new Set<string>();
      for (const summary of await source.listSessions()) {
        const restored = await source.restore(summary.sessionId);
        expect((await restored.loaded) ?? {}).toEqual({});
        // Opening a card can reveal the cards inside it: open until none is left to open.
        for (;;) {
          const next = placedBlocks(restored.transcript()).find(
            (p) => p.block.call?.subagent?.sidechainPath !== undefined && !opened.has(`${summary.sessionId} ${p.block.call.toolUseId}`),
          );
          if (next === undefined) break;
          opened.add(`${summary.sessionId} ${next.block.call!.toolUseId}`);
          await restored.loadSubagentBlocks(next.block.call!.toolUseId);
        }
        restored.follow?.(
          () => undefined,
          (error) => expect.fail(String(error)),
        );
        restored.close?.();
      }
      expect(opened.size).toBeGreaterThanOrEqual(cardSidechains.length);
    }));

  it("exporting every session with every subagent's transcript", () =>
    leavesItAsItWas(async () => {
      for (const file of mainFiles) {
        const io = bufferIO();
        expect(await exportRun([path.basename(file, ".jsonl"), "--projects-dir", projects, "--db", path.join(tmp, "export", "history.db"), "--json"], io)).toBe(0);
      }
    }));

  it("building the search index beside it, re-scanning and searching", () =>
    leavesItAsItWas(async () => {
      const store = await openStore({ dbPath: path.join(tmp, "cfg", "history.db") });
      try {
        const first = await store.index(projects);
        expect(first.filesNew).toBe(first.filesSeen);
        expect(first.filesSeen).toBeGreaterThanOrEqual(mainFiles.length + sidechainFiles.length);
        const again = await store.index(projects);
        expect(again.filesSkipped).toBe(again.filesSeen);
        expect((await store.search("agent")).length).toBeGreaterThan(0);
        expect(await store.listSessions()).toHaveLength(mainFiles.length);
      } finally {
        await store.close();
      }
      expect(readdirSync(path.join(tmp, "cfg"))).toContain("history.db");
    }));

  it("following a main transcript and a subagent's from their start, then stopping", () =>
    leavesItAsItWas(async () => {
      const events: ClientEvent[] = [];
      const main = followTranscript(mainFiles[0]!, { offset: 0, pollMs: 10, onEvents: (e) => events.push(...e) });
      let records = 0;
      const side = followJsonl(sidechainFiles[0]!, { pollMs: 10, onRecords: (r) => (records += r.length) });
      try {
        await main.check();
        await side.check();
        expect(events.length).toBeGreaterThan(0);
        expect(records).toBeGreaterThan(0);
      } finally {
        main.stop();
        side.stop();
      }
    }));

  // Last: the whole run, against the tree as it was copied.
  it("after all of them, every entry, byte and time is as copied", () => {
    expect(snapshot(projects)).toEqual(before);
  });
});
