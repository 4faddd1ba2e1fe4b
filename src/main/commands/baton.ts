// `baton <command>`: the headless command line's dispatcher. Each subcommand lives in its own module
// next to this file and is imported only when run, so one broken or missing command cannot stop the
// others (or `baton --help`) from working.
import { readFileSync } from "node:fs";
import path from "node:path";
import { batonPackageDir } from "../cli/batonPackageDir.js";
import { ExitCode, processIO, type CommandIO, type CommandRun } from "./commandIO.js";

export interface CommandSpec {
  readonly name: string;
  /** Argument synopsis for the usage text, e.g. `<stream.jsonl> [--json]`. */
  readonly synopsis: string;
  /** One line for `baton --help`. */
  readonly summary: string;
  /** Where the module is, for error messages. */
  readonly module: string;
  readonly load: () => Promise<unknown>;
}

/** A spec whose module is imported (relative to this file) on first use. */
export function lazyCommand(name: string, module: string, synopsis: string, summary: string): CommandSpec {
  // A non-literal specifier keeps a not-yet-written command from failing the typecheck; the
  // module's shape is checked at run time instead (loadRun).
  return { name, module, synopsis, summary, load: () => import(module) };
}

/** Add a command here once its module exists; help lists exactly this table. */
export const COMMANDS: readonly CommandSpec[] = [
  lazyCommand("doctor", "./doctor.js", "", "Check that Baton can run here: the claude CLI, the history directory, Node"),
  lazyCommand(
    "replay",
    "./replay.js",
    "<stream.jsonl> [--stdin <stdin.jsonl>] [--json]",
    "Rebuild a session's transcript from a recorded stream-json file and print it",
  ),
  lazyCommand("sessions", "./sessions.js", "[--projects-dir <dir>] [--json]", "List past Claude Code sessions, newest first"),
  lazyCommand(
    "export",
    "./export.js",
    "<sessionId | file.jsonl> [--projects-dir <dir>] [--json]",
    "Print a past session with every subagent's transcript loaded",
  ),
  lazyCommand(
    "index",
    "./indexCommand.js",
    "[--projects-dir <dir>] [--db <file>] [--json]",
    "Build or refresh the search index of Claude Code history",
  ),
  lazyCommand(
    "search",
    "./search.js",
    "<query> [--projects-dir <dir>] [--db <file>] [--limit N] [--json]",
    "Full-text search over all history, subagents included",
  ),
  lazyCommand(
    "audit",
    "./audit.js",
    "<sessionId> [--db <file>] [--json]",
    "Print a session's audit trail: each tool call's decision, the rule that decided, interrupts",
  ),
  lazyCommand(
    "policy",
    "./policy.js",
    "<preset|main> <toolName> '<input json>' [--cwd <dir>] [--orchestration] [--json] | --list | --reset-presets",
    "What the policy engine decides for a tool call, and why; the presets in force",
  ),
  lazyCommand(
    "sandbox",
    "./sandbox.js",
    "<preset> [--cwd <dir>] [--worktree <dir>] -- <command…>",
    "Run a command as a preset's agent would: Baton's policy first, then the OS sandbox",
  ),
  lazyCommand(
    "worktrees",
    "./worktrees.js",
    "[remove|diff|merge <path>] [--rescue] [--repo <dir>] [--projects-dir <dir>] [--json]",
    "List the repository's git worktrees (agents' included), remove one without losing a change, diff or merge it",
  ),
  lazyCommand(
    "web",
    "./web.js",
    "[--port N] [--projects-dir <dir>] [--db <file>] [--no-index] [--claude <path>] [--orchestration] | --new-link [--port N]",
    "Serve Baton's UI to a browser on this machine (127.0.0.1, token-protected)",
  ),
  lazyCommand("hook", "./hook.js", "", "Run by a `baton claude` session's hooks: ask the running Baton, else the terminal asks"),
  lazyCommand(
    "claude",
    "./claudeCommand.js",
    "[--orchestration] [claude arguments…]",
    "Start your own claude in this terminal with Baton's hooks: Baton sees and answers its permission requests",
  ),
];

