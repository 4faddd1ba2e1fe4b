// A fork's origin outside the app (issue 37): `baton sessions` names it after the fork's title (and
// in its JSON), and an export of a fork (`baton export --format`, the window's Export dialog) says
// where it was forked from in its head. The CLI's files do not say it; Baton's audit trail does. A
// trail that is missing or unreadable costs the links only, and a listing never writes to it.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bufferIO } from "../../src/main/commands/commandIO.js";
import { run as exportRun } from "../../src/main/commands/export.js";
import { run as sessionsRun } from "../../src/main/commands/sessions.js";
import { createHistorySource } from "../../src/main/core/historySource.js";
import { createAuditReader } from "../../src/main/store/auditTrail.js";
import { failures, plantAuditFile, withStore } from "../support/auditStoreKit.js";
import { fork, forkOfFork, ForkPrompt, forkProjects } from "../support/forkHistory.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-fork-commands-");

async function baton(run: typeof sessionsRun, args: string[]) {
  const io = bufferIO();
  const code = await run(args, io);
  return { code, out: io.out(), err: io.err() };
}

/** A history of s1, f1 and ff with the forks recorded in `<dir>/cfg/audit.sqlite`. */
async function recorded(dir: string): Promise<{ projectsDir: string; db: string }> {
  const projectsDir = forkProjects(dir);
  await withStore(dir, async (store) => {
    await store.recordFork(fork);
    await store.recordFork(forkOfFork);
  });
  return { projectsDir, db: path.join(dir, "cfg", "history.db") };
}

describe("a fork's origin in the commands and exports", { timeout: 60_000 }, () => {
  it("baton sessions names each fork's origin, in the table and in JSON", async () => {
    const { projectsDir, db } = await recorded(tempDir());
    const json = await baton(sessionsRun, ["--projects-dir", projectsDir, "--db", db, "--json"]);
    expect(json.code).toBe(0);
    expect(json.err).toBe("");
    const { sessions } = JSON.parse(json.out) as { sessions: { sessionId: string; forkedFrom?: unknown }[] };
    expect(Object.fromEntries(sessions.map((s) => [s.sessionId, s.forkedFrom ?? null]))).toEqual({
      s1: null,
      f1: { sessionId: "s1", promptUuid: ForkPrompt },
      ff: { sessionId: "f1", promptUuid: forkOfFork.promptUuid },
    });
    const table = await baton(sessionsRun, ["--projects-dir", projectsDir, "--db", path.join(path.dirname(db), "audit.sqlite")]);
    const row = (id: string) => table.out.split("\n").find((line) => line.startsWith(`${id} `)) ?? "";
    expect(row("f1")).toMatch(/prompt of f1 \(fork of s1\)$/);
    expect(row("ff")).toMatch(/prompt of ff \(fork of f1\)$/);
    expect(row("s1")).toMatch(/prompt of s1$/);
  });

  it("an export of a fork says where it was forked from, from the command line and from the window", async () => {
    const dir = tempDir();
    const { projectsDir, db } = await recorded(dir);
    const md = await baton(exportRun, ["f1", "--projects-dir", projectsDir, "--db", db, "--format", "md"]);
    expect(md.code).toBe(0);
    expect(md.out).toContain(`- **Forked from:** \`s1 at prompt ${ForkPrompt}\``);
    const html = await baton(exportRun, ["ff", "--projects-dir", projectsDir, "--db", db, "--format", "html"]);
    expect(html.out).toMatch(new RegExp(`<dt>Forked from</dt><dd><code>f1 at prompt ${forkOfFork.promptUuid}</code></dd>`));
    const tree = await baton(exportRun, ["f1", "--projects-dir", projectsDir, "--db", db]);
    expect(tree.out.split("\n")[0]).toBe(`Forked from s1 at prompt ${ForkPrompt}`);
    const json = await baton(exportRun, ["f1", "--projects-dir", projectsDir, "--db", db, "--json"]);
    expect((JSON.parse(json.out) as { forkedFrom?: unknown }).forkedFrom).toEqual({ sessionId: "s1", promptUuid: ForkPrompt });
    const origin = await baton(exportRun, ["s1", "--projects-dir", projectsDir, "--db", db, "--format", "md"]);
    expect(origin.out).toContain("prompt of s1");
    expect(origin.out).not.toContain("Forked from");

    await withStore(dir, async (store) => {
      const { errors, onError } = failures();
      const history = createHistorySource({ projectsDir, audit: createAuditReader(store, onError) });
      const file = await history.exportSession!("f1", undefined, { format: "md", toolOutputs: true, thinking: true });
      expect(file.text).toContain(`- **Forked from:** \`s1 at prompt ${ForkPrompt}\``);
      expect(errors).toEqual([]);
    });
  });

  it("no audit trail: no links and nothing created; a damaged or newer one: a warning, every session listed, the file untouched", async () => {
    const bare = tempDir();
    const projectsDir = forkProjects(bare);
    const none = await baton(sessionsRun, ["--projects-dir", projectsDir, "--db", path.join(bare, "cfg", "history.db"), "--json"]);
    expect(none.err).toBe("");
    expect((JSON.parse(none.out) as { sessions: { forkedFrom?: unknown }[] }).sessions.filter((s) => s.forkedFrom !== undefined)).toEqual([]);
    expect(fs.existsSync(path.join(bare, "cfg"))).toBe(false);

    for (const kind of ["damaged", "newer"] as const) {
      const dir = tempDir();
      const projects = forkProjects(dir);
      plantAuditFile(dir, kind);
      const auditFile = path.join(dir, "cfg", "audit.sqlite");
      const before = fs.readFileSync(auditFile);
      const listed = await baton(sessionsRun, ["--projects-dir", projects, "--db", path.join(dir, "cfg", "history.db")]);
      expect(listed.code).toBe(0);
      expect(listed.out.split("\n").filter((l) => /^(s1|f1|ff) /.test(l))).toHaveLength(3);
      expect(listed.out).not.toContain("fork of");
      expect(listed.err).toContain(`baton sessions: the forks are not shown: could not read the audit trail ${auditFile}`);
      if (kind === "newer") expect(listed.err).toContain("update Baton");
      expect(fs.readFileSync(auditFile).equals(before)).toBe(true);
      expect(fs.readdirSync(path.dirname(auditFile))).toEqual(["audit.sqlite"]);
    }
  });
});
