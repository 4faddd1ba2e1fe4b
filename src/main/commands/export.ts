// `baton export <sessionId | file.jsonl>`: a past session restored through the hub, with every
// subagent's own transcript loaded, as a readable tree, (--json) the Transcript model, or (--format)
// one Markdown or self-contained HTML file (history/exportFile.ts, shared/export).

import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { exportSessionFile, fullTranscript } from "../history/index.js";
import { ExportFormats, type ExportFormat } from "../../shared/export/exportTypes.js";
import { HistoryError } from "../history/index.js";
import { sessionIdFromPath } from "../platform/projectsDir.js";
import { resolveSessionFile, restoreSession } from "../history/index.js";
import { renderTranscriptTree } from "../hub/transcriptTree.js";
import { forkLinkOf, type SessionAudit } from "../audit/audit.js";
import { createAuditReader } from "../store/auditTrail.js";
import { auditDbPath, defaultDbPath } from "../platform/dbPath.js";
import { openStore } from "../store/storeClient.js";
import { terminalJson } from "../../shared/terminalText.js";
import { ExitCode, terminalIO, type CommandIO } from "./commandIO.js";
import { reportAuditMoved } from "./storeNotices.js";

const HELP = `Usage: baton export <sessionId | path/to/session.jsonl> [--project=<folder>] [--projects-dir <dir>] [--db <file>]
                    [--json | --format md|html [--no-tool-outputs] [--no-thinking] [--output <file>]]

Restores a past Claude Code session from its JSONL history (main transcript and every
subagent's sidechain) and prints it: a readable tree, with --json the Transcript model, or with
--format one Markdown or self-contained HTML file (no script, nothing loaded from elsewhere; each
subagent a folded section, at every depth; your home folder written as ~).
Permission decisions and interrupts Baton recorded (audit.sqlite beside the index) show as
they did in the app, and a fork Baton made names the session and prompt it was forked from.
A session id found in two project folders (a copied history) is refused, naming both files:
give one of them, or its folder with --project.

Options:
  --project=<folder>      The session id's project folder: its name, as "baton search" shows it
                          (with "=": the CLI's folder names start with a dash)
  --projects-dir <dir>    History directory (default: $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects)
  --db <file>             Index database; the audit trail is audit.sqlite in its folder
                          (default: $XDG_CONFIG_HOME/baton/history.db or ~/.config/baton/history.db)
  --json                  Print {transcript, problems} as JSON
  --format md|html        Print (or write) the session as Markdown or as one HTML file
  --no-tool-outputs       With --format: leave out what tools gave back (the calls stay)
  --no-thinking           With --format: leave out the model's thinking
  --output <file>         With --format: write to this file (never over an existing one)
`;

interface Values {
  "projects-dir"?: string;
  project?: string;
  db?: string;
  json?: boolean;
  format?: string;
  "no-tool-outputs"?: boolean;
  "no-thinking"?: boolean;
  output?: string;
  help?: boolean;
}

export async function run(args: readonly string[], terminal: CommandIO): Promise<number> {
  // Titles, cwd, prompts and tool text come from files anyone could have written.
  const io = terminalIO(terminal);
  let values: Values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...args],
      options: {
        "projects-dir": { type: "string" },
        project: { type: "string" },
        db: { type: "string" },
        json: { type: "boolean" },
        format: { type: "string" },
        "no-tool-outputs": { type: "boolean" },
        "no-thinking": { type: "boolean" },
        output: { type: "string", short: "o" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: true,
    }));
  } catch (error) {
    io.stderr(`baton export: ${error instanceof Error ? error.message : String(error)}\n\n${HELP}`);
    return ExitCode.usage;
  }
  if (values.help === true) {
    io.stdout(HELP);
    return ExitCode.ok;
  }
  const formatProblem = checkFormat(values);
  if (formatProblem !== undefined) {
    io.stderr(`baton export: ${formatProblem}\n\n${HELP}`);
    return ExitCode.usage;
  }
  const target = positionals[0];
  if (target === undefined || positionals.length > 1) {
    io.stderr(`baton export: give one session id or .jsonl path\n\n${HELP}`);
    return ExitCode.usage;
  }
  if (values.project !== undefined && (target.endsWith(".jsonl") || target.includes("/") || target.includes(path.sep))) {
    io.stderr(`baton export: --project picks the folder of a session id; a file's path names its folder already\n\n${HELP}`);
    return ExitCode.usage;
  }
  let file: string;
  try {
    file = await resolveSessionFile(target, values["projects-dir"], values.project);
  } catch (error) {
    if (error instanceof HistoryError) {
      io.stderr(`baton export: ${error.message}\n`);
      return error.code === "not_found" || error.code === "ambiguous" ? ExitCode.usage : ExitCode.failure;
    }
    throw error;
  }
  const audit = await readAudit(values.db ?? defaultDbPath(), sessionIdFromPath(file), io);
  if (values.format !== undefined) return exportAs(values.format as ExportFormat, file, values, audit, io);
  let restored;
  try {
    restored = await restoreSession(file, {
      loadSidechains: true,
      ...(audit !== undefined ? { audit } : {}),
      ...(values["projects-dir"] !== undefined ? { projectsDir: values["projects-dir"] } : {}),
    });
  } catch (error) {
    return historyFailure(error, io);
  }
  const transcript = fullTranscript(restored.session);
  // A fork Baton made: its file names the origin nowhere, the audit trail does.
  const forkedFrom = audit?.forkedFrom === undefined ? undefined : forkLinkOf(audit.forkedFrom);
  if (values.json === true) {
    io.stdout(`${terminalJson({ transcript, problems: restored.problems, ...(forkedFrom !== undefined ? { forkedFrom } : {}) }, 2)}\n`);
    return ExitCode.ok;
  }
  if (forkedFrom !== undefined) io.stdout(`Forked from ${forkedFrom.sessionId} at prompt ${forkedFrom.promptUuid}\n`);
  io.stdout(renderTranscriptTree(transcript));
  for (const problem of restored.problems) io.stderr(`baton export: ${problem.path}: ${problem.message}\n`);
  return ExitCode.ok;
}

