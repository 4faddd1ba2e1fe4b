// `baton export <sessionId | file.jsonl>`: a past session restored through the hub, with every
// subagent's own transcript loaded, as a readable tree or (--json) the Transcript model.

import { parseArgs } from "node:util";
import { fullTranscript } from "../history/fullTranscript.js";
import { HistoryError } from "../history/problems.js";
import { restoreSession } from "../history/restore.js";
import { renderTranscriptTree } from "../hub/transcriptTree.js";
import { ExitCode, type CommandIO } from "./commandIO.js";

const HELP = `Usage: baton export <sessionId | path/to/session.jsonl> [--projects-dir <dir>] [--json]

Restores a past Claude Code session from its JSONL history (main transcript and every
subagent's sidechain) and prints it: a readable tree, or with --json the Transcript model.

Options:
  --projects-dir <dir>    History directory (default: $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects)
  --json                  Print {transcript, problems} as JSON
`;

export async function run(args: readonly string[], io: CommandIO): Promise<number> {
  let values: { "projects-dir"?: string; json?: boolean; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...args],
      options: { "projects-dir": { type: "string" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
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
  let restored;
  try {
    restored = await restoreSession(target, {
      loadSidechains: true,
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
    io.stdout(`${JSON.stringify({ transcript, problems: restored.problems }, null, 2)}\n`);
    return ExitCode.ok;
  }
  io.stdout(renderTranscriptTree(transcript));
  for (const problem of restored.problems) io.stderr(`baton export: ${problem.path}: ${problem.message}\n`);
  return ExitCode.ok;
}
