// `baton doctor`: can this machine run Baton? Finds the claude CLI the person uses (and says how:
// which setting, which PATH entry, which install place), asks its version with a short timeout,
// compares it with the versions Baton is tested with, checks the projects directory Baton reads
// history from, the Node version, the presets and rules in force (a broken presets file is a
// note: the built-ins run meanwhile), and what holds preset agents' commands (the OS sandbox, or
// what to install for it). It says apart what works without `claude` (history, search, web mode)
// and what needs it (live sessions); the exit code says whether live sessions can start: 0 they
// can, 1 they cannot (no usable `claude`, or a Node too old for Baton at all), 2 a usage error. A
// CLI of an untested version is a note, not a failure.

import { readdirSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { describeVerdict, TestedCliVersions, testedVerdict, type TestedVerdict } from "../../shared/testedCliVersions.js";
import { terminalJson } from "../../shared/terminalText.js";
import { claudeVersion } from "../cli/claudeVersion.js";
import { describeSearch, describeSource, findClaude, type FindClaudeResult } from "../cli/findClaude.js";
import { defaultSettingsFile, readOrchestration, readPolicyCheckOnly } from "../platform/settingsFile.js";
import { presetsFileBeside, readPresetsFile } from "../policy/presets/presetsFile.js";
import { RuleBook, rulesFileBeside } from "../policy/rules/ruleBook.js";
import { connect } from "../platform/sqlite/openDatabase.js";
import { probeSandboxSupport } from "../sandbox/sandboxSupport.js";
import { ExitCode, terminalIO, type CommandIO } from "./commandIO.js";

const HELP = `Usage: baton doctor [--claude <path>] [--projects-dir <dir>] [--json]

Checks that Baton can run: the claude CLI (where it was found, how, and its version against the
versions Baton is tested with), the projects directory Baton reads history from, and the Node
version. History, search and web mode work without claude; live sessions need it.

Exit codes: 0 live sessions can start; 1 they cannot (the report says why, and whether history,
search and web mode work meanwhile); 2 a usage error.

Options:
  --claude <path>         Use this claude binary (default: BATON_CLAUDE_PATH, then PATH, then the
                          usual install places; never the copy in Baton's own node_modules)
  --projects-dir <dir>    History directory (default: $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects)
  --json                  Print the report as JSON
`;

const MIN_NODE_MAJOR = 20;
/** `claude --version` answers in about a second; a binary silent this long is reported as hung. */
const VersionTimeoutMs = 10_000;

/** What tests change: where to look and how long to wait. */
export interface DoctorOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly homeDir?: string;
  readonly installDirs?: readonly string[];
  readonly versionTimeoutMs?: number;
  /** Baton's settings file; presets.json and rules.json are beside it (default: web mode's). */
  readonly settingsFile?: string;
}

interface Report {
  /** Live sessions can start: the exit code (0 or 1). */
  readonly ok: boolean;
  /** What works without claude: history and web mode (Node), and search (SQLite in this Node). */
  readonly browse: { readonly ok: boolean; readonly search: boolean; readonly problem?: string };
  /** Live sessions: a usable claude (and a Node Baton runs on). */
  readonly live: { readonly ok: boolean; readonly problem?: string };
  readonly claude: {
    readonly found: boolean;
    readonly path?: string;
    readonly source?: string;
    /** How it was found, in words ("PATH entry 2, /usr/local/bin"). */
    readonly foundVia?: string;
    readonly pathEntry?: string;
    readonly pathIndex?: number;
    readonly version?: string;
    readonly versionError?: string;
    /** The version against the tested ones: "tested", "between", "older", "newer", "unknown". */
    readonly tested?: TestedVerdict;
    readonly testedVersions: readonly string[];
    /** Copies passed over on purpose (Baton's own, for its tests). */
    readonly skipped: readonly string[];
    readonly searched: readonly string[];
  };
  readonly projects: { readonly dir: string; readonly source: string; readonly exists: boolean; readonly projectCount: number };
  readonly node: { readonly version: string; readonly ok: boolean };
  readonly policy: { readonly orchestration: boolean; readonly presets: string; readonly presetsProblem?: string; readonly rulesProblem?: string; readonly settingsProblem?: string };
  /** What holds preset agents' commands in orchestration mode (issue 31). */
  readonly sandbox: { readonly state: "os" | "policy-only" | "unavailable"; readonly message: string; readonly missing: readonly string[] };
  readonly problems: readonly string[];
  readonly notes: readonly string[];
}

