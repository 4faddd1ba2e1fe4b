// Issue 31 through the real CLI, with real bubblewrap: a coder's Bash runs inside the OS sandbox
// built from its preset. Its attacks on the write root are refused by the kernel (the file does
// not exist afterwards and the model gets the error), the policy engine's own denial still coming
// first where it can read the line; a write inside the root works; the model and the transcript
// keep the command as the coder wrote it. A worktree agent writes only its worktree; a scout's
// curl is refused. Runs on both CLIs (vitest.config.ts onBothClis).

import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Block, Transcript } from "../../src/shared/transcript.js";
import { batonToolId } from "../../src/main/mcp/batonTools.js";
import { createCliEnv, type CliEnv } from "../support/cliEnv.js";
import { startModelServer, type ModelServer } from "../support/modelServer.js";
import { agentCall, bashCall, text } from "../support/scenarios/types.js";
import { openOrchestrationApp, value, type OrchestrationApp } from "../support/orchestrationApp.js";
import { placedBlocks } from "../support/transcriptWalk.js";
import { git } from "../support/git.js";

const WaitMs = 120_000;
const SUBMIT = batonToolId("submit_plan");

/** The steps of every agent of `type`, at any depth. */
function stepsOf(t: Transcript, type: string): readonly Block[] {
  return placedBlocks(t).flatMap(({ block }) => (block.call?.subagent?.subagentType === type ? block.call.subagent.blocks : []));
}

function bashStep(t: Transcript, type: string, fragment: string): Block {
  const step = stepsOf(t, type).find((b) => b.call?.name === "Bash" && String(b.call.input["command"]).includes(fragment));
  if (step === undefined) throw new Error(`no ${type} Bash step with ${fragment}`);
  return step;
}

