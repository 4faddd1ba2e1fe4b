// `baton audit <sessionId>`: one session's audit trail, in the order Baton recorded it: every
// decision on a tool call (the policy engine's verdicts, the person's answers) with the agent that
// asked, the tool, a digest of the input, the decision, the rule that decided and the message; the
// interrupts Baton sent; and the session DAG (issue 24): spawns, subagent status changes,
// questions and plans, where they went, their answers and reviews, phases; for a fork Baton made
// (issue 37), the session and prompt it was forked from; and each file rewind Baton applied (the
// prompt, the files). For "why was this denied?", "who answered what?" and "what put my files
// back?" after the fact.
//
// It reads audit.sqlite alone, on this thread: a headless command has no UI to keep responsive, and
// going through the store would create an index file just to read the trail.
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import type { AuditFork, AuditOrchestration, AuditTrailDecision, AuditTrailRewind, AuditTrailRow } from "../audit/audit.js";
import { boundedDigest } from "../audit/auditDigest.js";
import { AuditDatabase, auditMovedMessage } from "../audit/auditDatabase.js";
import { checkDbPath, defaultDbPath } from "../platform/dbPath.js";
import { StoreError } from "../platform/sqlite/errors.js";
import { fileCount } from "../../shared/fileRewind.js";
import { terminalJson, terminalText } from "../../shared/terminalText.js";
import { auditFileFor } from "./auditFile.js";
import { ExitCode, terminalIO, type CommandIO } from "./commandIO.js";

