// `baton export --format md|html` (issue 34) over real CLI history of both CLIs (the deep-nesting
// recording: main → Top → Middle → Deepest agent, with a 3 MB output planted two agents deep, a
// custom title and thinking): every subagent's section at its depth, the choices honoured, the
// home folder as ~, the same title `baton sessions` and `baton search` show; --output never writes
// over a file; bad options are refused.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bufferIO } from "../../src/main/commands/commandIO.js";
import { run as exportRun } from "../../src/main/commands/export.js";
import { run as searchRun } from "../../src/main/commands/search.js";
import { run as sessionsRun } from "../../src/main/commands/sessions.js";
import { Planted, plantHistory, type PlantedHistory, type RecordedCli } from "../support/plantedHistory.js";
import { tempDirs } from "../support/tempDirs.js";

async function baton(run: typeof exportRun, args: string[]) {
  const io = bufferIO();
  const code = await run(args, io);
  return { code, out: io.out(), err: io.err() };
}

// The recordings ran in /home/user/code/deep-nesting: that is the home folder an export writes as ~.
const home = process.env["HOME"];
beforeAll(() => {
  process.env["HOME"] = "/home/user";
});
afterAll(() => {
  if (home === undefined) delete process.env["HOME"];
  else process.env["HOME"] = home;
});

describe.each<RecordedCli>(["2.1.197", "2.1.332"])("baton export --format over real CLI %s history", { timeout: 60_000 }, (cli) => {
  const tempDir = tempDirs(`baton-export-${cli}-`, "all");
  let h: PlantedHistory;
  let tmp: string;
  let where: string[];
  beforeAll(() => {
    tmp = tempDir();
    h = plantHistory(path.join(tmp, "projects"), cli);
    where = ["--projects-dir", h.projectsDir, "--db", path.join(tmp, "cfg", "history.db")];
  });
  const exported = async (...args: string[]): Promise<string> => {
    const r = await baton(exportRun, [h.mainFile, ...args, ...where]);
    expect(r.code, r.err).toBe(0);
    return r.out;
  };

  it("HTML: one page with a folded section for each agent at its depth, the planted words, and no script", async () => {
    const page = await exported("--format", "html");
    for (const [depth, name] of [[1, "Top agent"], [2, "Middle agent"], [3, "Deepest agent"]] as const) {
      expect(page).toMatch(new RegExp(`<details class="agent depth-${depth}" data-depth="${depth}"><summary>✓ Subagent general-purpose: ${name} \\(completed`));
    }
    expect(page).toContain("<title>Quillwort migration plan</title>");
    expect(page).toContain(`test_checkout_flow: ${Planted.deepOutput} mismatch`);
    expect(page).toContain(Planted.thinking);
    expect(page).toContain("from-depth-three");
    expect(page).not.toMatch(/<script|<img|<link|<iframe|\ssrc=|\shref=/i);
    expect(page).toContain("<code>~/code/deep-nesting</code>");
    expect(page).not.toContain("/home/user/");
  });

  it("Markdown: the same sections nested, and the choices leave out outputs and thinking", async () => {
    const text = await exported("--format", "md", "--no-tool-outputs", "--no-thinking");
    expect(text.startsWith("# Quillwort migration plan\n")).toBe(true);
    const [top, middle, deepest] = ["Top agent", "Middle agent", "Deepest agent"].map((d) => text.indexOf(`<summary>✓ Subagent general-purpose: ${d} (completed`));
    expect(top).toBeGreaterThan(-1);
    expect(top).toBeLessThan(middle!);
    expect(middle).toBeLessThan(deepest!);
    expect(text.match(/^<details>$/gm)).toHaveLength(3);
    expect(text).toContain("echo from-depth-three");
    expect(text).not.toContain(Planted.deepOutput);
    expect(text).not.toContain(Planted.thinking);
    expect(text).toContain("*Left out of this export: tool outputs and thinking.*");
    expect(text).toContain("- **Folder:** `~/code/deep-nesting`");
  });

  it("has the title `baton sessions` and `baton search` give the session", async () => {
    const listed = await baton(sessionsRun, ["--json", "--projects-dir", h.projectsDir]);
    const sessions = (JSON.parse(listed.out) as { sessions: { path: string; title: string }[] }).sessions;
    const title = sessions.find((s) => s.path === h.mainFile)?.title;
    expect(title).toBe("Quillwort migration plan");
    const found = await baton(searchRun, [Planted.deepOutput, "--json", ...where]);
    expect(found.code, found.err).toBe(0);
    expect((JSON.parse(found.out) as { sessionTitle: string }[]).map((x) => x.sessionTitle)).toEqual([title]);
    expect(await exported("--format", "html")).toContain(`<h1>${title}</h1>`);
  });

  it("--output writes the file, and never over one that exists", async () => {
    const out = path.join(tmp, "session.html");
    const first = await baton(exportRun, [h.sessionId, `--project=${h.project}`, "--format", "html", "--output", out, ...where]);
    expect(first.code, first.err).toBe(0);
    const written = fs.readFileSync(out, "utf8");
    expect(written).toContain("Deepest agent");
    fs.writeFileSync(out, "mine");
    const again = await baton(exportRun, [h.mainFile, "--format", "md", "--output", out, ...where]);
    expect(again.code).toBe(1);
    expect(again.err).toContain("it exists already (nothing was written over it)");
    expect(fs.readFileSync(out, "utf8")).toBe("mine");
  });
});

describe("baton export --format refuses what it cannot do", () => {
  it.each([
    [["--format", "pdf"], '--format is md or html, not "pdf"'],
    [["--format", "md", "--json"], "give --json or --format, not both"],
    [["--no-thinking"], "go with --format md|html"],
    [["--output", "x.md"], "go with --format md|html"],
  ])("%j", async (args, message) => {
    const r = await baton(exportRun, ["0a0a0a0a-1111-4222-8333-444444444444", ...args]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
    expect(r.out).toBe("");
  });
});
