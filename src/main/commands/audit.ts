// `baton audit <sessionId>`: one session's audit trail, in the order Baton recorded it: every
// decision on a tool call (the policy engine's verdicts, the person's answers) with the agent that
// asked, the tool, a digest of the input, the decision, the rule that decided and the message; and
// the interrupts Baton sent. For "why was this denied?" after the fact.
//
// It reads audit.sqlite alone, on this thread: a headless command has no UI to keep responsive, and
// going through the store would create an index file just to read the trail.
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { AuditTrailDecision, AuditTrailRow } from "../store/audit.js";
import { AuditDatabase, auditMovedMessage } from "../store/auditDatabase.js";
import { AUDIT_FILE_NAME, auditDbPath, checkDbPath, defaultDbPath } from "../store/dbPath.js";
import { StoreError } from "../store/errors.js";
import { terminalJson, terminalText } from "../../shared/terminalText.js";
import { ExitCode, terminalIO, type CommandIO } from "./commandIO.js";

const HELP = `Usage: baton audit <sessionId> [--db <file>] [--json]

Prints what Baton recorded for one session, oldest first, one row per line: each decision on a
tool call (the policy engine's verdicts, from the PreToolUse hook or a permission request, and
the person's answers, rule "person") with its agent (id/type/preset, or "main"), tool, input,
decision, the rule that decided and the message; and each interrupt Baton sent.

Options:
  --db <file>   The index database (the trail is audit.sqlite in its folder), or audit.sqlite itself
                (default: $XDG_CONFIG_HOME/baton/audit.sqlite or ~/.config/baton/audit.sqlite)
  --json        Print the trail as a JSON array
`;

export async function run(args: readonly string[], terminal: CommandIO): Promise<number> {
  // Inputs, messages and agent types come from the model and from files anyone could have written.
  const io = terminalIO(terminal);
  let values: { db?: string; json?: boolean; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...args],
      options: { db: { type: "string" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
      strict: true,
      allowPositionals: true,
    }));
  } catch (error) {
    io.stderr(`baton audit: ${error instanceof Error ? error.message : String(error)}\n\n${HELP}`);
    return ExitCode.usage;
  }
  if (values.help === true) {
    io.stdout(HELP);
    return ExitCode.ok;
  }
  const sessionId = positionals[0];
  if (sessionId === undefined || sessionId === "" || positionals.length > 1) {
    io.stderr(`baton audit: give one session id\n\n${HELP}`);
    return ExitCode.usage;
  }
  let trail: readonly AuditTrailRow[];
  let file: string;
  try {
    file = checkDbPath(auditFileFor(values.db ?? defaultDbPath()));
    if (!existsSync(file)) {
      io.stderr(`baton audit: no audit trail at ${file}: Baton has recorded nothing there (pass --db to read another)\n`);
      return ExitCode.failure;
    }
    trail = readTrail(file, sessionId, io);
  } catch (error) {
    io.stderr(`baton audit: ${error instanceof StoreError || error instanceof Error ? error.message : String(error)}\n`);
    return ExitCode.failure;
  }
  if (trail.length === 0) {
    io.stderr(`baton audit: no audit rows for session ${sessionId} in ${file}\n`);
    return ExitCode.failure;
  }
  io.stdout(values.json === true ? `${terminalJson(trail, 2)}\n` : renderTrail(trail));
  return ExitCode.ok;
}

/** `--db` names the index (as for the other commands) or the audit file itself. */
function auditFileFor(db: string): string {
  return path.basename(db) === AUDIT_FILE_NAME ? path.resolve(db) : auditDbPath(db);
}

function readTrail(file: string, sessionId: string, io: CommandIO): readonly AuditTrailRow[] {
  const audit = new AuditDatabase(file);
  try {
    const info = audit.info();
    if (info.error !== null) throw new StoreError(info.error.code, info.error.message);
    if (info.movedAsideTo !== null) io.stderr(`baton audit: ${auditMovedMessage(file, info.movedAsideTo)}\n`);
    return audit.readAudit(sessionId).trail;
  } finally {
    audit.close();
  }
}

const Header = ["TIME", "AGENT", "TOOL", "INPUT", "DECISION", "RULE", "MESSAGE"] as const;
/** A long input digest is not padded to: it would push every other row's columns out with it. */
const InputColumnWidth = 48;

export function renderTrail(trail: readonly AuditTrailRow[]): string {
  const rows = trail.map((r) => (r.kind === "interrupt" ? [r.time, "-", "-", "-", "interrupt", "-", "Baton interrupted the turn"] : decisionCells(r)).map(cell));
  const widths = Header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  widths[3] = Math.min(widths[3] ?? 0, InputColumnWidth);
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join("  ").trimEnd();
  return `${[line(Header), ...rows.map(line)].join("\n")}\n`;
}

function decisionCells(r: AuditTrailDecision): string[] {
  return [r.time, agentOf(r), r.toolName, r.inputDigest ?? "-", r.decision, r.rule, r.message ?? ""];
}

/** `id/type/preset` with `-` for what is not known; none of them: the main agent. */
function agentOf(r: AuditTrailDecision): string {
  if (r.agentId === undefined && r.agentType === undefined && r.preset === undefined) return "main";
  return [r.agentId, r.agentType, r.preset].map((p) => p ?? "-").join("/");
}

/** One table cell: neutralised before the widths are measured, and on one line. */
function cell(text: string): string {
  return terminalText(text).replace(/[\n\t]/g, " ");
}