describe("preset agents' Bash in the OS sandbox, through the real CLI", () => {
  let env: CliEnv;
  let model: ModelServer;
  let app: OrchestrationApp;
  let outside: string;
  let finished: Transcript;
  const done = "Conductor done.";

  // What the coder runs, in order, after its plan is approved. The package.json test script is
  // what no reader of `npm test` sees: the kernel alone stands between it and the files.
  const commands = {
    inside: "echo made-inside > inside.txt",
    arithmetic: (o: string) => `x='a[$(echo escaped > ${o}/arith.txt)]'; echo $((x))`,
    toolchain: "cargo new --vcs none ../escaped-crate",
    gitConfig: "echo '[core] fsmonitor = touch /tmp/pwned' >> .git/config",
    gitHook: "echo 'touch /tmp/pwned' > .git/hooks/pre-commit",
    npmTest: "npm test",
  };
  const script = (o: string) =>
    [
      `echo via-npm > ${o}/npm.txt`,
      "echo hook > .git/hooks/post-checkout",
      "echo x > link-out/through-link.txt",
      "echo '{}' > .mcp.json",
      "curl -sS -m 20 -D - -o /dev/null http://example.com 2>&1 | grep -i '^x-proxy-error' || echo network-not-refused",
      "echo npm-script-ran",
    ].join("; ");

  beforeAll(async () => {
    env = await createCliEnv({ baseUrl: "http://127.0.0.1:1", cwdName: "sandbox-enforcement" });
    outside = path.join(env.home, "outside");
    fs.mkdirSync(outside);
    git(env.cwd, "init", "-q");
    // The committed package.json is what an agent's worktree starts from: its test script writes
    // its own folder and the main workspace, which only the kernel sees.
    const worktreeScript = `echo w > in-worktree.txt; echo m > ${path.join(env.cwd, "from-worktree.txt")}; echo worktree-script-ran`;
    fs.writeFileSync(path.join(env.cwd, "package.json"), JSON.stringify({ name: "victim", version: "1.0.0", scripts: { lint: worktreeScript } }));
    git(env.cwd, "add", "package.json");
    git(env.cwd, "commit", "-q", "-m", "start");
    fs.symlinkSync(outside, path.join(env.cwd, "link-out"));
    const pkg = JSON.stringify({ name: "victim", version: "1.0.0", scripts: { test: script(outside) } }, null, 2);
    model = await startModelServer({
      main: [
        { blocks: [agentCall("Build it", "[[CODER]] build", { subagent_type: "coder", run_in_background: false })] },
        { blocks: [agentCall("Look around", "[[SCOUT]] look", { subagent_type: "scout", run_in_background: false })] },
        { blocks: [agentCall("Build it isolated", "[[ISOLATED]] build", { subagent_type: "coder", run_in_background: false, isolation: "worktree" })] },
        { blocks: [text(done)] },
      ],
      CODER: [
        { blocks: [{ type: "tool_use", name: SUBMIT, input: { goal: "Try the sandbox", steps: ["Run the commands"] } }] },
        { blocks: [bashCall(commands.inside, "Write inside")] },
        { blocks: [bashCall(commands.arithmetic(outside), "Arithmetic")] },
        { blocks: [bashCall(commands.toolchain, "Toolchain option")] },
        { blocks: [bashCall(commands.gitConfig, "Git config")] },
        { blocks: [bashCall(commands.gitHook, "Git hook")] },
        // Claude Code writes a file that is there only after reading it.
        { blocks: [{ type: "tool_use", name: "Read", input: { file_path: path.join(env.cwd, "package.json") } }] },
        { blocks: [{ type: "tool_use", name: "Write", input: { file_path: path.join(env.cwd, "package.json"), content: pkg } }] },
        { blocks: [bashCall(commands.npmTest, "Run the tests")] },
        { blocks: [text("Coder done.")] },
      ],
      SCOUT: [{ blocks: [bashCall("curl -sS http://example.com", "Fetch")] }, { blocks: [text("Scout done.")] }],
      ISOLATED: [
        { blocks: [{ type: "tool_use", name: SUBMIT, input: { goal: "Work in my worktree", steps: ["Write"] } }] },
        { blocks: [bashCall(`echo m > ${path.join(env.cwd, "from-worktree.txt")}`, "Write the main workspace")] },
        { blocks: [bashCall("npm run lint", "Lint in the worktree")] },
        { blocks: [text("Isolated done.")] },
      ],
    });
    env.env["ANTHROPIC_BASE_URL"] = model.url;
    app = await openOrchestrationApp(env, WaitMs);
    const { core, tabId, tab } = app;
    value(await core.service.sendPrompt(tabId, "conduct the work"));
    // The person approves each coder's plan (the conductor waits on its foreground coder).
    const approved = new Set<string>();
    const approveOpenPlans = async (): Promise<void> => {
      for (const { block } of placedBlocks(tab.transcript())) {
        for (const e of block.call?.subagent?.escalations ?? []) {
          if (e.kind !== "plan" || e.state !== "open" || e.routedTo !== "person" || approved.has(e.id)) continue;
          approved.add(e.id);
          value(await core.service.answerEscalation(tabId, e.id, { kind: "approve" }));
        }
      }
    };
    const timer = setInterval(() => void approveOpenPlans(), 100);
    try {
      finished = await tab.idleWith(done);
    } finally {
      clearInterval(timer);
    }
  }, 300_000);

  afterAll(async () => {
    await app?.close();
    await model?.close();
    await env?.cleanup();
  });

  it("runs the coder's write inside the root, in the sandbox, while the model and the card keep the command it wrote", () => {
    expect(fs.readFileSync(path.join(env.cwd, "inside.txt"), "utf8")).toBe("made-inside\n");
    const step = bashStep(finished, "coder", "made-inside");
    expect(step.call?.status).toBe("completed");
    expect(step.call?.input["command"]).toBe(commands.inside);
    expect(step.call?.permission?.decidedBy).toBe("policy:preset:coder");
    const coderRequests = JSON.stringify(model.requests.filter((r) => r.agent === "CODER").map((r) => r.body["messages"]));
    expect(coderRequests).toContain(JSON.stringify(commands.inside).slice(1, -1));
    expect(coderRequests).not.toContain("bwrap");
  });

  it("refuses each attack on the write root: the file is not there, and the model got the error", () => {
    for (const file of ["arith.txt", "npm.txt", "through-link.txt"]) expect(fs.existsSync(path.join(outside, file)), file).toBe(false);
    expect(fs.existsSync(path.join(env.home, "code", "escaped-crate"))).toBe(false);
    expect(fs.readFileSync(path.join(env.cwd, ".git", "config"), "utf8")).not.toContain("fsmonitor");
    expect(fs.existsSync(path.join(env.cwd, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(fs.existsSync(path.join(env.cwd, ".git", "hooks", "post-checkout"))).toBe(false);
    // Written by nothing, and what bubblewrap mounted over was cleaned up after the commands.
    expect(fs.existsSync(path.join(env.cwd, ".mcp.json"))).toBe(false);
    for (const fragment of ["$((x))", "cargo new", ".git/config", ".git/hooks/pre-commit"]) {
      expect(bashStep(finished, "coder", fragment).call?.result?.isError, fragment).toBe(true);
    }
  });

  it("lets the policy engine refuse first where it can read the line, with its reason", () => {
    for (const fragment of ["$((x))", "cargo new", ".git/config", ".git/hooks/pre-commit"]) {
      const step = bashStep(finished, "coder", fragment);
      expect(step.call?.status, fragment).toBe("denied");
      expect(step.call?.permission?.decidedBy, fragment).toMatch(/^policy:preset:coder\//);
    }
    expect(bashStep(finished, "coder", ".git/config").call?.result?.text).toContain("protected even inside the write root");
    const curl = bashStep(finished, "scout", "curl");
    expect(curl.call).toMatchObject({ status: "denied", permission: { decidedBy: "policy:preset:scout/exec" } });
  });

  it("lets the coder run npm test, whose script the kernel holds: no write outside, to git's hooks or through a link, no network", () => {
    const step = bashStep(finished, "coder", "npm test");
    expect(step.call?.permission?.decidedBy).toBe("policy:preset:coder");
    const output = step.call?.result?.text ?? "";
    expect(output).toContain("npm-script-ran");
    expect(output).toMatch(/Read-only file system|Permission denied/);
    expect(output).toMatch(/X-Proxy-Error: blocked/i);
    expect(output).not.toMatch(/^network-not-refused$/m);
  });

  it("gives an agent in a worktree of its own only that worktree to write: the policy says so where it reads the line, the kernel holds the rest", () => {
    const direct = bashStep(finished, "coder", "from-worktree.txt");
    expect(direct.call).toMatchObject({ status: "denied", permission: { decidedBy: "policy:preset:coder/write" } });
    expect(direct.call?.result?.text).toMatch(/agent-[0-9a-f]+ .*from-worktree\.txt is outside|outside/);
    const script = bashStep(finished, "coder", "npm run lint");
    expect(script?.call?.result?.text).toContain("worktree-script-ran");
    expect(script?.call?.result?.text).toMatch(/from-worktree\.txt: Read-only file system/);
    expect(fs.existsSync(path.join(env.cwd, "from-worktree.txt"))).toBe(false);
    const worktrees = path.join(env.cwd, ".claude", "worktrees");
    const made = fs.readdirSync(worktrees).filter((name) => fs.existsSync(path.join(worktrees, name, "in-worktree.txt")));
    expect(made).toHaveLength(1);
  });

  it("records in the audit trail that the coder's allowed commands ran in the OS sandbox", async () => {
    const rows = await app.auditRows<{ kind: string; toolName?: string; preset?: string; decision?: string; inputDigest?: string; protection?: string }>(finished.sessionId);
    const bash = rows.filter((r) => r.kind === "decision" && r.toolName === "Bash" && r.preset === "coder");
    expect(bash.find((r) => r.inputDigest?.includes("made-inside"))).toMatchObject({ decision: "allow", protection: "os-sandbox" });
    expect(bash.find((r) => r.inputDigest?.includes("npm test"))).toMatchObject({ decision: "allow", protection: "os-sandbox" });
    expect(bash.find((r) => r.inputDigest?.includes(".git/config"))).toMatchObject({ decision: "deny" });
    expect(bash.find((r) => r.inputDigest?.includes(".git/config"))).not.toHaveProperty("protection");
  });
});
