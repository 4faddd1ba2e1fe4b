// `baton search` finds every word grep would (issue 33), in real CLI history (both CLIs'
// deep-nesting recordings) with words planted where it used to miss them: the end of a 3 MB Bash
// output in the depth-2 sidechain, a custom title, thinking, inside CJK runs, a project folder's
// name. The main file is also copied into a second project folder: two sessions of one id, whose
// hits never mix, and which `baton export` tells apart by folder or path.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { bufferIO } from "../../src/main/commands/commandIO.js";
import { run as exportRun } from "../../src/main/commands/export.js";
import { run as searchRun } from "../../src/main/commands/search.js";
import type { SearchHit } from "../../src/main/search/search.js";
import { DeepOutputBytes, Planted, plantHistory, type PlantedHistory, type RecordedCli } from "../support/plantedHistory.js";
import { tempDirs } from "../support/tempDirs.js";

async function baton(run: typeof searchRun, args: string[]) {
  const io = bufferIO();
  const code = await run(args, io);
  return { code, out: io.out(), err: io.err() };
}

// Each command starts the store worker, which takes a second or more on a busy machine.
describe.each<RecordedCli>(["2.1.197", "2.1.332"])("baton search over real CLI %s history", { timeout: 60_000 }, (cli) => {
  const tempDir = tempDirs(`baton-everything-${cli}-`, "all");
  let h: PlantedHistory;
  let where: string[];
  beforeAll(() => {
    const tmp = tempDir();
    h = plantHistory(path.join(tmp, "projects"), cli);
    where = ["--projects-dir", h.projectsDir, "--db", path.join(tmp, "cfg", "history.db")];
  });

  const search = async (query: string): Promise<SearchHit[]> => {
    const r = await baton(searchRun, [query, "--json", "--limit", "100", ...where]);
    expect(r.code, r.err).toBe(0);
    return JSON.parse(r.out) as SearchHit[];
  };
  /** Which session (project folder) and file each hit names. */
  const places = (hits: readonly SearchHit[]) => hits.map((x) => [x.project, path.relative(h.projectsDir, x.file)]).sort();
  const bothMainFiles = () => places([{ project: h.project, file: h.mainFile }, { project: h.copyProject, file: h.copyFile }] as SearchHit[]);

  it("the last word of a 3 MB output in the depth-2 sidechain, shown in its context", async () => {
    expect(fs.statSync(h.depth2File).size).toBeGreaterThan(2 * DeepOutputBytes);
    const hits = await search(Planted.deepOutput);
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ kind: "tool_output", project: h.project, file: h.depth2File, sessionId: h.sessionId, subagent: { agentId: h.depth2AgentId, description: "Middle agent" } });
    expect(hits[0]!.snippet).toContain(`test_checkout_flow: «${Planted.deepOutput}» mismatch`);
    // A word in every line of the output is one hit, not one per piece of it.
    expect((await search("test_case_3")).filter((x) => x.file === h.depth2File)).toHaveLength(1);
  });

  it("a custom title, each copy's its own, and thinking in both", async () => {
    expect(await search(Planted.title)).toMatchObject([{ kind: "title", project: h.project, sessionTitle: "Quillwort migration plan", snippet: "«Quillwort» migration plan" }]);
    expect(await search(Planted.copyTitle)).toMatchObject([{ kind: "title", project: h.copyProject, sessionTitle: "Bramblecopy rehearsal" }]);
    const thought = await search(Planted.thinking);
    expect(thought.map((x) => x.kind)).toEqual(["thinking", "thinking"]);
    expect(places(thought)).toEqual(bothMainFiles());
  });

  it("two sessions of one id in two project folders: their hits never mix", async () => {
    const hits = await search(Planted.shared);
    expect(hits).toHaveLength(2);
    const byProject = Object.fromEntries(hits.map((x) => [x.project, x]));
    expect(byProject[h.project]).toMatchObject({ sessionId: h.sessionId, file: h.mainFile, cwd: "/home/user/code/deep-nesting", sessionTitle: "Quillwort migration plan" });
    expect(byProject[h.copyProject]).toMatchObject({ sessionId: h.sessionId, file: h.copyFile, cwd: "/home/user/code/deep-nesting-copy", sessionTitle: "Bramblecopy rehearsal" });
    // The sidechains are the original's alone.
    const deep = await search("Deepest agent reported back");
    expect(deep.length).toBeGreaterThan(0);
    for (const x of deep.filter((hit) => hit.subagent !== null)) expect(x.project).toBe(h.project);
  });

  it("any two or more characters of Chinese, Japanese or Korean text, one character anywhere, and Latin words beside them", async () => {
    for (const q of ["分析", "這個專案", "專案的結構", "pnpm", "安装", "安装依赖", "移行", "ベース", "データベース", "분석", "데이터베이스를", "析", "構"]) {
      const hits = await search(q);
      expect(places(hits), q).toEqual(bothMainFiles());
    }
    expect((await search("分析"))[0]!.snippet).toContain("請先«分析»這個專案");
    expect((await search("構"))[0]!.snippet).toContain("結«構»");
    // Characters of the text that are not next to each other there are no match.
    expect(await search("分這")).toEqual([]);
    expect(await search("pnpm安")).toHaveLength(2);
  });

  it("the project folder's name, after every other kind of hit", async () => {
    expect(await search("deep nesting copy")).toMatchObject([{ kind: "project", project: h.copyProject, snippet: "-home-user-code-«deep»-«nesting»-«copy»" }]);
    expect(await search('"deep nesting copy"')).toMatchObject([{ kind: "project", project: h.copyProject, snippet: "-home-user-code-«deep-nesting-copy»" }]);
    // "nesting" is said elsewhere too (2.1.332 records its cwd in outputs): those hits come first.
    const kinds = (await search("nesting")).map((x) => [x.kind, x.project] as const);
    const first = kinds.findIndex(([kind]) => kind === "project");
    expect(kinds.slice(first).map(([kind, project]) => `${kind} ${project}`).sort()).toEqual([`project ${h.copyProject}`, `project ${h.project}`].sort());
  });

  it("baton export: an id in two folders is refused naming both; --project or a path picks one", async () => {
    const ambiguous = await baton(exportRun, [h.sessionId, "--projects-dir", h.projectsDir, "--db", where[3]!]);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.err).toContain("is in 2 project folders");
    expect(ambiguous.err).toContain(h.mainFile);
    expect(ambiguous.err).toContain(h.copyFile);
    const cwdOf = async (args: string[]): Promise<string | undefined> => {
      const r = await baton(exportRun, [...args, "--json", "--projects-dir", h.projectsDir, "--db", where[3]!]);
      expect(r.code, r.err).toBe(0);
      return (JSON.parse(r.out) as { transcript: { cwd?: string } }).transcript.cwd;
    };
    expect(await cwdOf([h.sessionId, `--project=${h.copyProject}`])).toBe("/home/user/code/deep-nesting-copy");
    expect(await cwdOf([h.sessionId, `--project=${h.project}`])).toBe("/home/user/code/deep-nesting");
    expect(await cwdOf([h.copyFile])).toBe("/home/user/code/deep-nesting-copy");
    const bad = await baton(exportRun, [h.sessionId, "--project", "../elsewhere", "--projects-dir", h.projectsDir]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("is not a project folder's name");
    expect((await baton(exportRun, [h.copyFile, `--project=${h.project}`])).code).toBe(2);
  });
});