export async function run(args: readonly string[], terminal: CommandIO, options: DoctorOptions = {}): Promise<number> {
  // Paths and version text come from the machine (PATH, a binary's output): no escape reaches the terminal.
  const io = terminalIO(terminal);
  let values: { claude?: string; "projects-dir"?: string; json?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        claude: { type: "string" },
        "projects-dir": { type: "string" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    io.stderr(`baton doctor: ${error instanceof Error ? error.message : String(error)}\n\n${HELP}`);
    return ExitCode.usage;
  }
  if (values.help) {
    io.stdout(HELP);
    return ExitCode.ok;
  }
  const report = await diagnose(values.claude, values["projects-dir"], options);
  io.stdout(values.json ? terminalJson(report, 2) + "\n" : formatReport(report));
  return report.ok ? ExitCode.ok : ExitCode.failure;
}

async function diagnose(claudeOption: string | undefined, projectsOption: string | undefined, options: DoctorOptions): Promise<Report> {
  const problems: string[] = [];
  const notes: string[] = [];
  const env = options.env ?? process.env;
  const found = findClaude({
    ...(claudeOption !== undefined ? { explicitPath: claudeOption } : {}),
    env,
    ...(options.homeDir !== undefined ? { homeDir: options.homeDir } : {}),
    ...(options.installDirs !== undefined ? { installDirs: options.installDirs } : {}),
  });
  const claude = await inspectClaude(found, options, problems, notes);

  const projects = inspectProjects(projectsOption, env, options.homeDir);
  if (!projects.exists) notes.push(`${projects.dir} does not exist yet: no Claude Code history to show (it appears after the first session).`);

  const nodeMajor = Number(process.versions.node.split(".")[0]);
  const node = { version: process.versions.node, ok: nodeMajor >= MIN_NODE_MAJOR };
  if (!node.ok) problems.push(`Node ${process.versions.node} is too old; Baton needs Node ${MIN_NODE_MAJOR} or newer.`);

  const policy = inspectPolicy(options.settingsFile ?? defaultSettingsFile(), options.homeDir);
  // Baton runs with the built-in presets (and without the broken rules file) meanwhile: notes, not problems.
  if (policy.presetsProblem !== undefined) notes.push(policy.presetsProblem);
  if (policy.rulesProblem !== undefined) notes.push(policy.rulesProblem);
  if (policy.settingsProblem !== undefined) notes.push(policy.settingsProblem);

  // Without a sandbox Baton runs, but refuses preset agents' Bash: a note, said loudest in orchestration mode.
  const sandbox = await inspectSandbox(options.settingsFile ?? defaultSettingsFile(), env);
  if (sandbox.state !== "os") notes.push(`${sandbox.message}${sandbox.state === "unavailable" ? "; meanwhile orchestration mode refuses preset agents' Bash (or turn on policy check only)" : ""}`);

  const browse = inspectBrowse(node.ok);
  if (browse.problem !== undefined && node.ok) notes.push(browse.problem);
  const live = { ok: problems.length === 0, ...(problems.length > 0 ? { problem: problems[0] } : {}) };
  return { ok: live.ok, browse, live, claude, projects, node, policy, sandbox, problems, notes };
}

/** History and web mode need only a Node Baton runs on; search needs better-sqlite3 loading in it. */
function inspectBrowse(nodeOk: boolean): Report["browse"] {
  if (!nodeOk) return { ok: false, search: false, problem: `Node ${process.versions.node} is too old for Baton.` };
  try {
    connect(":memory:").close();
    return { ok: true, search: true };
  } catch (error) {
    const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return { ok: true, search: false, problem: `search is off: SQLite (better-sqlite3) does not load in this Node (${why}); \`npm rebuild better-sqlite3\` rebuilds it.` };
  }
}

/** The sandbox as the app would find it: on the CLI's PATH, unless the person chose policy check only. */
async function inspectSandbox(settingsFile: string, env: NodeJS.ProcessEnv): Promise<Report["sandbox"]> {
  const support = await probeSandboxSupport(env);
  if (readPolicyCheckOnly(settingsFile).policyCheckOnly) {
    return { state: "policy-only", missing: support.missing, message: `policy check only is on: preset agents' commands run without the OS sandbox (${support.message})` };
  }
  return { state: support.ok ? "os" : "unavailable", missing: support.missing, message: support.message };
}

function inspectPolicy(settingsFile: string, homeDir: string | undefined): Report["policy"] {
  const presets = readPresetsFile(presetsFileBeside(settingsFile));
  const rules = new RuleBook({ file: rulesFileBeside(settingsFile), ...(homeDir !== undefined ? { home: homeDir } : {}) });
  const saved = readOrchestration(settingsFile);
  return {
    orchestration: saved.orchestration,
    ...(saved.refused !== undefined ? { settingsProblem: saved.refused } : {}),
    presets: presets.source,
    ...(presets.problem !== undefined ? { presetsProblem: presets.problem } : {}),
    ...(rules.problem !== undefined ? { rulesProblem: rules.problem } : {}),
  };
}

async function inspectClaude(found: FindClaudeResult, options: DoctorOptions, problems: string[], notes: string[]): Promise<Report["claude"]> {
  const searched = describeSearch(found.tried);
  const skipped = found.tried.filter((c) => c.problem === "baton-own-copy").map((c) => c.path);
  const common = { testedVersions: TestedCliVersions, skipped, searched };
  if (skipped.length > 0) notes.push(`skipped ${skipped.join(", ")}: Baton's own copy of claude, kept for its tests, not the one you use.`);
  if (!found.found) {
    const explicit = found.tried.find((c) => c.source === "option" || c.source === "env");
    problems.push(
      explicit
        ? `claude not usable at ${explicit.path} (${explicit.problem ?? "unknown problem"}), set by ${explicit.source === "option" ? "--claude" : "BATON_CLAUDE_PATH"}.`
        : "claude CLI not found on PATH or in the usual install places. Install it (npm install -g @anthropic-ai/claude-code) or pass --claude <path> / set BATON_CLAUDE_PATH.",
    );
    return { found: false, ...common };
  }
  // A hung or crashing binary is reported with the rest of the report, never waited on for long.
  const version = await claudeVersion(found.path, options.versionTimeoutMs ?? VersionTimeoutMs, options.env);
  const via = describeSource(found);
  const where = {
    found: true,
    path: found.path,
    source: found.source,
    foundVia: via,
    ...(found.pathEntry !== undefined ? { pathEntry: found.pathEntry } : {}),
    ...(found.pathIndex !== undefined ? { pathIndex: found.pathIndex } : {}),
  };
  if (!version.ok) {
    problems.push(`claude at ${found.path} did not report its version (${version.reason}).`);
    return { ...where, versionError: version.reason, ...common };
  }
  const tested = testedVerdict(version.version);
  notes.push(describeVerdict(version.version));
  return { ...where, version: version.version, tested, ...common };
}

function inspectProjects(option: string | undefined, env: NodeJS.ProcessEnv, homeDir: string | undefined): Report["projects"] {
  const configDir = env.CLAUDE_CONFIG_DIR;
  const [dir, source] = option
    ? [path.resolve(option), "--projects-dir"]
    : configDir
      ? [path.join(configDir, "projects"), "CLAUDE_CONFIG_DIR"]
      : [path.join(homeDir ?? os.homedir(), ".claude", "projects"), "default"];
  let exists = false;
  let projectCount = 0;
  try {
    exists = statSync(dir).isDirectory();
    if (exists) projectCount = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).length;
  } catch {
    exists = false;
  }
  return { dir, source, exists, projectCount };
}

