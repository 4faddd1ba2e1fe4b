// `baton doctor`: can this machine run Baton? Finds the claude CLI (and says how), asks its
// version, checks the projects directory Baton reads history from, and the Node version.
// Exit 1 when something Baton needs is missing, with what to do about it.

import { readdirSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { claudeVersion } from "../cli/claudeVersion.js";
import { describeSearch, findClaude, type FindClaudeResult } from "../cli/findClaude.js";
import { ExitCode, type CommandIO } from "./commandIO.js";

const HELP = `Usage: baton doctor [--claude <path>] [--projects-dir <dir>] [--json]

Checks that Baton can run: the claude CLI (where it was found and its version), the
projects directory Baton reads history from, and the Node version.

Options:
  --claude <path>         Use this claude binary (default: BATON_CLAUDE_PATH, PATH, node_modules, install dirs)
  --projects-dir <dir>    History directory (default: $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects)
  --json                  Print the report as JSON
`;

const MIN_NODE_MAJOR = 20;
/** The CLI version whose protocol Baton was built against (PROTOCOL.md). */
const KNOWN_CLI_VERSION = "2.1.197";

interface Report {
  readonly ok: boolean;
  readonly claude: {
    readonly found: boolean;
    readonly path?: string;
    readonly source?: string;
    readonly version?: string;
    readonly versionError?: string;
    readonly searched: readonly string[];
  };
  readonly projects: { readonly dir: string; readonly source: string; readonly exists: boolean; readonly projectCount: number };
  readonly node: { readonly version: string; readonly ok: boolean };
  readonly problems: readonly string[];
  readonly notes: readonly string[];
}

export async function run(args: readonly string[], io: CommandIO): Promise<number> {
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
  const report = await diagnose(values.claude, values["projects-dir"]);
  io.stdout(values.json ? JSON.stringify(report, null, 2) + "\n" : formatReport(report));
  return report.ok ? ExitCode.ok : ExitCode.failure;
}

async function diagnose(claudeOption: string | undefined, projectsOption: string | undefined): Promise<Report> {
  const problems: string[] = [];
  const notes: string[] = [];
  const appRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
  const found: FindClaudeResult = findClaude({
    ...(claudeOption !== undefined ? { explicitPath: claudeOption } : {}),
    searchFrom: [process.cwd(), appRoot],
  });

  let claude: Report["claude"];
  if (found.found) {
    const version = await claudeVersion(found.path);
    claude = {
      found: true,
      path: found.path,
      source: found.source,
      searched: describeSearch(found.tried),
      ...(version.ok ? { version: version.version } : { versionError: version.reason }),
    };
    if (!version.ok) problems.push(`claude at ${found.path} did not report its version (${version.reason}).`);
    else if (version.version !== KNOWN_CLI_VERSION) {
      notes.push(`claude ${version.version} differs from ${KNOWN_CLI_VERSION}, the version Baton's protocol notes describe.`);
    }
  } else {
    claude = { found: false, searched: describeSearch(found.tried) };
    const explicit = found.tried.find((c) => c.source === "option" || c.source === "env");
    problems.push(
      explicit
        ? `claude not usable at ${explicit.path} (${explicit.problem ?? "unknown problem"}), set by ${explicit.source === "option" ? "--claude" : "BATON_CLAUDE_PATH"}.`
        : "claude CLI not found. Install it (npm install -g @anthropic-ai/claude-code) or pass --claude <path> / set BATON_CLAUDE_PATH.",
    );
  }

  const projects = inspectProjects(projectsOption);
  if (!projects.exists) notes.push(`${projects.dir} does not exist yet: no Claude Code history to show (it appears after the first session).`);

  const nodeMajor = Number(process.versions.node.split(".")[0]);
  const node = { version: process.versions.node, ok: nodeMajor >= MIN_NODE_MAJOR };
  if (!node.ok) problems.push(`Node ${process.versions.node} is too old; Baton needs Node ${MIN_NODE_MAJOR} or newer.`);

  return { ok: problems.length === 0, claude, projects, node, problems, notes };
}

function inspectProjects(option: string | undefined): Report["projects"] {
  const configDir = process.env.CLAUDE_CONFIG_DIR;
  const [dir, source] = option
    ? [path.resolve(option), "--projects-dir"]
    : configDir
      ? [path.join(configDir, "projects"), "CLAUDE_CONFIG_DIR"]
      : [path.join(os.homedir(), ".claude", "projects"), "default"];
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

function formatReport(report: Report): string {
  const { claude, projects, node } = report;
  const lines = [
    claude.found
      ? `claude:    ${claude.path} (found via ${claude.source})`
      : `claude:    NOT FOUND (looked in ${claude.searched.length} places)`,
    `version:   ${claude.version ?? (claude.found ? `unknown (${claude.versionError ?? "?"})` : "-")}`,
    `projects:  ${projects.dir} (${projects.source}) ${projects.exists ? `exists, ${projects.projectCount} project folder(s)` : "does not exist"}`,
    `node:      ${node.version}${node.ok ? "" : " (too old)"}`,
  ];
  if (!claude.found) lines.push("", "Searched:", ...claude.searched.map((s) => `  ${s}`));
  if (report.notes.length) lines.push("", ...report.notes.map((n) => `note: ${n}`));
  if (report.problems.length) lines.push("", ...report.problems.map((p) => `problem: ${p}`));
  lines.push("", report.ok ? "OK: Baton can run." : "Baton cannot run until the problems above are fixed.");
  return lines.join("\n") + "\n";
}
