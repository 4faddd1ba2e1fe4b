// `baton sandbox <preset> [--cwd D] [--worktree W] -- <command…>` (issue 31): runs a command
// exactly as that preset's Bash call would run in orchestration mode: the policy engine first (a
// refusal exits 126 with its reason, as a shell says "cannot execute"), then the operating
// system's sandbox built from the preset. It prints the command's output and exits with its code.
// How a person (and a test) checks what a preset may really do.

import { spawn } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import { terminalText } from "../../shared/terminalText.js";
import { defaultSettingsFile } from "../platform/settingsFile.js";
import { decidePolicy, policyContext } from "../policy/decidePolicy.js";
import { PolicyService } from "../policy/policyService.js";
import { sandboxPlan } from "../sandbox/sandboxPlan.js";
import { SandboxService } from "../sandbox/sandboxService.js";
import { ExitCode, type CommandIO } from "./commandIO.js";

const HELP = `Usage: baton sandbox <preset> [--cwd <dir>] [--worktree <dir>] -- <command…>

Runs a Bash command as the preset's agent would run it in orchestration mode: Baton's policy
engine decides first (a refusal prints its reason and exits 126), then the command runs inside
the operating system's sandbox made from the preset (what it may write, which hosts it may
reach). Prints the command's output and exits with its exit code. The words after -- are joined
with spaces into one Bash line, as ssh does: quote what the shell should see as one word.

Options:
  --cwd <dir>        The session's working directory, the write root (default: the current folder)
  --worktree <dir>   The agent's own worktree: then its only write root, and where the command runs
  --settings <file>  Baton's settings file (presets.json and rules.json are beside it)
`;

/** What a shell exits with when it cannot run a command: Baton's refusals use it too. */
export const RefusedExitCode = 126;

export async function run(args: readonly string[], io: CommandIO): Promise<number> {
  const dashes = args.indexOf("--");
  const own = dashes < 0 ? args : args.slice(0, dashes);
  const words = dashes < 0 ? [] : args.slice(dashes + 1);
  let values: { cwd?: string; worktree?: string; settings?: string; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...own],
      options: { cwd: { type: "string" }, worktree: { type: "string" }, settings: { type: "string" }, help: { type: "boolean", short: "h" } },
      strict: true,
      allowPositionals: true,
    }));
  } catch (error) {
    io.stderr(`baton sandbox: ${error instanceof Error ? error.message : String(error)}\n\n${HELP}`);
    return ExitCode.usage;
  }
  if (values.help === true) {
    io.stdout(HELP);
    return ExitCode.ok;
  }
  const [presetName, ...extra] = positionals;
  const command = words.join(" ");
  if (presetName === undefined || extra.length > 0 || command.trim() === "") {
    io.stderr(`baton sandbox: give the preset, then -- and the command\n\n${HELP}`);
    return ExitCode.usage;
  }
  const say = (s: string): void => io.stderr(terminalText(s));
  const sandbox = new SandboxService();
  try {
    return await runAs(presetName, command, values, sandbox, io, say);
  } finally {
    await sandbox.close();
  }
}

async function runAs(presetName: string, command: string, values: { cwd?: string; worktree?: string; settings?: string }, sandbox: SandboxService, io: CommandIO, say: (s: string) => void): Promise<number> {
  const policy = await PolicyService.open({
    settingsFile: path.resolve(values.settings ?? defaultSettingsFile()),
    orchestration: true,
    sandbox,
    log: (_level, message) => say(`baton sandbox: ${message}\n`),
  });
  const preset = policy.presets.presets.find((p) => p.name === presetName);
  if (preset === undefined) {
    say(`baton sandbox: no preset is named "${presetName}"; the presets in force are ${policy.presets.presets.map((p) => p.name).join(", ")}\n`);
    return ExitCode.usage;
  }
  const cwd = path.resolve(values.cwd ?? process.cwd());
  const worktree = values.worktree === undefined ? undefined : path.resolve(values.worktree);
  const home = process.env["HOME"] ?? "/";
  const input = { command };
  const verdict = decidePolicy(
    { agent: { kind: "subagent", agentType: preset.name }, toolName: "Bash", input },
    policyContext({ orchestration: true, presets: policy.presets, rules: policy.rules?.rulesFor("", cwd) ?? [], cwd, home, ...(worktree !== undefined ? { worktree } : {}) }),
  );
  if (verdict.decision === "deny") {
    say(`baton sandbox: refused by Baton's policy (${verdict.rule}): ${verdict.message}\n`);
    return RefusedExitCode;
  }
  if (verdict.decision === "ask") say(`baton sandbox: ${verdict.message} Running it, since you asked for it.\n`);
  const runIn = worktree ?? cwd;
  if (policy.policyCheckOnly) {
    say("baton sandbox: policy check only is on: the command runs without the OS sandbox\n");
    return runBash(command, runIn, io);
  }
  const plan = sandboxPlan({ preset, workspace: cwd, ...(worktree !== undefined ? { worktree } : {}), home, batonFiles: policy.ownFiles });
  let lease;
  try {
    lease = await sandbox.wrap(plan, command, plan.writeRoots[0] ?? runIn);
  } catch (error) {
    say(`baton sandbox: ${preset.name}'s commands run only inside the OS sandbox, and this one could not be put in it: ${error instanceof Error ? error.message : String(error)}\n`);
    return RefusedExitCode;
  }
  try {
    return await runBash(lease.command, runIn, io);
  } finally {
    lease.release();
  }
}

/** Runs a Bash line, its output passed on as it comes; the exit code, or 128 + the signal's number. */
function runBash(line: string, cwd: string, io: CommandIO): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", line], { cwd, stdio: ["inherit", "pipe", "pipe"] });
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => io.stdout(chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => io.stderr(chunk));
    child.on("error", (error) => {
      io.stderr(`baton sandbox: could not start bash: ${error.message}\n`);
      resolve(RefusedExitCode);
    });
    child.on("close", (code, signal) => resolve(code ?? 128 + signalNumber(signal)));
  });
}

function signalNumber(signal: NodeJS.Signals | null): number {
  const numbers: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15, SIGPIPE: 13 };
  return (signal !== null ? numbers[signal] : undefined) ?? 1;
}
