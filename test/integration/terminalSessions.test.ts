// A session running in a terminal, steered from Baton through its hooks (issue 35): the handler
// the local socket calls, called as the socket would, over real CLI histories of both versions
// (the deep-nesting recordings, written by the real CLI against the scripted model server). A
// subagent's request lands on that subagent's card in a tab opened for the session and marked as a
// terminal session; the person's answer is the verdict; a rule's deny answers at once and is on the
// audit trail with source "terminal"; a hook that gives up leaves the card; a transcript outside the
// history folder is refused ("ask") and opens nothing. A session whose file stops mid-run (the top
// agent's Agent call written, its result not yet) puts the running subagent's request on its card.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TabInfo } from "../../src/shared/api.js";
import type { HookInput, HookVerdict } from "../../src/shared/terminalHooks.js";
import type { Transcript } from "../../src/shared/transcript.js";
import { createAppCore, type AppCore } from "../../src/main/app/createAppCore.js";
import { run as auditRun } from "../../src/main/commands/audit.js";
import { agentRecordOf } from "../../src/main/core/subagentRecordOf.js";
import { appendLines, assistant, plantHistory, type PlantedHistory, type RecordedCli } from "../support/plantedHistory.js";
import { watchTab, type TabWatch } from "../support/tabWatch.js";
import { tempDirs } from "../support/tempDirs.js";
import { value } from "../support/apiValue.js";

const WaitMs = 30_000;

/** The id of the recording's agent spawned by the main agent (its card is on the transcript's first screen). */
function topAgentId(planted: PlantedHistory): string {
  const agents = path.join(planted.projectsDir, planted.project, planted.sessionId, "subagents");
  const meta = fs.readdirSync(agents).find((n) => n.endsWith(".meta.json") && (JSON.parse(fs.readFileSync(path.join(agents, n), "utf8")) as { spawnDepth?: number }).spawnDepth === 1);
  if (meta === undefined) throw new Error("no depth-1 agent in the recording");
  return meta.slice("agent-".length, -".meta.json".length);
}

/** Resolves with the tab strip once `read` finds what it waits for in it. */
function tabsUntil<T>(core: AppCore, what: string, read: (tabs: readonly TabInfo[]) => T | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    let stop: () => void = () => undefined;
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`timed out waiting for ${what}`));
    }, WaitMs);
    const check = (tabs: readonly TabInfo[]): void => {
      const found = read(tabs);
      if (found === undefined) return;
      clearTimeout(timer);
      queueMicrotask(() => stop());
      resolve(found);
    };
    stop = core.manager.onTabsChanged(check);
    check(core.manager.listTabs());
  });
}

/** The session's audit trail as `baton audit --json` prints it, once it holds a row `match` accepts. */
async function auditRowsUntil(dbPath: string, sessionId: string, match: (row: Record<string, unknown>) => boolean): Promise<Record<string, unknown>[]> {
  const deadline = Date.now() + WaitMs;
  for (;;) {
    const out: string[] = [];
    const code = await auditRun([sessionId, "--db", dbPath, "--json"], { stdout: (s) => out.push(s), stderr: () => undefined });
    const rows = code === 0 ? (JSON.parse(out.join("")) as Record<string, unknown>[]) : [];
    if (rows.some(match)) return rows;
    if (Date.now() > deadline) throw new Error(`timed out waiting for an audit row; have ${JSON.stringify(rows)}`);
    await new Promise((r) => setImmediate(r));
  }
}

