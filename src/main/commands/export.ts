// `baton export <sessionId | file.jsonl>`: a past session restored through the hub, with every
// subagent's own transcript loaded, as a readable tree or (--json) the Transcript model.

import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { fullTranscript } from "../history/index.js";
import { HistoryError } from "../history/index.js";
import { sessionIdFromPath } from "../platform/projectsDir.js";
import { resolveSessionFile, restoreSession } from "../history/index.js";
import { renderTranscriptTree } from "../hub/transcriptTree.js";
import type { SessionAudit } from "../audit/audit.js";
import { createAuditReader } from "../store/auditTrail.js";
import { auditDbPath, defaultDbPath } from "../platform/dbPath.js";
import { openStore } from "../store/storeClient.js";
import { terminalJson } from "../../shared/terminalText.js";
import { ExitCode, terminalIO, type CommandIO } from "./commandIO.js";
import { reportAuditMoved } from "./storeNotices.js";

const HELP = `Usage: baton export <sessionId | path/to/session.jsonl> [--project=<folder>] [--projects-dir <dir>] [--db <file>] [--json]

Restores a past Claude Code session from its JSONL history (main transcript and every
subagent's sidechain) and prints it: a readable tree, or with --json the Transcript model.
Permission decisions and interrupts Baton recorded (audit.sqlite beside the index) show as
they did in the app. A session id found in two project folders (a copied history) is refused,
naming both files: give one of them, or its folder with --project.

Options:
  --project=<folder>      The session id's project folder: its name, as "baton search" shows it
                          (with "=": the CLI's folder names start with a dash)
  --projects-dir <dir>    History directory (default: $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects)
  --db <file>             Index database; the audit trail is audit.sqlite in its folder
                          (default: $XDG_CONFIG_HOME/baton/history.db or ~/.config/baton/history.db)
  --json                  Print {transcript, problems} as JSON
`;

export async function run(args: readonly string[], terminal: CommandIO): Promise<number> {
  // Titles, cwd, prompts and tool text come from files anyone could have written.
  const io = terminalIO(terminal);
  let values: { "projects-dir"?: string; project?: string; db?: string; json?: boolean; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...args],
      options: {
        "projects-dir": { type: "string" },
        project: { type: "string" },
        db: { type: "string" },
        json: { type: "boolean" },
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
  let restored;
  try {
    restored = await restoreSession(file, {
      loadSidechains: true,
      ...(audit !== undefined ? { audit } : {}),
      ...(values["projects-dir"] !== undefined ? { projectsDir: values["projects-dir"] } : {}),
    });
  } catch (error) {
    if (error instanceof HistoryError) {
      io.stderr(`baton export: ${error.message}\n`);
      return error.code === "not_found" ? ExitCode.usage : ExitCode.failure;
    }
    throw error;
  }
  const transcript = fullTranscript(restored.session);
  if (values.json === true) {
    io.stdout(`${terminalJson({ transcript, problems: restored.problems }, 2)}\n`);
    return ExitCode.ok;
  }
  io.stdout(renderTranscriptTree(transcript));
  for (const problem of restored.problems) io.stderr(`baton export: ${problem.path}: ${problem.message}\n`);
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