function verdictWord(verdict: TestedVerdict | undefined): string {
  switch (verdict) {
    case "tested":
      return "tested";
    case "between":
      return "between tested versions";
    case "older":
      return "OLDER than tested";
    case "newer":
      return "NEWER than tested";
    default:
      return "not comparable";
  }
}

function browseVerdict(browse: Report["browse"]): string {
  if (!browse.ok) return "History, search, web: cannot run here (Node too old).";
  return browse.search ? "History, search, web: work." : "History, web: work; search is off (see the note above).";
}

function liveVerdict(report: Report): string {
  if (report.ok) return "Live sessions: can start.";
  return report.claude.found && report.node.ok
    ? "Live sessions: cannot start until the problem above is fixed (exit code 1)."
    : report.node.ok
      ? "Live sessions: need `claude`, see the problem above (exit code 1)."
      : "Live sessions: cannot start until the problems above are fixed (exit code 1).";
}

function formatReport(report: Report): string {
  const { claude, projects, node } = report;
  const lines = [
    claude.found
      ? `claude:    ${claude.path} (found via ${claude.foundVia ?? claude.source})`
      : `claude:    NOT FOUND (looked in ${claude.searched.length} places)`,
    `version:   ${claude.version !== undefined ? `${claude.version} (${verdictWord(claude.tested)})` : claude.found ? `unknown (${claude.versionError ?? "?"})` : "-"}`,
    `tested:    ${claude.testedVersions.join(", ")}`,
    `projects:  ${projects.dir} (${projects.source}) ${projects.exists ? `exists, ${projects.projectCount} project folder(s)` : "does not exist"}`,
    `node:      ${node.version}${node.ok ? "" : " (too old)"}`,
    "tools:     Baton's agent tools run in-process (SDK MCP server over the control protocol, supported by every tested CLI)",
    `presets:   ${report.policy.presets}${report.policy.presetsProblem !== undefined ? " (the file is not used: built-ins in force)" : ""}; orchestration ${report.policy.orchestration ? "on" : "off"}`,
    `sandbox:   ${report.sandbox.state === "os" ? report.sandbox.message : report.sandbox.state === "policy-only" ? "policy check only (no OS sandbox)" : `none (${report.sandbox.missing.length > 0 ? `install ${report.sandbox.missing.join(", ")}` : "see the note below"})`}`,
  ];
  if (!claude.found) lines.push("", "Searched:", ...claude.searched.map((s) => `  ${s}`));
  if (report.notes.length) lines.push("", ...report.notes.map((n) => `note: ${n}`));
  if (report.problems.length) lines.push("", ...report.problems.map((p) => `problem: ${p}`));
  lines.push("", browseVerdict(report.browse), liveVerdict(report));
  return lines.join("\n") + "\n";
}
