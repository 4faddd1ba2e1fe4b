// `baton sessions` and `baton export` over a copy of recorded history.

import { cpSync, existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { bufferIO } from "../../src/main/commands/commandIO.js";
import { run as exportRun } from "../../src/main/commands/export.js";
import { run as sessionsRun } from "../../src/main/commands/sessions.js";
import { projectFolderName, resolveProjectsDir } from "../../src/main/platform/projectsDir.js";
import type { Transcript } from "../../src/shared/transcript.js";
import { listRecordings, warnIfNoRecordings } from "../support/recordings.js";
import { tempDirs } from "../support/tempDirs.js";

const noRecordings = warnIfNoRecordings("historyCommands");
const tempDir = tempDirs("baton-projects-", "all");
let projects: string;

beforeAll(() => {
  projects = tempDir();
  for (const r of listRecordings()) {
    const src = path.join(r.dir, "projects");
    if (existsSync(src)) cpSync(src, projects, { recursive: true });
  }
});

/** `<project>/<session>.jsonl` of every recorded main file, known before the copy is made. */
function mainFileNames(): string[] {
  return listRecordings().flatMap((r) => {
    const src = path.join(r.dir, "projects");
    if (!existsSync(src)) return [];
    return readdirSync(src).flatMap((p) => readdirSync(path.join(src, p)).filter((f) => f.endsWith(".jsonl")).map((f) => path.join(p, f)));
  });
}

function mainFiles(): string[] {
  return mainFileNames().map((name) => path.join(projects, name));
}

describe("projectsDir", () => {
  it("prefers --projects-dir, then $CLAUDE_CONFIG_DIR/projects, then ~/.claude/projects", () => {
    expect(resolveProjectsDir({ override: "/x/p", env: { CLAUDE_CONFIG_DIR: "/c" } })).toBe("/x/p");
    expect(resolveProjectsDir({ env: { CLAUDE_CONFIG_DIR: "/c" } })).toBe("/c/projects");
    expect(resolveProjectsDir({ env: {}, homeDir: "/home/u" })).toBe("/home/u/.claude/projects");
    expect(projectFolderName("/home/user/x_under.dot space/work")).toBe("-home-user-x-under-dot-space-work");
  });
});

describe.skipIf(noRecordings)("baton sessions", () => {
  it("lists every session newest first, as JSON and as a table", async () => {
    const io = bufferIO();
    expect(await sessionsRun(["--projects-dir", projects, "--json"], io)).toBe(0);
    const { sessions } = JSON.parse(io.out()) as { sessions: { sessionId: string; lastTimestamp?: string; promptCount: number; subagentCount: number; title: string }[] };
    expect(sessions.map((s) => s.sessionId).sort()).toEqual(mainFiles().map((f) => path.basename(f, ".jsonl")).sort());
    const stamps = sessions.map((s) => s.lastTimestamp ?? "");
    expect(stamps).toEqual([...stamps].sort().reverse());
    const nested = sessions.find((s) => s.title === "delegate, and let the delegate delegate");
    if (nested !== undefined) expect(nested).toMatchObject({ promptCount: 1, subagentCount: 2 });
    const table = bufferIO();
    expect(await sessionsRun(["--projects-dir", projects], table)).toBe(0);
    expect(table.out().split("\n")[0]).toMatch(/^SESSION\s+LAST\s+PROMPTS\s+AGENTS\s+SIZE\s+CWD\s+TITLE$/);
    expect(table.out().split("\n").filter((l) => l !== "")).toHaveLength(sessions.length + 1);
  });

  it("says so when there is no history", async () => {
    const io = bufferIO();
    expect(await sessionsRun(["--projects-dir", path.join(projects, "nope")], io)).toBe(0);
    expect(io.out()).toMatch(/^No sessions under /);
  });
});

describe.skipIf(noRecordings)("baton export", () => {
  it.each(mainFileNames().map((f) => [path.basename(f, ".jsonl"), f] as const))("prints session %s by id as JSON and by path as a tree", async (id, name) => {
    const file = path.join(projects, name);
    const io = bufferIO();
    expect(await exportRun([id, "--projects-dir", projects, "--json"], io)).toBe(0);
    const { transcript } = JSON.parse(io.out()) as { transcript: Transcript };
    expect(transcript.sessionId).toBe(id);
    const tree = bufferIO();
    expect(await exportRun([file], tree)).toBe(0);
    expect(tree.out()).toContain(`session ${id}`);
  });

  it("prints a session with every subagent's blocks loaded", async () => {
    const nested = mainFiles().find((f) => f.includes("e-nested-agents"));
    if (nested !== undefined) {
      const io = bufferIO();
      await exportRun([nested, "--json"], io);
      const t = (JSON.parse(io.out()) as { transcript: Transcript }).transcript;
      const outer = t.blocks.find((b) => b.call?.subagent !== undefined)?.call?.subagent;
      const inner = outer?.blocks.find((b) => b.call?.subagent !== undefined)?.call?.subagent;
      expect(inner?.blocks.map((b) => b.call?.name ?? b.kind)).toEqual(["Bash", "text"]);
    }
  });

  it("fails clearly, with exit 2, for a session that does not exist", async () => {
    const io = bufferIO();
    expect(await exportRun(["00000000-0000-4000-8000-000000000000", "--projects-dir", projects], io)).toBe(2);
    expect(io.err()).toMatch(/No session 00000000-0000-4000-8000-000000000000 under /);
    const byPath = bufferIO();
    expect(await exportRun([path.join(projects, "missing.jsonl")], byPath)).toBe(2);
    expect(byPath.err()).toMatch(/No transcript file at /);
    const usage = bufferIO();
    expect(await exportRun([], usage)).toBe(2);
  });
});
