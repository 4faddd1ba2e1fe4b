// `baton sessions`: every past Claude Code session under the projects folder, newest first.
// Reads only; never writes under ~/.claude.

import { parseArgs } from "node:util";
import type { ForkLink } from "../../shared/api.js";
import { forkLinkOf } from "../audit/auditForks.js";
import { defaultDbPath } from "../platform/dbPath.js";
import { resolveProjectsDir } from "../platform/projectsDir.js";
import { listSessionsWithProblems, type SessionSummary } from "../history/index.js";
import { terminalJson, terminalText } from "../../shared/terminalText.js";
import { readForkLinks } from "./auditFile.js";
import { ExitCode, terminalIO, type CommandIO } from "./commandIO.js";

const HELP = `Usage: baton sessions [--projects-dir <dir>] [--db <file>] [--json]

Lists past Claude Code sessions, newest first: id, last activity, prompts, subagents, size, title.
Only each file's first and last lines are read, so what only the whole file could tell is marked:
a big session's prompt count shows as "-", so does a subagent count its ends cannot settle, and a
title that a rename in the unread middle would replace ends in " *" ("titleMayChange" in JSON).
The app's search index, which reads every line, fills them in.
A session Baton forked from another's prompt says so after its title: "(fork of <session>)"
("forkedFrom": the session and the prompt's uuid, in JSON). The CLI's files do not record it;
Baton's audit trail does.

Options:
  --projects-dir <dir>    History directory (default: $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects)
  --db <file>             The index database (the audit trail is audit.sqlite in its folder), or
                          audit.sqlite itself (default: $XDG_CONFIG_HOME/baton/history.db or
                          ~/.config/baton/history.db)
  --json                  Print the list as JSON
`;

export async function run(args: readonly string[], terminal: CommandIO): Promise<number> {
  // Titles, cwd, prompts and tool text come from files anyone could have written.
  const io = terminalIO(terminal);
  let values: { "projects-dir"?: string; db?: string; json?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: { "projects-dir": { type: "string" }, db: { type: "string" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    io.stderr(`baton sessions: ${error instanceof Error ? error.message : String(error)}\n\n${HELP}`);
    return ExitCode.usage;
  }
  if (values.help === true) {
    io.stdout(HELP);
    return ExitCode.ok;
  }
  const dir = resolveProjectsDir(values["projects-dir"] === undefined ? {} : { override: values["projects-dir"] });
  const [{ sessions: listed, problems }, forks] = await Promise.all([listSessionsWithProblems(dir), readForkLinks(values.db ?? defaultDbPath(), io, "sessions")]);
  for (const problem of problems) io.stderr(`baton sessions: ${problem.path}: ${problem.message}\n`);
  const sessions = listed.map((s): ListedSession => {
    const fork = forks.get(s.sessionId);
    return fork === undefined ? s : { ...s, forkedFrom: forkLinkOf(fork) };
  });
  if (values.json === true) {
    io.stdout(`${terminalJson({ projectsDir: dir, sessions }, 2)}\n`);
    return ExitCode.ok;
  }
  if (sessions.length === 0) {
    io.stdout(`No sessions under ${dir}\n`);
    return ExitCode.ok;
  }
  io.stdout(renderTable(sessions));
  return ExitCode.ok;
}

type ListedSession = SessionSummary & { readonly forkedFrom?: ForkLink };

function renderTable(sessions: readonly ListedSession[]): string {
  const rows = sessions.map((s) => [
    s.sessionId,
    (s.lastTimestamp ?? new Date(s.modifiedMs).toISOString()).replace("T", " ").slice(0, 16),
    s.promptCount === undefined ? "-" : String(s.promptCount),
    s.subagentCount === undefined ? "-" : String(s.subagentCount),
    formatSize(s.sizeBytes),
    s.cwd ?? s.project,
    `${s.title}${s.titleMayChange === true ? " *" : ""}${s.forkedFrom !== undefined ? ` (fork of ${s.forkedFrom.sessionId})` : ""}`,
  ].map(cell));
  const header = ["SESSION", "LAST", "PROMPTS", "AGENTS", "SIZE", "CWD", "TITLE"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join("  ").trimEnd();
  return `${[line(header), ...rows.map(line)].join("\n")}\n`;
}

/** One table cell: neutralised before the widths are measured, and on one line. */
function cell(text: string): string {
  return terminalText(text).replace(/[\n\t]/g, " ");
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
