// `baton index` and `baton search`, run as the dispatcher runs them: run(args, io).
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { bufferIO } from "../../src/main/commands/commandIO.js";
import { run as indexRun } from "../../src/main/commands/indexCommand.js";
import { run as searchRun } from "../../src/main/commands/search.js";
import type { SearchHit } from "../../src/main/search/search.js";
import { tempDirs } from "../support/tempDirs.js";

const repoRoot = path.resolve(import.meta.dirname, "../..");
const nested = path.resolve(repoRoot, "../shared/recordings/e-nested-agents/projects");
const present = fs.existsSync(nested);
if (!present) console.warn(`storeCommands: SKIPPED, no recording at ${nested}`);

async function cli(run: typeof indexRun, args: string[]) {
  const io = bufferIO();
  const code = await run(args, io);
  return { code, out: io.out(), err: io.err() };
}

// Each command starts the store worker, which takes a second or more on a busy machine.
describe.skipIf(!present)("baton index / baton search", { timeout: 30_000 }, () => {
  const tempDir = tempDirs("baton-cmd-", "all");
  let tmp: string;
  let where: string[];
  beforeAll(() => {
    tmp = tempDir();
    fs.cpSync(nested, path.join(tmp, "projects"), { recursive: true });
    where = ["--projects-dir", path.join(tmp, "projects"), "--db", path.join(tmp, "cfg", "history.db")];
  });

  it("index builds, then refreshes, and says what it did", async () => {
    const first = await cli(indexRun, where);
    expect(first.code).toBe(0);
    expect(first.out).toContain("3 seen, 0 unchanged, 3 new");
    expect(first.out).toMatch(/sessions: 1 \(1 changed\); search rows: \d+/);
    const again = await cli(indexRun, [...where, "--json"]);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ filesSeen: 3, filesSkipped: 3, bytesRead: 0 });
  });

  it("search prints the best matches with the subagent that said them", async () => {
    const { code, out } = await cli(searchRun, ["inner", "agent", ...where]);
    expect(code).toBe(0);
    expect(out).toMatch(/subagent Inner agent \(a[0-9a-f]+\)/);
    expect(out).toContain("«");
  });

  it("search --json gives hits best first, capped by --limit", async () => {
    const { code, out } = await cli(searchRun, ["agent", "--json", "--limit", "2", ...where]);
    expect(code).toBe(0);
    const hits = JSON.parse(out) as SearchHit[];
    expect(hits).toHaveLength(2);
    expect(hits[0]!.score).toBeLessThanOrEqual(hits[1]!.score);
  });

  it("says so when nothing matches, and rejects bad arguments with usage (exit 2)", async () => {
    expect((await cli(searchRun, ["zzzunmatched", ...where])).out).toContain("No matches");
    for (const args of [[...where], ["x", "--limit", "0", ...where], ["* ()", ...where], ["x", "--bogus"]]) {
      const r = await cli(searchRun, args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err).not.toBe("");
    }
  });

  it("fails clearly when the projects dir does not exist", async () => {
    const r = await cli(indexRun, ["--projects-dir", path.join(tmp, "nope"), "--db", path.join(tmp, "x.db")]);
    expect(r.code).toBe(1);
    expect(r.err).toContain("projects dir not found");
  });
});
