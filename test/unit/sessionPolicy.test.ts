// A session's policy glue (sessionPolicy.ts, policyAnswers.ts, callingAgent.ts, subagentContext.ts,
// settings and switches): what `initialize` carries, what the hook answers, who decides a
// permission request, and who is asking.

import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { ClientEvent } from "../../src/shared/events.js";
import type { HookCallbackRequest, JsonObject } from "../../src/shared/protocol/messages.js";
import type { PermissionRule } from "../../src/shared/policy.js";
import { parseAppSwitches } from "../../src/main/app/appSwitches.js";
import { readOrchestration } from "../../src/main/platform/settingsFile.js";
import type { PermissionDecider } from "../../src/main/cli/permissionGate.js";
import type { AuditPolicyDecision } from "../../src/main/audit/audit.js";
import { builtinPresetSet } from "../../src/main/policy/presets/builtinPresets.js";
import { PolicyService } from "../../src/main/policy/policyService.js";
import { PolicyHookId, SessionPolicy, type SessionPolicyOptions } from "../../src/main/policy/sessionPolicy.js";
import { loadShellParser } from "../../src/main/policy/shell/shellParser.js";
import { memorySections } from "../../src/main/policy/subagentContext.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-session-policy-", "all");
let dir: string;
beforeAll(async () => {
  await loadShellParser();
  dir = tempDir();
});

function policy(extra: Partial<SessionPolicyOptions> = {}) {
  const events: ClientEvent[] = [];
  const records: AuditPolicyDecision[] = [];
  const session = new SessionPolicy({
    orchestration: true,
    presets: () => builtinPresetSet(),
    rules: () => [],
    cwd: dir,
    home: dir,
    agentType: (id) => (id === "acoder0000000000" ? "coder" : undefined),
    sessionId: () => "s-1",
    record: (entry) => records.push(entry),
    emit: (event) => events.push(event),
    ...extra,
  });
  return { session, events, records };
}

const hook = (input: Record<string, unknown>, toolUseId = "toolu_1"): HookCallbackRequest => ({
  subtype: "hook_callback",
  callback_id: PolicyHookId,
  input: { hook_event_name: "PreToolUse", tool_use_id: toolUseId, ...input } as HookCallbackRequest["input"],
  tool_use_id: toolUseId,
});
const never = new AbortController().signal;

describe("SessionPolicy", () => {
  it("registers its hook for every tool beside the caller's own, and in orchestration mode sends the presets and the conductor's guidance", () => {
    const base = { hooks: { PreToolUse: [{ matcher: "Bash", hookCallbackIds: ["mine"] }] }, appendSystemPrompt: "MINE" };
    const on = policy().session.initialize(base);
    expect(on.hooks?.["PreToolUse"]).toEqual([{ matcher: "Bash", hookCallbackIds: ["mine"] }, { hookCallbackIds: [PolicyHookId] }]);
    expect(Object.keys(on.agents ?? {})).toEqual(["scout", "analyst", "coder", "worker", "coordinator"]);
    expect(on.agents?.["coder"]).toMatchObject({ tools: expect.arrayContaining(["Bash", "Edit"]), prompt: expect.stringContaining("coder") });
    expect(on.appendSystemPrompt).toMatch(/^MINE\n\n# Orchestration/);
    const off = policy({ orchestration: false }).session.initialize(base);
    expect(off.agents).toBeUndefined();
    expect(off.appendSystemPrompt).toBe("MINE");
    expect(off.hooks?.["PreToolUse"]).toHaveLength(2);
  });

  it("answers the hook: a denial with its reason (and shown on the card), silence where no rule decides, other callbacks passed on", async () => {
    const { session, events, records } = policy();
    const handler = session.hookHandler(async () => ({ passed: true }));
    const denied = await handler(hook({ tool_name: "Bash", tool_input: { command: "npm i x" }, agent_id: "acoder0000000000", agent_type: "coder" }), never);
    expect(denied).toMatchObject({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: expect.stringContaining("npm is refused") } });
    expect(events).toEqual([expect.objectContaining({ kind: "policy_decision", toolUseId: "toolu_1", agentId: "acoder0000000000", decision: "deny", rule: "preset:coder/exec" })]);
    expect(records[0]).toMatchObject({ sessionId: "s-1", agentType: "coder", preset: "coder", decision: "deny", rule: "preset:coder/exec", origin: "hook" });
    expect(await handler(hook({ tool_name: "Read", tool_input: { file_path: "a" } }, "toolu_2"), never)).toEqual({ continue: true });
    expect(await handler({ ...hook({}), callback_id: "other" }, never)).toEqual({ passed: true });
  });

  it("adds the environment (and MEMORY.md's sections) to a preset subagent's prompt, and to nothing else", async () => {
    fs.writeFileSync(path.join(dir, "MEMORY.md"), "> Task: the limiter\n\n## Context\nIn pkg/limit.\n\n## Other\nnot this\n");
    const handler = policy().session.hookHandler();
    const spawn = await handler(hook({ tool_name: "Agent", tool_input: { subagent_type: "coder", prompt: "Do it", description: "d" } }), never);
    const prompt = (spawn["hookSpecificOutput"] as { updatedInput?: { prompt?: string } }).updatedInput?.prompt ?? "";
    expect(prompt).toMatch(/^Do it\n\n<baton-environment>\nWorkspace: /);
    expect(prompt).toContain("Task (from MEMORY.md): the limiter");
    expect(prompt).toContain("In pkg/limit.");
    expect(prompt).not.toContain("not this");
    const plain = await handler(hook({ tool_name: "Agent", tool_input: { subagent_type: "general-purpose", prompt: "Do it", description: "d" } }, "toolu_3"), never);
    expect(plain).toEqual({ continue: true });
    fs.rmSync(path.join(dir, "MEMORY.md"));
    const without = await handler(hook({ tool_name: "Agent", tool_input: { subagent_type: "coder", prompt: "Do it", description: "d" } }, "toolu_4"), never);
    expect(JSON.stringify(without)).not.toContain("MEMORY.md");
  });

  it("answers a permission request it can decide, and asks the person about the rest; the hook's agent is remembered for the request", async () => {
    const rules: PermissionRule[] = [{ behavior: "ask", rule: "Bash(ls:*)", scope: "everywhere", origin: "test", createdAt: "2026-12-01T00:00:00.000Z" }];
    const { session } = policy({ rules: () => rules, agentType: () => undefined });
    const asked: string[] = [];
    const person: PermissionDecider = async (request) => {
      asked.push(request.toolName);
      return { behavior: "allow", decidedBy: "user" };
    };
    const decide = session.decider(person);
    const request = (toolName: string, input: JsonObject, agentId?: string, toolUseId = "t") => ({ kind: "permission_request" as const, requestId: "r", toolName, toolUseId, input, ...(agentId ? { agentId } : {}) });
    // The hook named the agent; the request, which carries only its id, is placed by it.
    await session.hookHandler()(hook({ tool_name: "Bash", tool_input: { command: "ls" }, agent_id: "aother00000000000", agent_type: "coder" }, "toolu_9"), never);
    expect(await decide(request("Bash", { command: "ls" }, "aother00000000000", "toolu_9"), never)).toEqual({ behavior: "allow", decidedBy: "user" });
    expect(asked).toEqual(["Bash"]);
    expect(await decide(request("Bash", { command: "npm i" }, "aother00000000000", "toolu_10"), never)).toMatchObject({ behavior: "deny", decidedBy: "policy:unknown-agent" });
    expect(await decide(request("Write", { file_path: "x", content: "" }), never)).toEqual({ behavior: "allow", decidedBy: "user" });
  });
});

