// Orchestration mode through the real CLI (issue 22): the presets reach the CLI as custom agents,
// a preset subagent's system prompt is its preset's and its prompt carries its environment, and
// Baton's policy engine, answering the PreToolUse hook for every call of every agent, refuses what
// a preset may not do (npm, a compound line hiding npm, a write outside the write root, a spawn of
// a coordinator) and lets through what it may, without a prompt, while a person's ask rule still
// puts the call in front of them on the right card. Every decision lands in the audit trail and
// reads back through `baton audit`. The same holds in bypassPermissions mode.

import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Block, Transcript } from "../../src/shared/transcript.js";
import { createAppCore, type AppCore } from "../../src/main/app/createAppCore.js";
import { run as auditRun } from "../../src/main/commands/audit.js";
import { createCliEnv, type CliEnv } from "../support/cliEnv.js";
import { watchTab, type TabWatch } from "../support/tabWatch.js";
import { startModelServer, type ModelServer, type ScriptTurn } from "../support/modelServer.js";
import { agentCall, bashCall, text } from "../support/scenarios/types.js";
import { git } from "../support/git.js";
import { value } from "../support/apiValue.js";

const WaitMs = 90_000;

/** The Agent card of the preset subagent `type` at the top of the transcript. */
function card(t: Transcript, type: string): Block {
  const found = t.blocks.find((b) => b.call?.subagent?.subagentType === type);
  if (found === undefined) throw new Error(`no ${type} card`);
  return found;
}

function steps(agent: Block, name: string): Block[] {
  return (agent.call?.subagent?.blocks ?? []).filter((b) => b.call?.name === name);
}

/** The script: the conductor spawns a coder, an analyst and a coordinator, in the foreground, then runs a Bash of its own. */
function script(outside: string, done: string): Record<string, ScriptTurn[]> {
  const fg = { run_in_background: false };
  return {
    main: [
      { blocks: [agentCall("Build the feature", "[[CODER]] implement it", { subagent_type: "coder", ...fg })] },
      { blocks: [agentCall("Read the history", "[[ANALYST]] what changed?", { subagent_type: "analyst", ...fg })] },
      { blocks: [agentCall("Lead the work", "[[COORD]] split it", { subagent_type: "coordinator", ...fg })] },
      { blocks: [text(done)] },
    ],
    CODER: [
      { blocks: [bashCall("npm install left-pad", "Install a package")] },
      { blocks: [bashCall("go version && npm i left-pad", "Check go, then install")] },
      { blocks: [{ type: "tool_use", name: "Write", input: { file_path: outside, content: "escaped" } }] },
      { blocks: [bashCall("ls", "List the folder")] },
      { blocks: [text("Coder went on after the denials.")] },
    ],
    ANALYST: [{ blocks: [bashCall("git log --oneline", "Read the history")] }, { blocks: [text("Analyst read the log.")] }],
    COORD: [
      { blocks: [agentCall("Another lead", "[[NEVER]] lead", { subagent_type: "coordinator", ...fg })] },
      { blocks: [text("Coordinator was refused a coordinator.")] },
    ],
    NEVER: [{ blocks: [text("This coordinator must never run.")] }],
  };
}

