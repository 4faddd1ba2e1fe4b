// The agents of the turns a fork copied (issue 37): neither CLI copies their files, so a fork's tab
// finds each in its origin's folder by the Agent call its meta names, its nested agents too; for a
// fork of a fork, in the session beside it that ran them. An origin gone, or a subagents folder
// linked out of the history folder, gives none.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CopiedAgents, copiedAgentFiles } from "../../src/main/core/copiedAgents.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-copied-agents-");

/** A session file under the project, and its agents' files with the Agent call each meta names. */
function session(project: string, sessionId: string, agents: Record<string, string> = {}): void {
  fs.mkdirSync(project, { recursive: true });
  fs.writeFileSync(path.join(project, `${sessionId}.jsonl`), `${JSON.stringify({ type: "user", sessionId, uuid: `u-${sessionId}`, message: { role: "user", content: "hi" } })}\n`);
  const folder = path.join(project, sessionId, "subagents");
  for (const [agentId, toolUseId] of Object.entries(agents)) {
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, `agent-${agentId}.jsonl`), `${JSON.stringify({ type: "user", isSidechain: true, agentId, message: { role: "user", content: `task of ${agentId}` } })}\n`);
    fs.writeFileSync(path.join(folder, `agent-${agentId}.meta.json`), JSON.stringify({ agentType: "general-purpose", description: agentId, toolUseId }));
  }
}

const agentFile = (project: string, sessionId: string, agentId: string) => path.join(project, sessionId, "subagents", `agent-${agentId}.jsonl`);

describe("a fork's copied agents", () => {
  it("are found in the origin's folder, nested ones too, and for a fork of a fork beside it", async () => {
    const projectsDir = path.join(tempDir(), "projects");
    const project = path.join(projectsDir, "-home-user-code-x");
    session(project, "origin", { a1111111111111111: "toolu_outer", a2222222222222222: "toolu_nested" });
    session(project, "fork1"); // the fork: its CLI copied the calls, not the files
    session(project, "other", { a3333333333333333: "toolu_unrelated" });

    const ofOrigin = await copiedAgentFiles(projectsDir, "origin", new Set(["toolu_outer"]));
    expect(Object.fromEntries(ofOrigin)).toEqual({
      toolu_outer: { path: agentFile(project, "origin", "a1111111111111111"), agentId: "a1111111111111111" },
      toolu_nested: { path: agentFile(project, "origin", "a2222222222222222"), agentId: "a2222222222222222" },
    });
    // A fork of fork1: fork1's folder has none of the copied calls; the session beside it that ran them does, with its nested agent.
    const ofFork = await copiedAgentFiles(projectsDir, "fork1", new Set(["toolu_outer"]));
    expect(Object.fromEntries(ofFork)).toEqual(Object.fromEntries(ofOrigin));
    // A fork with no copied call finds none.
    expect([...(await copiedAgentFiles(projectsDir, "fork1", new Set()))]).toEqual([]);
  });

  it("for a fork of a fork made in another project folder (a new worktree), in the folder of the session its origin came from", async () => {
    const projectsDir = path.join(tempDir(), "projects");
    const main = path.join(projectsDir, "-home-user-code-x");
    const worktree = path.join(projectsDir, "-home-user-code-x--claude-worktrees-second");
    session(main, "origin", { a1111111111111111: "toolu_outer", a2222222222222222: "toolu_nested" });
    session(main, "other", { a3333333333333333: "toolu_outer_elsewhere" });
    session(worktree, "fork1"); // forked into a new worktree: its folder has none of the copied calls
    const outer = { toolu_outer: { path: agentFile(main, "origin", "a1111111111111111"), agentId: "a1111111111111111" }, toolu_nested: { path: agentFile(main, "origin", "a2222222222222222"), agentId: "a2222222222222222" } };
    // The trail says fork1 came from origin: looked for there, with the nested agent beside it.
    expect(Object.fromEntries(await copiedAgentFiles(projectsDir, "fork1", new Set(["toolu_outer"]), ["origin"]))).toEqual(outer);
    // Without the record nothing beside fork1 names the calls; an origin gone or not a plain id is passed over.
    expect([...(await copiedAgentFiles(projectsDir, "fork1", new Set(["toolu_outer"])))]).toEqual([]);
    expect(Object.fromEntries(await copiedAgentFiles(projectsDir, "fork1", new Set(["toolu_outer"]), ["gone", "../x", "origin"]))).toEqual(outer);
  });

  it("an origin gone, named by a path, or whose subagents folder leads out of the history folder: none", async () => {
    const dir = tempDir();
    const projectsDir = path.join(dir, "projects");
    const project = path.join(projectsDir, "-home-user-code-x");
    session(project, "origin");
    session(path.join(dir, "elsewhere"), "origin", { a1111111111111111: "toolu_outer" });
    fs.symlinkSync(path.join(dir, "elsewhere", "origin"), path.join(project, "origin"));
    expect([...(await copiedAgentFiles(projectsDir, "origin", new Set(["toolu_outer"])))]).toEqual([]);
    expect([...(await copiedAgentFiles(projectsDir, "gone", new Set(["toolu_outer"])))]).toEqual([]);
    expect([...(await copiedAgentFiles(projectsDir, "../elsewhere/origin", new Set(["toolu_outer"])))]).toEqual([]);
  });

  it("are read once for the tab, a copied Workflow's run too; a card takes only its own agent's file; a failing listener costs nothing later", async () => {
    const projectsDir = path.join(tempDir(), "projects");
    const project = path.join(projectsDir, "-home-user-code-x");
    session(project, "origin", { a1111111111111111: "toolu_outer" });
    const run = path.join(project, "origin", "subagents", "workflows", "wf_1");
    fs.mkdirSync(run, { recursive: true });
    let calls = 0;
    const warnings: string[] = [];
    const copied = new CopiedAgents({
      projectsDir,
      origin: "origin",
      onFound: () => {
        throw new Error("the window went away");
      },
      warn: (message) => void warnings.push(message),
    });
    const runs = new Map([["toolu_wf", "wf_1"], ["toolu_wf_gone", "wf_2"]]);
    const read = () => copied.read(() => (calls++, { calls: new Set(["toolu_outer"]), runs }));
    await Promise.all([read(), read()]);
    await read();
    expect(calls).toBe(1); // three reads asked, the folders read once
    expect(copied.size).toBe(2);
    expect([copied.runOf("toolu_wf"), copied.runOf("toolu_wf_gone")]).toEqual([run, undefined]);
    expect(copied.fileOf("toolu_outer", "")).toBe(agentFile(project, "origin", "a1111111111111111"));
    expect(copied.fileOf("toolu_outer", "a1111111111111111")).toBe(agentFile(project, "origin", "a1111111111111111"));
    expect(copied.fileOf("toolu_outer", "a9999999999999999")).toBeUndefined();
    expect(warnings).toEqual(["could not read the subagent files of the session this one was forked from"]);

    // A fork of a fork with no recorded origins: the run is in the session beside its origin that ran it.
    session(project, "fork1");
    const ofFork = new CopiedAgents({ projectsDir, origin: "fork1", onFound: () => undefined, warn: (message) => void warnings.push(message) });
    await ofFork.read(() => ({ calls: new Set(), runs }));
    expect([ofFork.runOf("toolu_wf"), ofFork.runOf("toolu_wf_gone"), ofFork.size]).toEqual([run, undefined, 1]);
  });
});