/** What is wrong with the --format options, or undefined. */
function checkFormat(values: Values): string | undefined {
  const format = values.format;
  if (format !== undefined && !(ExportFormats as readonly string[]).includes(format)) return `--format is md or html, not ${JSON.stringify(format)}`;
  if (format !== undefined && values.json === true) return "give --json or --format, not both";
  if (format === undefined && (values["no-tool-outputs"] === true || values["no-thinking"] === true || values.output !== undefined)) {
    return "--no-tool-outputs, --no-thinking and --output go with --format md|html";
  }
  return undefined;
}

/** The session as one Markdown or HTML file, printed or written to --output. */
async function exportAs(format: ExportFormat, file: string, values: Values, audit: SessionAudit | undefined, io: CommandIO): Promise<number> {
  let exported;
  try {
    exported = await exportSessionFile(file, { format, toolOutputs: values["no-tool-outputs"] !== true, thinking: values["no-thinking"] !== true }, {
      home: os.homedir(),
      ...(audit !== undefined ? { audit } : {}),
      ...(values["projects-dir"] !== undefined ? { projectsDir: values["projects-dir"] } : {}),
    });
  } catch (error) {
    return historyFailure(error, io);
  }
  for (const problem of exported.problems) io.stderr(`baton export: ${problem.path}: ${problem.message}\n`);
  if (values.output === undefined) {
    // The exporters write every control, bidi and invisible character visibly: terminalIO changes nothing.
    io.stdout(exported.file.text);
    return ExitCode.ok;
  }
  try {
    await writeFile(values.output, exported.file.text, { flag: "wx" });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    io.stderr(`baton export: cannot write ${values.output}: ${code === "EEXIST" ? "it exists already (nothing was written over it)" : String(error)}\n`);
    return ExitCode.failure;
  }
  io.stderr(`baton export: wrote ${values.output}\n`);
  return ExitCode.ok;
}

/**
 * The session's audit trail through the store worker, as the app reads it. No audit file: nothing
 * was recorded (and no store is created). A trail that cannot be read is a warning; the export
 * goes on with what the disk says.
 */
async function readAudit(dbPath: string, sessionId: string, io: CommandIO): Promise<SessionAudit | undefined> {
  if (!existsSync(auditDbPath(dbPath))) return undefined;
  const warn = (what: string, error: unknown): void => io.stderr(`baton export: could not read the audit trail (${what}): ${String(error)}\n`);
  let store;
  try {
    store = await openStore({ dbPath });
  } catch (error) {
    warn(dbPath, error);
    return undefined;
  }
  try {
    await reportAuditMoved(store, io, "export");
    return await createAuditReader(store, warn)(sessionId);
  } finally {
    await store.close();
  }
}

/** A session that could not be read, said on stderr as the exit code tells it; anything else is thrown on. */
function historyFailure(error: unknown, io: CommandIO): number {
  if (!(error instanceof HistoryError)) throw error;
  io.stderr(`baton export: ${error.message}\n`);
  return error.code === "not_found" ? ExitCode.usage : ExitCode.failure;
}