describe.each(["default", "bypassPermissions"] as const)("orchestration mode through the real CLI, %s mode", (permissionMode) => {
  let model: ModelServer;
  let env: CliEnv;
  let core: AppCore;
  let dbPath: string;
  let outside: string;
  let release: () => void;
  let tabId: string;
  let tab: TabWatch;
  let finished: Transcript;
  const done = `Conducted in ${permissionMode}.`;

  beforeAll(async () => {
    env = await createCliEnv({ baseUrl: "http://127.0.0.1:1", cwdName: "policy-enforcement" });
    outside = path.join(env.home, "outside-the-root.txt");
    model = await startModelServer(script(outside, done));
    env.env["ANTHROPIC_BASE_URL"] = model.url;
    git(env.cwd, "init", "-q");
    git(env.cwd, "commit", "-q", "--allow-empty", "-m", "First commit of the project");
    fs.writeFileSync(path.join(env.cwd, "MEMORY.md"), "# Plan\n> Task: ship the rate limiter\n\n## Context\nThe limiter lives in pkg/limit.\n\n## Commands\ngo test ./...\n");
    const settingsFile = path.join(env.home, ".config", "baton", "settings.json");
    dbPath = path.join(env.home, ".config", "baton", "index.sqlite");
    core = await createAppCore({ claudePath: env.claudePath, env: env.env, settingsFile, dbPath, projectsDir: env.projectsDir, orchestration: true, clientDefaults: { stopTimeouts: { closeStdinMs: 3000, sigtermMs: 3000 } } });
    // The person's own rule: listing the folder asks them first, even where the preset allows it.
    const added = await core.policy.rules!.add({ behavior: "ask", rule: "Bash(ls:*)", scope: "project", scopeKey: env.cwd, origin: "test" });
    expect(added.ok).toBe(true);
    release = core.manager.acquirePresence();
    tabId = value(await core.service.newSession({ cwd: env.cwd, permissionMode })).tabId;
    tab = watchTab(core.service, tabId, WaitMs);
    value(await core.service.sendPrompt(tabId, "conduct the work"));
    // The person's rule put the coder's `ls` in front of them: allow it once.
    const asked = await tab.waitFor("the coder's ls in front of the person", () => tab.pending().find((p) => p.toolName === "Bash"));
    value(await core.service.answerPermission(tabId, asked.requestId, { behavior: "allow", updatedInput: asked.input }));
    finished = await tab.idleWith(done);
  }, 180_000);

  afterAll(async () => {
    release?.();
    await core?.close();
    await model?.close();
    await env?.cleanup();
  });

  it("sends the presets as custom agents and the conductor's guidance; a preset subagent runs on its preset's prompt, with its environment", () => {
    const agents = core.manager.getSessionInfo(tabId).agents;
    expect(agents).toEqual(expect.arrayContaining(["scout", "analyst", "coder", "worker", "coordinator"]));
    const mainRequest = model.requests.find((r) => r.agent === "main" && r.kind === "agent");
    expect(JSON.stringify(mainRequest?.body["system"])).toContain("You are the conductor, not the performer");
    const coderRequest = model.requests.find((r) => r.agent === "CODER");
    expect(JSON.stringify(coderRequest?.body["system"])).toContain("You are a coder subagent");
    const firstMessage = JSON.stringify((coderRequest?.body["messages"] as unknown[])[0]);
    expect(firstMessage).toContain("<baton-environment>");
    expect(firstMessage).toContain("ship the rate limiter");
    expect(firstMessage).toContain("The limiter lives in pkg/limit.");
    // The card shows the prompt the subagent got, environment included.
    expect(card(finished, "coder").call?.subagent?.prompt).toContain("Task (from MEMORY.md): ship the rate limiter");
  });

  it("refuses the coder's npm, the compound line that hides npm, and the write outside the root, each with the preset's message; the coder goes on", () => {
    const coder = card(finished, "coder");
    expect(coder.call?.subagent?.status).toBe("completed");
    expect(coder.call?.subagent?.summaryMarkdown).toContain("Coder went on after the denials.");
    const [npm, compound] = steps(coder, "Bash");
    expect(npm?.call).toMatchObject({ status: "denied", permission: { state: "denied", decidedBy: "policy:preset:coder/exec" } });
    expect(npm?.call?.result?.text).toContain("coder may not run `npm install left-pad`");
    expect(compound?.call).toMatchObject({ status: "denied", permission: { decidedBy: "policy:preset:coder/exec" } });
    expect(compound?.call?.result?.text).toContain("`npm i left-pad`");
    const [write] = steps(coder, "Write");
    expect(write?.call).toMatchObject({ status: "denied", permission: { decidedBy: "policy:preset:coder/write" } });
    expect(write?.call?.result?.text).toContain("is outside");
    expect(fs.existsSync(outside)).toBe(false);
    // The coder's permission history holds each refusal with its rule.
    const history = coder.call?.subagent?.permissionHistory ?? [];
    expect(history.filter((h) => h.state === "denied").map((h) => [h.toolName, h.decidedBy])).toEqual([
      ["Bash", "policy:preset:coder/exec"],
      ["Bash", "policy:preset:coder/exec"],
      ["Write", "policy:preset:coder/write"],
    ]);
  });

  it("puts the call the person's rule asks about on the coder's card, and runs it once allowed", () => {
    const coder = card(finished, "coder");
    const asked = tab.seen.filter((p) => p.toolName === "Bash");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ agentId: coder.call?.subagent?.taskId, input: { command: "ls" } });
    const ls = steps(coder, "Bash").find((b) => b.call?.input["command"] === "ls");
    expect(ls?.call?.status).toBe("completed");
    expect(ls?.call?.result?.text).toContain("MEMORY.md");
  });

  it("lets the analyst read the git history without asking, and refuses the coordinator a coordinator", () => {
    const analyst = card(finished, "analyst");
    const [log] = steps(analyst, "Bash");
    expect(log?.call?.status).toBe("completed");
    expect(log?.call?.result?.text).toContain("First commit of the project");
    expect(log?.call?.permission).toMatchObject({ state: "allowed", decidedBy: "policy:preset:analyst" });
    expect(tab.seen.filter((p) => p.toolUseId === log?.call?.toolUseId)).toEqual([]);
    const coordinator = card(finished, "coordinator");
    const [spawn] = steps(coordinator, "Agent");
    expect(spawn?.call).toMatchObject({ status: "denied", permission: { decidedBy: "policy:preset:coordinator/spawn" } });
    expect(spawn?.call?.subagent).toBeUndefined();
    expect(model.requests.some((r) => r.agent === "NEVER")).toBe(false);
  });

  it("reopens from history as it looked live: the policy's refusals and permissions on the same cards", async () => {
    value(await core.service.closeTab(tabId));
    const restored = value(await core.service.openSession(finished.sessionId));
    const shown = watchTab(core.service, restored.tabId, WaitMs);
    const t = await shown.waitFor("the restored conductor's last words", () => (shown.transcript().blocks.some((b) => b.kind === "text" && b.text?.includes(done)) ? shown.transcript() : undefined));
    for (const type of ["coder", "analyst", "coordinator"]) {
      const agent = card(t, type);
      if ((agent.call?.subagent?.blocks.length ?? 0) === 0) value(await core.service.loadSubagentBlocks(restored.tabId, agent.call!.toolUseId));
    }
    const loaded = await shown.waitFor("the restored cards' steps", () => {
      const now = shown.transcript();
      return ["coder", "analyst", "coordinator"].every((type) => (card(now, type).call?.subagent?.blocks.length ?? 0) > 0) ? now : undefined;
    });
    const permissions = (type: string, name: string) => steps(card(loaded, type), name).map((b) => [b.call?.status, b.call?.permission?.decidedBy]);
    const live = (type: string, name: string) => steps(card(finished, type), name).map((b) => [b.call?.status, b.call?.permission?.decidedBy]);
    for (const [type, name] of [["coder", "Bash"], ["coder", "Write"], ["analyst", "Bash"], ["coordinator", "Agent"]] as const) {
      expect(permissions(type, name), `${type} ${name}`).toEqual(live(type, name));
    }
    shown.stop();
  });

  it("records every decision, and `baton audit` reads them back in order with their rules", async () => {
    const sessionId = finished.sessionId;
    await core.close(); // flushes the trail
    const out: string[] = [];
    const err: string[] = [];
    const code = await auditRun([sessionId, "--db", dbPath, "--json"], { stdout: (s) => out.push(s), stderr: (s) => err.push(s) });
    expect(err.join("")).toBe("");
    expect(code).toBe(0);
    const rows = (JSON.parse(out.join("")) as { kind: string; agentType?: string; preset?: string; toolName?: string; decision?: string; rule?: string }[]).filter((r) => r.kind === "decision");
    const decided = rows.map((r) => [r.preset ?? r.agentType ?? "main", r.toolName, r.decision, r.rule]);
    expect(decided).toEqual(
      expect.arrayContaining([
        ["coder", "Bash", "deny", "preset:coder/exec"],
        ["coder", "Write", "deny", "preset:coder/write"],
        ["coder", "Bash", "ask", "rule:ask Bash(ls:*) (project)"],
        ["analyst", "Bash", "allow", "preset:analyst"],
        ["coordinator", "Agent", "deny", "preset:coordinator/spawn"],
      ]),
    );
    expect(decided.filter(([who, tool, decision]) => who === "coder" && tool === "Bash" && decision === "deny")).toHaveLength(2);
    // The person's answer to the ask, after it.
    const askAt = decided.findIndex(([, , d, rule]) => d === "ask" && String(rule).startsWith("rule:ask"));
    expect(decided.slice(askAt + 1).some(([, tool, d, rule]) => tool === "Bash" && d === "allow" && rule === "person")).toBe(true);
  });
});