describe.each(["2.1.197", "2.1.332"] as const)("a terminal session steered from Baton, history of CLI %s", (cli: RecordedCli) => {
  const tempDir = tempDirs(`baton-terminal-${cli}-`, "all");
  let core: AppCore;
  let planted: PlantedHistory;
  let dbPath: string;
  let agentId: string;
  let release: () => void;
  let base: HookInput;

  beforeAll(async () => {
    const home = tempDir();
    planted = plantHistory(path.join(home, "projects"), cli);
    agentId = topAgentId(planted);
    dbPath = path.join(home, ".config", "baton", "index.sqlite");
    core = await createAppCore({
      projectsDir: planted.projectsDir,
      settingsFile: path.join(home, ".config", "baton", "settings.json"),
      dbPath,
      claudePath: path.join(home, "no-claude-here"),
      env: { HOME: home, PATH: process.env["PATH"] ?? "" },
    });
    release = core.manager.acquirePresence();
    base = { session_id: planted.sessionId, transcript_path: planted.mainFile, cwd: "/home/user/code/deep-nesting", hook_event_name: "PreToolUse" };
  }, 60_000);

  afterAll(async () => {
    release?.();
    await core?.close();
  });

  /**
   * A subagent's Bash through the hooks as the CLI sends them: its PreToolUse, which no rule decides
   * (Baton defers to the CLI's own flow), then the PermissionRequest the CLI sends before its
   * dialog (no tool_use_id); the tab, and the tab as a window holds it once the request is on it.
   */
  async function askBash(command: string, toolUseId: string, gaveUp?: AbortSignal): Promise<{ verdict: Promise<HookVerdict>; tab: TabWatch; tabId: string; requestId: string }> {
    const call = { ...base, agent_id: agentId, agent_type: "general-purpose", tool_name: "Bash", tool_input: { command, description: "From the terminal" } };
    expect(await core.manager.handleTerminalHook({ ...call, tool_use_id: toolUseId })).toEqual({ decision: "defer" });
    const verdict = core.manager.handleTerminalHook({ ...call, hook_event_name: "PermissionRequest" }, gaveUp);
    const tabId = await tabsUntil(core, "the session's tab waiting for the person", (tabs) => tabs.find((t) => t.sessionId === planted.sessionId && t.terminal === "waiting")?.tabId);
    const tab = watchTab(core.service, tabId, WaitMs);
    const request = await tab.waitFor(`the ${command} request`, () => tab.pending().find((p) => p.toolUseId === toolUseId));
    return { verdict, tab, tabId, requestId: request.requestId };
  }

  it("puts a subagent's Bash on that subagent's card in a tab marked as a terminal session; Allow once answers allow", async () => {
    const { verdict, tab, tabId, requestId } = await askBash("touch made-in-terminal", "toolu_terminal_allow");
    const request = tab.pending().find((p) => p.requestId === requestId)!;
    expect(request).toMatchObject({ toolName: "Bash", agentId, input: { command: "touch made-in-terminal" } });
    // The card the window puts it on: the subagent's record in the restored transcript.
    const transcript: Transcript = await tab.waitFor("the subagent's card", () => (agentRecordOf(tab.transcript(), agentId) !== undefined ? tab.transcript() : undefined));
    expect(agentRecordOf(transcript, agentId)?.taskId).toBe(agentId);
    expect(core.manager.listTabs().find((t) => t.tabId === tabId)).toMatchObject({ kind: "restored", terminal: "waiting", sessionId: planted.sessionId });
    value(await core.service.answerPermission(tabId, requestId, { behavior: "allow", updatedInput: request.input }));
    expect(await verdict).toMatchObject({ decision: "allow" });
    await tab.waitFor("the request gone from the card", () => (tab.pending().length === 0 ? true : undefined));
    await tabsUntil(core, "the tab working again", (tabs) => (tabs.find((t) => t.tabId === tabId)?.terminal === "working" ? true : undefined));
    tab.stop();
  });

  it("answers Deny with the person's reason, in the same tab", async () => {
    const before = core.manager.listTabs().length;
    const { verdict, tab, tabId, requestId } = await askBash("git push --force", "toolu_terminal_deny");
    value(await core.service.answerPermission(tabId, requestId, { behavior: "deny", message: "Not on the shared branch." }));
    expect(await verdict).toEqual({ decision: "deny", reason: "Not on the shared branch." });
    expect(core.manager.listTabs()).toHaveLength(before);
    tab.stop();
    const rows = await auditRowsUntil(dbPath, planted.sessionId, (r) => r["toolUseId"] === "toolu_terminal_deny" && r["origin"] === "person");
    expect(rows.find((r) => r["toolUseId"] === "toolu_terminal_deny" && r["origin"] === "person")).toMatchObject({ decision: "deny", message: "Not on the shared branch." });
  });

  it("lets the person's deny rule answer at once, on the audit trail with source terminal", async () => {
    const added = await core.policy.rules!.add({ behavior: "deny", rule: "Bash(rm:*)", scope: "everywhere", origin: "test" });
    expect(added.ok).toBe(true);
    const verdict = await core.manager.handleTerminalHook({ ...base, agent_id: agentId, agent_type: "general-purpose", tool_name: "Bash", tool_input: { command: "rm -rf build" }, tool_use_id: "toolu_terminal_rule" });
    expect(verdict.decision).toBe("deny");
    expect(verdict.reason).toContain("Bash(rm:*)");
    const tabId = core.manager.listTabs().find((t) => t.sessionId === planted.sessionId)!.tabId;
    const tab = watchTab(core.service, tabId, WaitMs);
    await tab.waitFor("the tab's first delta", () => (tab.transcript().blocks.length > 0 ? true : undefined));
    expect(tab.pending()).toEqual([]);
    tab.stop();
    const rows = await auditRowsUntil(dbPath, planted.sessionId, (r) => r["toolUseId"] === "toolu_terminal_rule");
    expect(rows.find((r) => r["toolUseId"] === "toolu_terminal_rule")).toMatchObject({ kind: "decision", decision: "deny", rule: "rule:deny Bash(rm:*) (everywhere)", origin: "terminal", agentId });
    const text: string[] = [];
    expect(await auditRun([planted.sessionId, "--db", dbPath], { stdout: (s) => text.push(s), stderr: () => undefined })).toBe(0);
    expect(text.join("").split("\n").find((line) => line.includes("rm -rf build"))).toContain("deny (terminal session)");
  });

  it("leaves to the CLI what no rule decides: a Read runs as it would without Baton, and no card waits", async () => {
    const read = { ...base, agent_id: agentId, agent_type: "general-purpose", tool_name: "Read", tool_input: { file_path: "/home/user/code/deep-nesting/README.md" }, tool_use_id: "toolu_terminal_read" };
    expect(await core.manager.handleTerminalHook(read)).toEqual({ decision: "defer" });
    const tabId = core.manager.listTabs().find((t) => t.sessionId === planted.sessionId)!.tabId;
    expect(core.manager.listTabs().find((t) => t.tabId === tabId)?.terminal).toBe("working");
    const tab = watchTab(core.service, tabId, WaitMs);
    await tab.waitFor("the tab's first delta", () => (tab.transcript().blocks.length > 0 ? true : undefined));
    expect(tab.pending()).toEqual([]);
    tab.stop();
  });

  it("holds a session started with baton claude --orchestration to the presets: a coder's refused command is denied at once", async () => {
    const coder = { ...base, agent_id: agentId, agent_type: "coder", tool_name: "Bash", tool_input: { command: "npm install left-pad" } };
    const verdict = await core.manager.handleTerminalHook({ ...coder, tool_use_id: "toolu_terminal_preset" }, undefined, { orchestration: true });
    expect(verdict.decision).toBe("deny");
    const rows = await auditRowsUntil(dbPath, planted.sessionId, (r) => r["toolUseId"] === "toolu_terminal_preset");
    expect(rows.find((r) => r["toolUseId"] === "toolu_terminal_preset")).toMatchObject({ decision: "deny", rule: "preset:coder/exec", preset: "coder", origin: "terminal" });
    // Started without it, no rule decides the same call: the CLI's own flow goes on.
    expect(await core.manager.handleTerminalHook({ ...coder, tool_use_id: "toolu_terminal_no_preset" }, undefined, { orchestration: false })).toEqual({ decision: "defer" });
  });

  it("puts a preset's allowed Bash to the person: no OS sandbox can hold a terminal's command", async () => {
    const analyst = { ...base, agent_id: agentId, agent_type: "analyst", tool_name: "Bash", tool_input: { command: "git log --oneline" } };
    // The preset would allow it; Baton makes the CLI ask, and the ask comes to the card.
    const pre = await core.manager.handleTerminalHook({ ...analyst, tool_use_id: "toolu_terminal_analyst" }, undefined, { orchestration: true });
    expect(pre.decision).toBe("ask");
    expect(pre.reason).toContain("OS sandbox");
    const verdict = core.manager.handleTerminalHook({ ...analyst, hook_event_name: "PermissionRequest" }, undefined, { orchestration: true });
    const tabId = await tabsUntil(core, "the analyst's call waiting", (tabs) => tabs.find((t) => t.sessionId === planted.sessionId && t.terminal === "waiting")?.tabId);
    const tab = watchTab(core.service, tabId, WaitMs);
    const request = await tab.waitFor("the analyst's call on the card", () => tab.pending().find((p) => p.toolUseId === "toolu_terminal_analyst"));
    value(await core.service.answerPermission(tabId, request.requestId, { behavior: "allow", updatedInput: request.input }));
    expect((await verdict).decision).toBe("allow");
    tab.stop();
    const rows = await auditRowsUntil(dbPath, planted.sessionId, (r) => r["toolUseId"] === "toolu_terminal_analyst" && r["origin"] === "terminal");
    expect(rows.find((r) => r["toolUseId"] === "toolu_terminal_analyst" && r["origin"] === "terminal")).toMatchObject({ decision: "ask", rule: "preset:analyst/no-sandbox" });
  });

  it("withdraws a request from the card when its hook gives up, and answers ask", async () => {
    const gaveUp = new AbortController();
    const { verdict, tab } = await askBash("make deploy", "toolu_terminal_gone", gaveUp.signal);
    gaveUp.abort();
    expect((await verdict).decision).toBe("ask");
    await tab.waitFor("the request gone from the card", () => (tab.pending().length === 0 ? true : undefined));
    tab.stop();
  });

  it("matches a PermissionRequest to the newest PreToolUse like it, not an older one the CLI let run without asking", async () => {
    const ran = { ...base, agent_id: agentId, agent_type: "general-purpose", tool_name: "Bash", tool_input: { command: "npm ci", description: "From the terminal" }, tool_use_id: "toolu_terminal_ran" };
    expect(await core.manager.handleTerminalHook(ran)).toEqual({ decision: "defer" });
    const { verdict, tab, tabId, requestId } = await askBash("npm ci", "toolu_terminal_asked");
    value(await core.service.answerPermission(tabId, requestId, { behavior: "allow", updatedInput: ran.tool_input }));
    expect(await verdict).toMatchObject({ decision: "allow" });
    tab.stop();
  });

  it("Allow for this session keeps a session rule: the same call next time is allowed without asking", async () => {
    const { verdict, tab, tabId, requestId } = await askBash("npm run lint", "toolu_terminal_session_1");
    const request = tab.pending().find((p) => p.requestId === requestId)!;
    expect(request.allowRules?.length).toBeGreaterThan(0);
    value(await core.service.answerPermission(tabId, requestId, { behavior: "allow", scope: "session", updatedInput: request.input }));
    expect(await verdict).toMatchObject({ decision: "allow" });
    tab.stop();
    const again = await core.manager.handleTerminalHook({ ...base, agent_id: agentId, agent_type: "general-purpose", tool_name: "Bash", tool_input: { command: "npm run lint" }, tool_use_id: "toolu_terminal_session_2" });
    expect(again.decision).toBe("allow");
    expect(again.reason).toContain("this session");
  });

  it("Always allow in this project keeps a rule of the session's folder", async () => {
    const { verdict, tab, tabId, requestId } = await askBash("npm run typecheck", "toolu_terminal_project");
    const request = tab.pending().find((p) => p.requestId === requestId)!;
    value(await core.service.answerPermission(tabId, requestId, { behavior: "allow", scope: "project", updatedInput: request.input }));
    expect(await verdict).toMatchObject({ decision: "allow" });
    tab.stop();
    expect(core.policy.rules!.list()).toEqual(expect.arrayContaining([expect.objectContaining({ behavior: "allow", scope: "project", scopeKey: "/home/user/code/deep-nesting", rule: request.allowRules![0] })]));
  });

  it("answers ask when the tab is closed while the request waits, and when no window is open", async () => {
    const { verdict, tabId } = await askBash("make release", "toolu_terminal_closed");
    await core.manager.closeTab(tabId);
    expect((await verdict).decision).toBe("ask");
    // On the trail as what it was for the terminal: nobody decided it here.
    const rows = await auditRowsUntil(dbPath, planted.sessionId, (r) => r["toolUseId"] === "toolu_terminal_closed" && r["requestId"] !== undefined);
    expect(rows.find((r) => r["toolUseId"] === "toolu_terminal_closed" && r["requestId"] !== undefined)).toMatchObject({ decision: "cancelled", rule: "tab-closed" });
    release();
    try {
      const alone = await core.manager.handleTerminalHook({ ...base, hook_event_name: "PermissionRequest", tool_name: "Bash", tool_input: { command: "make release" } });
      expect(alone.decision).toBe("ask");
      expect(alone.reason).toMatch(/No Baton window/);
    } finally {
      release = core.manager.acquirePresence();
    }
  });

  it("follows the session's file live in its tab: what the terminal writes next shows there", async () => {
    const tabId = core.manager.listTabs().find((t) => t.sessionId === planted.sessionId)!.tabId;
    const tab = watchTab(core.service, tabId, WaitMs);
    await tab.waitFor("the tab's transcript", () => (tab.transcript().blocks.length > 0 ? true : undefined));
    const said = "Written by the terminal session after Baton opened its tab.";
    appendLines(planted.mainFile, (env) => [assistant(env(), [{ type: "text", text: said }])]);
    await tab.waitFor("the new line in the tab", () => (tab.transcript().blocks.some((b) => b.kind === "text" && b.text === said) ? true : undefined));
    tab.stop();
  });

  it("shows the session idle after its Stop hook", async () => {
    expect(await core.manager.handleTerminalHook({ ...base, hook_event_name: "Stop" })).toEqual({ decision: "defer" });
    await tabsUntil(core, "the tab idle", (tabs) => (tabs.find((t) => t.sessionId === planted.sessionId)?.terminal === "idle" ? true : undefined));
    // A notification (the CLI's idle prompt) says nothing of work: the tab stays idle.
    expect(await core.manager.handleTerminalHook({ ...base, hook_event_name: "Notification", message: "Claude is waiting for your input" })).toEqual({ decision: "defer" });
    expect(core.manager.listTabs().find((t) => t.sessionId === planted.sessionId)?.terminal).toBe("idle");
    // The next hook of its work says it works again.
    await core.manager.handleTerminalHook({ ...base, hook_event_name: "SubagentStart", agent_id: agentId, agent_type: "general-purpose" });
    expect(core.manager.listTabs().find((t) => t.sessionId === planted.sessionId)?.terminal).toBe("working");
  });

  it("refuses a transcript outside the history folder: ask, and no tab opens", async () => {
    const outside = path.join(tempDir(), "elsewhere");
    fs.mkdirSync(outside);
    const copy = path.join(outside, `${planted.sessionId}.jsonl`);
    fs.copyFileSync(planted.mainFile, copy);
    const linkedProject = path.join(planted.projectsDir, "linked-out");
    fs.symlinkSync(outside, linkedProject);
    const tabsBefore = core.manager.listTabs().map((t) => t.tabId);
    const paths = [
      copy,
      path.join(linkedProject, `${planted.sessionId}.jsonl`),
      path.join(planted.projectsDir, planted.project, "..", "..", path.basename(path.dirname(outside)), "elsewhere", `${planted.sessionId}.jsonl`),
      path.relative(process.cwd(), planted.mainFile),
    ];
    for (const transcript_path of paths) {
      const verdict = await core.manager.handleTerminalHook({ ...base, transcript_path, tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "toolu_outside" });
      expect(verdict.decision, transcript_path).toBe("ask");
      expect(verdict.reason, transcript_path).toMatch(/^Baton refused this session/);
    }
    const named = await core.manager.handleTerminalHook({ ...base, session_id: "../escape", tool_name: "Bash", tool_input: { command: "ls" } });
    expect(named).toMatchObject({ decision: "ask" });
    expect(core.manager.listTabs().map((t) => t.tabId)).toEqual(tabsBefore);
  });
});

