// `baton claude [claude arguments…]`: the person's own `claude`, interactive in this terminal, with
// Baton's hooks for this session only (claudeSettings.ts): while a Baton runs (desktop app or
// `baton web`) it sees the session and answers its permission requests; without one the
// terminal asks as usual. stdio is the terminal's; the exit code (or the signal) is claude's.
import { spawn } from "node:child_process";
import path from "node:path";
import { batonPackageDir } from "../cli/batonPackageDir.js";
import { describeSearch, findClaude } from "../cli/findClaude.js";
import { claudeHookSettings, hookCommandLine } from "./claudeSettings.js";
import { ExitCode, type CommandIO } from "./commandIO.js";

const Help = `Usage: baton claude [--orchestration] [claude arguments…]

Starts your own claude (BATON_CLAUDE_PATH, else PATH; never Baton's test copy) in this terminal,
with Baton's hooks for this session only: the running Baton (desktop app or \`baton web\`) shows
the session and answers its permission requests; with no Baton running the terminal asks as usual.
Nothing is written to ~/.claude or the project. Every argument goes to claude (claude --help lists them),
except a first --orchestration: Baton's presets then hold the session's agents, as in orchestration mode.
`;

/** The signals a terminal sends the foreground group: claude gets them itself, Baton waits for it. */
const PassedSignals: readonly NodeJS.Signals[] = ["SIGINT", "SIGQUIT"];
/** Signals sent to Baton alone (kill, a closed terminal): passed on to claude. */
const ForwardedSignals: readonly NodeJS.Signals[] = ["SIGTERM", "SIGHUP"];

export async function run(args: readonly string[], io: CommandIO): Promise<number> {
  if (args.length === 1 && (args[0] === "--help" || args[0] === "-h")) {
    io.stdout(Help);
    return ExitCode.ok;
  }
  const claude = findClaude();
  if (!claude.found) {
    io.stderr(`baton claude: claude was not found. Looked in:\n${describeSearch(claude.tried).map((l) => `  ${l}\n`).join("")}Install Claude Code, or set BATON_CLAUDE_PATH.\n`);
    return ExitCode.failure;
  }
  const packageDir = batonPackageDir();
  if (packageDir === undefined) {
    io.stderr("baton claude: Baton's package folder was not found, so its hook cannot be registered\n");
    return ExitCode.failure;
  }
  // Baton's own option comes first; everything after it is claude's, untouched.
  const orchestration = args[0] === "--orchestration";
  const claudeArgs = orchestration ? args.slice(1) : args;
  const settings = claudeHookSettings(hookCommandLine(process.execPath, path.join(packageDir, "bin", "baton.mjs"), orchestration));
  const child = spawn(claude.path, ["--settings", JSON.stringify(settings), ...claudeArgs], { stdio: "inherit" });
  const ignore = (): void => undefined;
  const forward = (signal: NodeJS.Signals): void => {
    child.kill(signal);
  };
  for (const signal of PassedSignals) process.on(signal, ignore);
  for (const signal of ForwardedSignals) process.on(signal, forward);
  const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null } | { error: Error }>((resolve) => {
    child.once("error", (error) => resolve({ error }));
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  for (const signal of PassedSignals) process.off(signal, ignore);
  for (const signal of ForwardedSignals) process.off(signal, forward);
  if ("error" in ended) {
    io.stderr(`baton claude: cannot start ${claude.path}: ${ended.error.message}\n`);
    return ExitCode.failure;
  }
  if (ended.signal !== null) {
    // Ended the way claude ended: the shell sees the same signal (and prints what it prints).
    process.kill(process.pid, ended.signal);
    return 128 + signalNumber(ended.signal);
  }
  return ended.code ?? ExitCode.failure;
}

function signalNumber(signal: NodeJS.Signals): number {
  const numbers: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 };
  return numbers[signal] ?? 1;
}
