// `baton hook` as the CLI runs it: a process (the bundle, bin/baton.mjs) reading the hook input on
// stdin, asking a real hook server in a private run folder, printing the CLI's answer, exit 0
// always. Without a Baton, on empty or malformed input, with a wrong secret or an untrusted
// folder, the answer is "ask"; Baton's allow or deny is printed as the CLI expects.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { startHookServer, type HookServer } from "../../src/main/terminal/hookServer.js";
import { preToolUseOutput, type HookInput, type HookVerdict } from "../../src/shared/terminalHooks.js";
import { ensureCliBuilt } from "../support/cliBundle.js";
import { tempDirs } from "../support/tempDirs.js";

const repoRoot = path.resolve(import.meta.dirname, "../..");
const tempDir = tempDirs("baton-hook-cmd-");
const running: HookServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
});
beforeAll(() => void ensureCliBuilt(), 60_000);

const Input: HookInput = {
  session_id: "3f1c-terminal",
  transcript_path: "/home/user/.claude/projects/-home-user-code-x/3f1c-terminal.jsonl",
  cwd: "/home/user/code/x",
  hook_event_name: "PreToolUse",
  agent_id: "a12",
  agent_type: "general-purpose",
  tool_name: "Bash",
  tool_input: { command: "rm -rf build" },
  tool_use_id: "toolu_9",
};

/** Runs `baton hook` with `stdin` and XDG_RUNTIME_DIR=`runtime`; its exit code, stdout, stderr. */
function hook(runtime: string, stdin: string, extra: readonly string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, XDG_RUNTIME_DIR: runtime };
    const child = execFile(process.execPath, [path.join(repoRoot, "bin/baton.mjs"), "hook", ...extra], { env, cwd: repoRoot }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : ((error as { code?: number }).code ?? -1), stdout, stderr }),
    );
    child.stdin!.end(stdin);
  });
}

async function server(runtime: string, answer: (input: HookInput) => HookVerdict): Promise<HookInput[]> {
  const seen: HookInput[] = [];
  const result = await startHookServer({ folder: path.join(runtime, "baton"), handler: async (input) => (seen.push(input), answer(input)) });
  if (!result.ok) throw new Error(result.error);
  running.push(result.server);
  return seen;
}

const Ask = JSON.stringify(preToolUseOutput({ decision: "ask", reason: "Baton did not answer; the terminal asks instead" }));

describe("baton hook (process)", () => {
  it("with no Baton running answers ask and exits 0", async () => {
    await expect(hook(tempDir(), JSON.stringify(Input))).resolves.toEqual({ code: 0, stdout: `${Ask}\n`, stderr: "" });
  }, 30_000);

  it("on empty, malformed or non-hook input answers ask and exits 0, without asking Baton", async () => {
    const runtime = tempDir();
    const seen = await server(runtime, () => ({ decision: "allow" }));
    for (const stdin of ["", "{not json", JSON.stringify({ hello: "world" }), JSON.stringify({ ...Input, session_id: "" })]) {
      await expect(hook(runtime, stdin)).resolves.toEqual({ code: 0, stdout: `${Ask}\n`, stderr: "" });
    }
    expect(seen).toEqual([]);
  }, 30_000);

  it("prints Baton's deny (with its reason) and allow as the CLI's PreToolUse answer", async () => {
    const runtime = tempDir();
    const seen = await server(runtime, (input) =>
      String(input.tool_input?.["command"]).startsWith("rm") ? { decision: "deny", reason: "the preset keeps rm -rf out" } : { decision: "allow" },
    );
    const denied = await hook(runtime, JSON.stringify(Input));
    expect(denied.code).toBe(0);
    expect(JSON.parse(denied.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "the preset keeps rm -rf out" },
    });
    const allowed = await hook(runtime, JSON.stringify({ ...Input, tool_input: { command: "ls" } }));
    expect(JSON.parse(allowed.stdout)).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } });
    expect(seen.map((i) => [i.session_id, i.agent_id, i.tool_use_id])).toEqual([
      ["3f1c-terminal", "a12", "toolu_9"],
      ["3f1c-terminal", "a12", "toolu_9"],
    ]);
  }, 30_000);

  it("says so when the session was started with baton claude --orchestration", async () => {
    const runtime = tempDir();
    const launches: unknown[] = [];
    const started = await startHookServer({ folder: path.join(runtime, "baton"), handler: async (_input, _gaveUp, launch) => (launches.push(launch), { decision: "allow" }) });
    if (!started.ok) throw new Error(started.error);
    running.push(started.server);
    await hook(runtime, JSON.stringify(Input), ["--orchestration"]);
    await hook(runtime, JSON.stringify(Input));
    expect(launches).toEqual([{ orchestration: true }, { orchestration: false }]);
  }, 30_000);

  it("tells Baton of an event it only observes and prints nothing", async () => {
    const runtime = tempDir();
    const seen = await server(runtime, () => ({ decision: "ask" }));
    const started = { session_id: Input.session_id, transcript_path: Input.transcript_path, cwd: Input.cwd, hook_event_name: "SubagentStart", agent_id: "a12", agent_type: "Explore" };
    await expect(hook(runtime, JSON.stringify(started))).resolves.toEqual({ code: 0, stdout: "", stderr: "" });
    expect(seen.map((i) => i.hook_event_name)).toEqual(["SubagentStart"]);
  }, 30_000);

  it("answers a PermissionRequest with Baton's decision, and with nothing (the terminal's dialog) on ask", async () => {
    const runtime = tempDir();
    let verdict: HookVerdict = { decision: "deny", reason: "not here" };
    await server(runtime, () => verdict);
    const request = JSON.stringify({ ...Input, hook_event_name: "PermissionRequest" });
    expect(JSON.parse((await hook(runtime, request)).stdout)).toEqual({
      hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: "not here" } },
    });
    verdict = { decision: "ask" };
    await expect(hook(runtime, request)).resolves.toEqual({ code: 0, stdout: "", stderr: "" });
    verdict = { decision: "defer" };
    await expect(hook(runtime, request)).resolves.toEqual({ code: 0, stdout: "", stderr: "" });
  }, 30_000);

  it("prints nothing for a PreToolUse Baton defers on, so the CLI's own permission flow goes on", async () => {
    const runtime = tempDir();
    await server(runtime, () => ({ decision: "defer" }));
    await expect(hook(runtime, JSON.stringify(Input))).resolves.toEqual({ code: 0, stdout: "", stderr: "" });
  }, 30_000);

  it("answers ask with a wrong secret in the endpoint file, and does not trust a run folder open to others", async () => {
    const runtime = tempDir();
    const seen = await server(runtime, () => ({ decision: "allow" }));
    const file = path.join(runtime, "baton", `hook-${process.pid}.json`);
    const endpoint = JSON.parse(fs.readFileSync(file, "utf8")) as { secret: string };
    fs.writeFileSync(file, JSON.stringify({ ...endpoint, secret: "0".repeat(64) }));
    expect(JSON.parse((await hook(runtime, JSON.stringify(Input))).stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: "ask" } });
    fs.writeFileSync(file, JSON.stringify(endpoint));
    fs.chmodSync(path.join(runtime, "baton"), 0o755);
    expect(JSON.parse((await hook(runtime, JSON.stringify(Input))).stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: "ask" } });
    expect(seen).toEqual([]);
    fs.chmodSync(path.join(runtime, "baton"), 0o700);
  }, 30_000);
});