/** Baton's package.json's version, found from this module whether it runs as source or bundled (out/cli). */
export function version(): string {
  const dir = batonPackageDir();
  if (dir === undefined) return "unknown";
  const pkg: unknown = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
  const value = typeof pkg === "object" && pkg !== null ? (pkg as { version?: unknown }).version : undefined;
  return typeof value === "string" ? value : "unknown";
}

export function usage(commands: readonly CommandSpec[]): string {
  const width = Math.max(...commands.map((c) => c.name.length), "help".length);
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  const synopses = commands
    .filter((c) => c.synopsis !== "")
    .map((c) => `  baton ${c.name} ${c.synopsis}`);
  return [
    "Usage: baton <command> [arguments]",
    "",
    "Commands:",
    ...lines,
    `  ${"help".padEnd(width)}  Show this help, or a command's own help: baton help <command>`,
    "",
    ...(synopses.length > 0 ? ["Arguments:", ...synopses, ""] : []),
    "Options:",
    "  -h, --help     Show this help",
    "  -v, --version  Print Baton's version",
    "",
  ].join("\n");
}

function isHelp(arg: string | undefined): boolean {
  return arg === undefined || arg === "help" || arg === "--help" || arg === "-h";
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message.split("\n")[0] ?? error.name : String(error);
}

/** True when the command's own module is absent (not when something it imports is). */
function isOwnModuleMissing(error: unknown, module: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : "";
  const notFound = code === "ERR_MODULE_NOT_FOUND" || /Cannot find module|Failed to load url|Does the file exist/i.test(message);
  const stem = module.replace(/^.*\//, "").replace(/\.js$/, "");
  return notFound && message.includes(`${stem}.`);
}

type Loaded = { readonly ok: true; readonly run: CommandRun } | { readonly ok: false; readonly message: string };

async function loadRun(spec: CommandSpec): Promise<Loaded> {
  let mod: unknown;
  try {
    mod = await spec.load();
  } catch (error) {
    const why = isOwnModuleMissing(error, spec.module) ? "its module is missing" : "its module failed to load";
    return { ok: false, message: `the "${spec.name}" command is not available: ${why} (${spec.module}): ${describeError(error)}` };
  }
  const run = (mod as { run?: unknown } | null)?.run;
  if (typeof run !== "function") {
    return { ok: false, message: `the "${spec.name}" command is broken: ${spec.module} does not export run(args, io)` };
  }
  return { ok: true, run: run as CommandRun };
}

async function runCommand(spec: CommandSpec, args: readonly string[], io: CommandIO): Promise<number> {
  const loaded = await loadRun(spec);
  if (!loaded.ok) {
    io.stderr(`baton: ${loaded.message}\n`);
    return ExitCode.failure;
  }
  try {
    const code = await loaded.run(args, io);
    return Number.isInteger(code) ? code : ExitCode.failure;
  } catch (error) {
    io.stderr(`baton ${spec.name}: ${describeError(error)}\n`);
    return ExitCode.failure;
  }
}

export async function main(
  argv: readonly string[],
  io: CommandIO = processIO(),
  commands: readonly CommandSpec[] = COMMANDS,
): Promise<number> {
  const [first, ...rest] = argv;
  if (first === "--version" || first === "-v") {
    io.stdout(`baton ${version()}\n`);
    return ExitCode.ok;
  }
  const find = (name: string | undefined): CommandSpec | undefined => commands.find((c) => c.name === name);
  if (isHelp(first)) {
    const topic = first === "help" ? rest[0] : undefined;
    if (topic === undefined) {
      io.stdout(usage(commands));
      return ExitCode.ok;
    }
    const spec = find(topic);
    if (spec) return runCommand(spec, ["--help"], io);
    io.stderr(`baton: no help for unknown command "${topic}"\n\n${usage(commands)}`);
    return ExitCode.usage;
  }
  const spec = find(first);
  if (!spec) {
    const what = first?.startsWith("-") ? `unknown option "${first}"` : `unknown command "${first}"`;
    io.stderr(`baton: ${what}\n\n${usage(commands)}`);
    return ExitCode.usage;
  }
  return runCommand(spec, rest, io);
}