describe("orchestration mode's switch and setting", () => {
  it("reads --orchestration, the saved setting, and lets the switch win", async () => {
    expect(parseAppSwitches(["/opt/baton", "--orchestration"])).toMatchObject({ orchestration: true });
    expect(parseAppSwitches(["/opt/baton"]).orchestration).toBeUndefined();
    const settingsFile = path.join(dir, "cfg", "settings.json");
    expect(readOrchestration(settingsFile)).toEqual({ orchestration: false });
    const service = await PolicyService.open({ settingsFile, home: dir });
    await service.setOrchestration(true);
    expect(readOrchestration(settingsFile)).toEqual({ orchestration: true });
    expect((await PolicyService.open({ settingsFile, home: dir })).orchestration).toBe(true);
    await service.setOrchestration(false);
    expect((await PolicyService.open({ settingsFile, home: dir, orchestration: true })).orchestration).toBe(true);
    fs.writeFileSync(settingsFile, JSON.stringify({ orchestration: "yes" }));
    expect(readOrchestration(settingsFile)).toMatchObject({ orchestration: false, problem: expect.stringContaining("true or false") });
  });

  it("says in the log when the presets file is broken, and keeps the built-ins in force", async () => {
    const settingsFile = path.join(dir, "broken", "settings.json");
    fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
    fs.writeFileSync(path.join(dir, "broken", "presets.json"), "{ not json");
    const logged: string[] = [];
    const service = await PolicyService.open({ settingsFile, home: dir, log: (_level, message) => logged.push(message) });
    expect(service.presets.source).toBe("built-in");
    expect(logged.some((m) => m.includes("presets.json") && m.includes("not valid JSON"))).toBe(true);
    expect((await service.resetPresets()).problem).toBeUndefined();
    expect((await PolicyService.open({ settingsFile, home: dir })).presets.problem).toBeUndefined();
  });
});

describe("a shell parser that cannot start", () => {
  it("leaves Baton running (the policy service opens) and says why in the log", async () => {
    const logged: string[] = [];
    const service = await PolicyService.open({ home: dir, orchestration: true, loadParser: () => Promise.reject(new Error("no wasm here")), log: (_l, m) => logged.push(m) });
    expect(logged).toEqual([expect.stringContaining("the shell parser did not start (no wasm here)")]);
    expect(service.orchestration).toBe(true);
  });
});

describe("MEMORY.md's sections", () => {
  it("takes the Task line and the Context and Commands sections, each up to the next heading", () => {
    const text = "# Project\n> Task: ship it\n\n## Context\nline one\nline two\n### sub stays\n## Commands\ngo test ./...\n# Next\n## Context2\n";
    expect(memorySections(text)).toEqual({ task: "ship it", context: "line one\nline two\n### sub stays", commands: "go test ./..." });
    expect(memorySections("nothing here")).toEqual({});
  });
});