describe.each(["2.1.197", "2.1.332"] as const)("a terminal session still running its subagent, history of CLI %s", (cli: RecordedCli) => {
  const tempDir = tempDirs(`baton-terminal-running-${cli}-`, "all");
  let core: AppCore;
  let planted: PlantedHistory;
  let release: () => void = () => undefined;

  beforeAll(async () => {
    const home = tempDir();
    planted = plantHistory(path.join(home, "projects"), cli);
    // The main file as the CLI has written it while the top agent still works: up to its Agent call, before its result.
    const lines = fs.readFileSync(planted.mainFile, "utf8").split("\n");
    const spawn = lines.findIndex((l) => l.includes('"type":"assistant"') && l.includes('"name":"Agent"') && !l.includes('"isSidechain":true'));
    const callId = (JSON.parse(lines[spawn]!) as { message: { content: { name?: string; id?: string }[] } }).message.content.find((c) => c.name === "Agent")!.id!;
    const result = lines.findIndex((l, i) => i > spawn && l.includes(`"tool_use_id":"${callId}"`));
    fs.writeFileSync(planted.mainFile, `${lines.slice(0, result).join("\n")}\n`);
    core = await createAppCore({ projectsDir: planted.projectsDir, claudePath: path.join(home, "no-claude-here"), env: { HOME: home, PATH: process.env["PATH"] ?? "" } });
    release = core.manager.acquirePresence();
  }, 60_000);

  afterAll(async () => {
    release();
    await core?.close();
  });

  it("puts the running subagent's request on its card", async () => {
    const agentId = topAgentId(planted);
    const call = {
      session_id: planted.sessionId,
      transcript_path: planted.mainFile,
      cwd: "/home/user/code/deep-nesting",
      agent_id: agentId,
      agent_type: "general-purpose",
      tool_name: "Bash",
      tool_input: { command: "npm test" },
    };
    expect(await core.manager.handleTerminalHook({ ...call, hook_event_name: "PreToolUse", tool_use_id: "toolu_terminal_running" })).toEqual({ decision: "defer" });
    const verdict = core.manager.handleTerminalHook({ ...call, hook_event_name: "PermissionRequest" });
    const tabId = await tabsUntil(core, "the session's tab waiting", (tabs) => tabs.find((t) => t.sessionId === planted.sessionId && t.terminal === "waiting")?.tabId);
    const tab = watchTab(core.service, tabId, WaitMs);
    const request = await tab.waitFor("the request", () => tab.pending().find((p) => p.toolUseId === "toolu_terminal_running"));
    expect(request.agentId).toBe(agentId);
    await tab.waitFor("the running subagent's card", () => agentRecordOf(tab.transcript(), agentId));
    value(await core.service.answerPermission(tabId, request.requestId, { behavior: "allow", updatedInput: request.input }));
    expect((await verdict).decision).toBe("allow");
    tab.stop();
  });
});
