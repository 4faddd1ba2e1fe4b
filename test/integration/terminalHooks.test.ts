// `baton claude` with the real CLI (-p, the scripted model server) and a real hook server in a
// private run folder: the hooks its --settings register fire through `baton hook`, a subagent's
// PreToolUse carries its agent id and type, Baton's deny reaches the model and nothing runs, and
// a PreToolUse "ask" is refused by a -p session (there is no prompt to show), and with no Baton
// running nothing is allowed at all. Which events fire is what docs/protocol-notes.md records, for
// both CLIs.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { startHookServer, type HookServer } from "../../src/main/terminal/hookServer.js";
import type { HookInput, HookVerdict } from "../../src/shared/terminalHooks.js";
import { ensureCliBuilt } from "../support/cliBundle.js";
import { createCliEnv, type CliEnv } from "../support/cliEnv.js";
import { startModelServer, type ModelServer, type Script } from "../support/modelServer.js";
import { toolResultText } from "../support/model/toolResults.js";
import { tempDirs } from "../support/tempDirs.js";

const repoRoot = path.resolve(import.meta.dirname, "../..");
const tempDir = tempDirs("baton-term-");

const DenyReason = "Baton's terminal test keeps this Bash from running";
const RequestDenyReason = "Baton answered the permission request: no";

const script: Script = {
  main: [
    {
      blocks: [
        {
          type: "tool_use",
          name: "Agent",
          input: { description: "Touch files", prompt: "[[SUB-A]] touch two files", subagent_type: "general-purpose", run_in_background: false },
        },
      ],
    },
    { blocks: [{ type: "text", text: "The subagent is done." }] },
  ],
  "SUB-A": [
    { blocks: [{ type: "tool_use", name: "Bash", input: { command: "touch denied.txt", description: "Touch a file" } }] },
    { blocks: [{ type: "tool_use", name: "Bash", input: { command: "touch asked.txt", description: "Touch another file" } }] },
    { blocks: [{ type: "text", text: "Neither file was made." }] },
  ],
};

/** What the test's Baton answers: deny the first Bash, ask for the second, allow the rest; a permission request (none under -p) denied. */
function answer(input: HookInput): HookVerdict {
  const command = String(input.tool_input?.["command"] ?? "");
  if (input.hook_event_name === "PreToolUse" && command === "touch denied.txt") return { decision: "deny", reason: DenyReason };
  if (input.hook_event_name === "PreToolUse" && command === "touch asked.txt") return { decision: "ask" };
  if (input.hook_event_name === "PermissionRequest") return { decision: "deny", reason: RequestDenyReason };
  return input.hook_event_name === "PreToolUse" ? { decision: "allow" } : { decision: "ask" };
}

/** `baton claude -p …` in the CLI env's project with XDG_RUNTIME_DIR=`runtime`, the env's claude as the person's. */
function batonClaude(env: CliEnv, runtime: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const cliEnv = { ...env.env, XDG_RUNTIME_DIR: runtime, BATON_CLAUDE_PATH: env.claudePath };
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [path.join(repoRoot, "bin/baton.mjs"), "claude", "-p", "please touch two files", "--permission-mode", "default"],
      { cwd: env.cwd, env: cliEnv },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number((error as { code?: number }).code), stdout, stderr }),
    );
    child.stdin!.end();
  });
}

describe("baton claude's hooks with the real CLI", () => {
  let model: ModelServer | undefined;
  let env: CliEnv | undefined;
  let hooks: HookServer | undefined;
  beforeAll(() => void ensureCliBuilt(), 120_000);
  afterEach(async () => {
    await hooks?.stop();
    await model?.close();
    await env?.cleanup();
    hooks = undefined;
  });

  it("a subagent's Bash denied by Baton never runs and the model reads the reason; the events reach Baton", async () => {
    model = await startModelServer(script);
    env = await createCliEnv({ baseUrl: model.url, cwdName: "terminal-hooks" });
    const runtime = tempDir();
    const seen: HookInput[] = [];
    const started = await startHookServer({ folder: path.join(runtime, "baton"), handler: async (input) => (seen.push(input), answer(input)) });
    if (!started.ok) throw new Error(started.error);
    hooks = started.server;

    const run = await batonClaude(env, runtime);
    const events = seen.map((i) => [i.hook_event_name, i.tool_name ?? "", i.agent_id === undefined ? "main" : "subagent"]);

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("The subagent is done.");
    expect(fs.existsSync(path.join(env.cwd, "denied.txt"))).toBe(false);
    expect(fs.existsSync(path.join(env.cwd, "asked.txt"))).toBe(false);
    expect(toolResultText(model, "SUB-A", "toolu_SUB-A_t0_0")).toContain(DenyReason);
    // Under -p there is no prompt to show: the CLI refuses an "ask" without a PermissionRequest.
    expect(toolResultText(model, "SUB-A", "toolu_SUB-A_t1_0")).toContain("Hook PreToolUse:Bash asked for confirmation for this tool");

    // The same events in the same order on both CLIs (docs/protocol-notes.md).
    expect(events).toEqual([
      ["PreToolUse", "Agent", "main"],
      ["SubagentStart", "", "subagent"],
      ["PreToolUse", "Bash", "subagent"],
      ["PreToolUse", "Bash", "subagent"],
      ["SubagentStop", "", "subagent"],
      ["Stop", "", "main"],
    ]);

    const bash = seen.find((i) => i.hook_event_name === "PreToolUse" && i.tool_name === "Bash");
    expect(bash).toMatchObject({ agent_type: "general-purpose", tool_input: { command: "touch denied.txt" }, tool_use_id: "toolu_SUB-A_t0_0" });
    expect(bash?.agent_id).toMatch(/\S/);
    const agentCall = seen.find((i) => i.hook_event_name === "PreToolUse" && i.tool_name === "Agent");
    expect(agentCall?.agent_id).toBeUndefined();
    expect(new Set(seen.map((i) => i.session_id)).size).toBe(1);
  }, 120_000);

  it("with no Baton running, every call is asked in the terminal: under -p refused, nothing run", async () => {
    model = await startModelServer(script);
    env = await createCliEnv({ baseUrl: model.url, cwdName: "terminal-no-baton" });
    const run = await batonClaude(env, tempDir());

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("The subagent is done.");
    expect(fs.existsSync(path.join(env.cwd, "denied.txt"))).toBe(false);
    expect(fs.existsSync(path.join(env.cwd, "asked.txt"))).toBe(false);
    // Even the Agent call is asked, and -p has no one to ask: the model reads the ask's reason.
    expect(toolResultText(model, "main", "toolu_main_t0_0")).toContain("Baton did not answer; the terminal asks instead");
    expect(model.requests.some((r) => r.agent === "SUB-A")).toBe(false);
  }, 120_000);
});