const HELP = `Usage: baton audit <sessionId> [--db <file>] [--json]

Prints what Baton recorded for one session, oldest first, one row per line: each decision on a
tool call (the policy engine's verdicts, from the PreToolUse hook or a permission request, or from
the hook of a session run in a terminal with baton claude, marked "(terminal session)"; Baton's
MCP server refusing a conductor's tool to another agent, rule "conductor-only"; and the person's
answers, rule "person") with its agent (id/type/preset, or "main"), tool, input, decision, the
rule that decided and the message; each interrupt Baton sent; and the session's agents
(orchestration): each spawn (who called it, background or not), status change, question
(ask_conductor) and plan version (submit_plan) with where it was routed and why, each answer
and review (approved, rejected, failed) with who gave it by agent id ("by conductor (main)",
"by person", "by baton") and each phase change. Those rows have the agent (id, else its Agent call's id, /type), the call, a digest
(the question, the plan, the status, the phase), the kind in DECISION, who or where in RULE,
and the reason, answer or feedback in MESSAGE. A session Baton forked from another's prompt starts
with a "fork" row: "forked from <session> at prompt <uuid>". Each "Rewind files to here" Baton
applied is a "rewind" row: "rewound N files to just before prompt <uuid>: <the files' paths>".

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
  let trail: readonly TrailRow[];
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

/** A fork's row, first in its trail: the session it was forked from and the prompt. */
export interface TrailFork {
  readonly kind: "fork";
  readonly sessionId: string;
  readonly time: string;
  readonly forkedFrom: string;
  readonly promptUuid: string;
}

export type TrailRow = AuditTrailRow | TrailFork;

function readTrail(file: string, sessionId: string, io: CommandIO): readonly TrailRow[] {
  const audit = new AuditDatabase(file);
  try {
    const info = audit.info();
    if (info.error !== null) throw new StoreError(info.error.code, info.error.message);
    if (info.movedAsideTo !== null) io.stderr(`baton audit: ${auditMovedMessage(file, info.movedAsideTo)}\n`);
    const { trail, forkedFrom } = audit.readAudit(sessionId);
    return forkedFrom === undefined ? trail : [forkRow(forkedFrom), ...trail];
  } finally {
    audit.close();
  }
}

function forkRow(fork: AuditFork): TrailFork {
  return { kind: "fork", sessionId: fork.forkSessionId, time: fork.time, forkedFrom: fork.originSessionId, promptUuid: fork.promptUuid };
}

const Header = ["TIME", "AGENT", "TOOL", "INPUT", "DECISION", "RULE", "MESSAGE"] as const;
/** A long input digest is not padded to: it would push every other row's columns out with it. */
const InputColumnWidth = 48;

export function renderTrail(trail: readonly TrailRow[]): string {
  const agents = agentsOf(trail);
  const rows = trail
    .map((r) =>
      r.kind === "fork"
        ? [r.time, "-", "-", "-", "fork", "-", `forked from ${r.forkedFrom} at prompt ${r.promptUuid}`]
        : r.kind === "interrupt"
          ? [r.time, "-", "-", "-", "interrupt", "-", "Baton interrupted the turn"]
          : r.kind === "rewind"
            ? [r.time, "-", "-", "-", "rewind", "-", rewindMessage(r)]
            : r.kind === "decision"
              ? decisionCells(r)
              : orchestrationCells(r, agents),
    )
    .map((cells) => cells.map(cell));
  const widths = Header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  widths[3] = Math.min(widths[3] ?? 0, InputColumnWidth);
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join("  ").trimEnd();
  return `${[line(Header), ...rows.map(line)].join("\n")}\n`;
}

/** The prompt the files went back to, and which files (the trail keeps a bounded list: the rest counted). */
function rewindMessage(r: AuditTrailRewind): string {
  const left = r.fileCount - r.files.length;
  const files = r.files.length === 0 ? "" : `: ${r.files.join(", ")}${left > 0 ? ` and ${left} more` : ""}`;
  return `rewound ${fileCount(r.fileCount)} to just before prompt ${r.promptUuid}${files}`;
}

function decisionCells(r: AuditTrailDecision): string[] {
  // What held an allowed preset Bash (issue 31): the OS sandbox, or only the policy's reading.
  const held = r.protection === "os-sandbox" ? " (in the OS sandbox)" : r.protection === "policy-only" ? " (policy check only, no OS sandbox)" : "";
  // A session run in a terminal (baton claude, issue 35): its hook asked, not one of Baton's own sessions.
  const where = r.origin === "terminal" ? " (terminal session)" : "";
  return [r.time, agentOf(r), r.toolName, r.inputDigest ?? "-", `${r.decision}${held}${where}`, r.rule, r.message ?? ""];
}

/** `id/type/preset` with `-` for what is not known; none of them: the main agent. */
function agentOf(r: AuditTrailDecision): string {
  if (r.agentId === undefined && r.agentType === undefined && r.preset === undefined) return "main";
  return [r.agentId, r.agentType, r.preset].map((p) => p ?? "-").join("/");
}

/** What the trail says of each agent (by its Agent call): its id and type, and the call of each question or plan. */
interface Agents {
  readonly byCall: Map<string, { agentId?: string; type?: string }>;
  readonly escalationTool: Map<string, string>;
}

function agentsOf(trail: readonly TrailRow[]): Agents {
  const byCall = new Map<string, { agentId?: string; type?: string }>();
  const escalationTool = new Map<string, string>();
  for (const r of trail) {
    if (r.kind === "decision" || r.kind === "interrupt" || r.kind === "fork" || r.kind === "rewind") continue;
    const known = byCall.get(r.agentToolUseId) ?? {};
    if (r.agentId !== undefined) known.agentId ??= r.agentId;
    if (r.kind === "spawn" && r.subagentType !== undefined) known.type = r.subagentType;
    byCall.set(r.agentToolUseId, known);
    if (r.kind === "question" || r.kind === "plan") escalationTool.set(r.toolUseId, r.kind === "question" ? "ask_conductor" : "submit_plan");
  }
  return { byCall, escalationTool };
}

/** `id/type`: the agent id, else its Agent call's id (before its task started). */
function agentLabel(agentToolUseId: string, agents: Agents): string {
  const known = agents.byCall.get(agentToolUseId);
  return `${known?.agentId ?? agentToolUseId}/${known?.type ?? "-"}`;
}

/** TIME, AGENT, TOOL, INPUT (a digest), DECISION (the kind), RULE (who or where), MESSAGE. */
function orchestrationCells(r: AuditOrchestration, agents: Agents): string[] {
  const agent = agentLabel(r.agentToolUseId, agents);
  const row = (tool: string, digest: string, rule: string, message: string): string[] => [r.time, agent, tool, boundedDigest(digest), r.kind, rule, message];
  switch (r.kind) {
    case "spawn": {
      const by = r.parentToolUseId === undefined ? "conductor" : agentLabel(r.parentToolUseId, agents);
      const what = r.description === undefined || r.description === "" ? (r.subagentType ?? "general-purpose") : `${r.subagentType ?? "general-purpose"}: ${r.description}`;
      return row("Agent", what, `by ${by}`, r.background === undefined ? "" : r.background ? "background" : "foreground");
    }
    case "status":
      return row("-", r.status, "-", "");
    case "phase":
      return row("-", r.phase, "-", "");
    case "question":
      return row("ask_conductor", r.question, `to ${r.routedTo}`, r.reason);
    case "plan": {
      const steps = r.plan.steps.length === 1 ? "1 step" : `${r.plan.steps.length} steps`;
      return row("submit_plan", `v${r.plan.version}: ${r.plan.goal} (${steps})`, `to ${r.routedTo}`, r.reason);
    }
    case "route":
      return row(agents.escalationTool.get(r.toolUseId) ?? "-", "-", `to ${r.routedTo}`, r.reason);
    case "answer":
    case "review": {
      const tool = agents.escalationTool.get(r.toolUseId) ?? (r.kind === "answer" ? "ask_conductor" : "submit_plan");
      const outcome = r.approvedPlan !== undefined ? `${r.outcome} with edits` : r.outcome;
      const message = r.approvedPlan !== undefined ? `${r.reply !== undefined ? `${r.reply} ` : ""}edited plan: ${r.approvedPlan}` : (r.reply ?? "");
      return row(tool, outcome, answeredBy(r), boundedDigest(message));
    }
  }
}

/** Who answered, by agent id (`by conductor (main)`); a conductor's answer recorded before ids were says so. */
function answeredBy(r: Extract<AuditOrchestration, { kind: "answer" | "review" }>): string {
  const id = r.answeredBy ?? (r.by === "conductor" ? "agent not recorded" : r.by);
  return id === r.by ? `by ${r.by}` : `by ${r.by} (${id})`;
}

/** One table cell: neutralised before the widths are measured, and on one line. */
function cell(text: string): string {
  return terminalText(text).replace(/[\n\t]/g, " ");
}
