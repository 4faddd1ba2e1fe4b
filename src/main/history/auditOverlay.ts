// Baton's audit trail applied to a session read from disk, so the restored transcript shows what
// the live one did where the JSONL files cannot say it (issue 4, "Live and restored agree"):
//
//  * A permission decision Baton made is an ordinary tool_result on disk (a denial reads as a
//    failure). The recorded decision is fed as the `permission_request` + `permission_resolved`
//    (or `permission_cancelled`) pair the live client emitted, right after the call's tool_use,
//    so the hub gives the call the same status and permission state it gave it live.
//  * A call Baton's policy decided through the PreToolUse hook has no permission request at all;
//    its recorded verdict is fed as the `policy_decision` event the live session emitted.
//  * The escalation chain (issue 24: a subagent's questions and plans, where they went, how they
//    were settled, its phases) is Baton's alone: nothing of it is on disk. The recorded rows are
//    fed as the events the live session had (escalation_opened / _routed / _settled,
//    phase_changed), in recorded order, right after the asking agent's Agent call (in the main
//    file, or in its caller's sidechain for a nested agent), so its record shows them as live did
//    whenever its card is in the transcript. A call never read (the first screen's window starts
//    after it) gets them with the full restore.
//  * An interrupt Baton sent leaves a "rejected" tool_result in each cut subagent's sidechain,
//    which the stream never sent (live, the call just stopped). Such a result, in a subagent,
//    after a recorded interrupt and before the next prompt, is left out: the call then has no
//    result, and the hub stops it with its subagent exactly as it did live.
//  * A file rewind (issue 37, "Rewind files to here") leaves nothing on disk: the CLI puts the files
//    back and writes no line. Each recorded rewind is fed as the `files_rewound` event the live tab
//    had, right after the prompt it went back to, and its notice where it happened (rewindMarks.ts).
//
// Why a transform of the disk events and not a change to the hub: the hub already understands
// these events, and a restore stays the same reducer as live. A
// session with no audit entries gets no overlay and restores exactly as before.

import type { ClientEvent, ToolResultEvent } from "../../shared/events.js";
import type { JsonObject } from "../../shared/protocol/messages.js";
import type { AuditPermission, AuditTrailDecision, AuditTrailRow, SessionAudit } from "../audit/audit.js";
import { escalationEvent, isEscalationRow } from "../audit/auditOrchestration.js";
import { isTopPrompt, RewindMarks } from "./rewindMarks.js";

/** What the CLI writes for a tool cut off by an interrupt or TaskStop (fixtures/recordings/interrupt-subagent), as for a rejected one. */
const RejectedText = /^The user doesn't want to proceed with this tool use/;
const RejectedStructured = /^(Error: )?User rejected tool use/;

export function isRejection(ev: ToolResultEvent): boolean {
  const structured = typeof ev.structured === "string" ? ev.structured : "";
  return ev.isError && (RejectedText.test(ev.text) || RejectedStructured.test(structured));
}

export class AuditOverlay {
  private readonly decisions = new Map<string, AuditPermission[]>();
  /** The policy's verdicts through the hook, by tool use. */
  private readonly hookVerdicts = new Map<string, AuditTrailDecision>();
  /** Tool uses Baton denied: their rejection is the denial, never an interrupt's. */
  private readonly denied = new Set<string>();
  /** Recorded interrupts, ms since the epoch, ascending. */
  private readonly interrupts: readonly number[];
  /** Top-level prompts read so far (ms): each ends the turn an earlier interrupt cut. */
  private readonly turnStarts: number[] = [];
  private readonly injected = new Set<string>();
  /** The escalation chain's events, by the asking agent's Agent call, in recorded order. */
  private readonly escalations = new Map<string, ClientEvent[]>();
  /** The file rewinds: each prompt's mark and each rewind's notice. */
  private readonly rewinds: RewindMarks;

  private constructor(audit: AuditWithTrail) {
    this.rewinds = new RewindMarks((audit.trail ?? []).flatMap((row) => (row.kind === "rewind" ? [row] : [])));
    for (const row of audit.trail ?? []) {
      if (isEscalationRow(row)) {
        const list = this.escalations.get(row.agentToolUseId) ?? [];
        list.push(escalationEvent(row));
        this.escalations.set(row.agentToolUseId, list);
        continue;
      }
      if (row.kind !== "decision" || (row.origin !== "hook" && row.origin !== "terminal") || (row.decision !== "allow" && row.decision !== "deny")) continue;
      this.hookVerdicts.set(row.toolUseId, row);
      if (row.decision === "deny") this.denied.add(row.toolUseId);
    }
    for (const p of audit.permissions) {
      const list = this.decisions.get(p.toolUseId) ?? [];
      list.push(p);
      this.decisions.set(p.toolUseId, list);
      if (p.decision === "deny") this.denied.add(p.toolUseId);
    }
    this.interrupts = audit.interrupts
      .map((i) => Date.parse(i.time))
      .filter((t) => Number.isFinite(t))
      .sort((a, b) => a - b);
  }

  /** Undefined when there is nothing to apply: the restore goes exactly as without a store. */
  static from(audit: AuditWithTrail | undefined): AuditOverlay | undefined {
    if (audit === undefined) return undefined;
    if (audit.permissions.length === 0 && audit.interrupts.length === 0 && !(audit.trail ?? []).some((row) => isHookVerdict(row) || isEscalationRow(row) || row.kind === "rewind")) return undefined;
    return new AuditOverlay(audit);
  }

  /** The events of one disk line (or a sidechain's), with the audit applied. */
  apply(events: readonly ClientEvent[]): readonly ClientEvent[] {
    let out: ClientEvent[] | undefined;
    for (let i = 0; i < events.length; i++) {
      const ev = events[i]!;
      const before = this.rewinds.before(ev);
      const extra = this.addedAfter(ev);
      // The disk says only "a hook refused it"; Baton's own record names the rule.
      const drop = (ev.kind === "tool_result" && this.cutByInterrupt(ev)) || (ev.kind === "permission_denied" && this.hookVerdicts.has(ev.toolUseId));
      if (isTopPrompt(ev)) this.noteTurnStart(ev.timestamp);
      if (before === undefined && extra === undefined && !drop) {
        out?.push(ev);
        continue;
      }
      out ??= events.slice(0, i);
      if (before !== undefined) out.push(...before);
      if (!drop) out.push(ev);
      if (extra !== undefined) out.push(...extra);
    }
    return out ?? events;
  }

  /** After the file's last line: what belongs after everything it holds (a rewind's notice no later prompt placed). */
  end(): readonly ClientEvent[] {
    return this.rewinds.end();
  }

  /** What follows a tool_use: the recorded decisions on it and, for an Agent call, its agent's escalation chain; a prompt: its rewinds. */
  private addedAfter(ev: ClientEvent): ClientEvent[] | undefined {
    if (ev.kind === "user_prompt") return this.rewinds.after(ev);
    const decisions = this.permissionEvents(ev);
    if (ev.kind !== "assistant_block" || ev.block.type !== "tool_use") return decisions;
    const chain = this.escalations.get(ev.block.id);
    if (chain === undefined || this.injected.has(`agent:${ev.block.id}`)) return decisions;
    this.injected.add(`agent:${ev.block.id}`);
    return [...(decisions ?? []), ...chain];
  }

  private permissionEvents(ev: ClientEvent): ClientEvent[] | undefined {
    if (ev.kind !== "assistant_block" || ev.block.type !== "tool_use") return undefined;
    const input: JsonObject = ev.block.input;
    const out: ClientEvent[] = [];
    const verdict = this.hookVerdicts.get(ev.block.id);
    if (verdict !== undefined && !this.injected.has(`policy:${verdict.toolUseId}`)) {
      this.injected.add(`policy:${verdict.toolUseId}`);
      out.push({
        kind: "policy_decision",
        toolName: verdict.toolName,
        toolUseId: verdict.toolUseId,
        ...(verdict.agentId !== undefined ? { agentId: verdict.agentId } : {}),
        decision: verdict.decision === "deny" ? "deny" : "allow",
        rule: verdict.rule,
        message: verdict.message ?? "",
      });
    }
    const list = this.decisions.get(ev.block.id)?.filter((p) => !this.injected.has(p.requestId));
    if (list === undefined || list.length === 0) return out.length > 0 ? out : undefined;
    for (const p of list) {
      this.injected.add(p.requestId);
      out.push({ kind: "permission_request", requestId: p.requestId, toolName: p.toolName, toolUseId: p.toolUseId, input, ...(p.agentId !== undefined ? { agentId: p.agentId } : {}) });
      out.push(
        p.decision === "cancelled"
          ? { kind: "permission_cancelled", requestId: p.requestId }
          : {
              kind: "permission_resolved",
              requestId: p.requestId,
              behavior: p.decision,
              decidedBy: p.decidedBy ?? "baton",
              ...(p.message !== undefined ? { message: p.message } : {}),
            },
      );
    }
    return out;
  }

  private noteTurnStart(timestamp: string | undefined): void {
    const t = timestamp === undefined ? NaN : Date.parse(timestamp);
    if (Number.isFinite(t)) this.turnStarts.push(t);
  }

  /** A subagent's "rejected" result written after a recorded interrupt, in the turn it cut. */
  private cutByInterrupt(ev: ToolResultEvent): boolean {
    if (ev.parentToolUseId === null || this.interrupts.length === 0 || this.denied.has(ev.toolUseId) || !isRejection(ev)) return false;
    const at = ev.timestamp === undefined ? NaN : Date.parse(ev.timestamp);
    if (!Number.isFinite(at)) return false;
    const interrupt = latestAtOrBefore(this.interrupts, at);
    if (interrupt === undefined) return false;
    // A prompt between the interrupt and the result: the result belongs to a later turn.
    return !this.turnStarts.some((s) => s > interrupt && s <= at);
  }
}

/** A restore's audit: the person's answers and interrupts, and (newer trails) every recorded row in order. */
export type AuditWithTrail = SessionAudit & { readonly trail?: readonly AuditTrailRow[] };

/** A verdict no permission request carried: the PreToolUse hook's (a terminal session's too), or the desk's refusal of a Baton tool (origin mcp). */
function isHookVerdict(row: AuditTrailRow): boolean {
  return row.kind === "decision" && (row.origin === "hook" || row.origin === "terminal" || row.origin === "mcp") && (row.decision === "allow" || row.decision === "deny");
}

function latestAtOrBefore(sorted: readonly number[], t: number): number | undefined {
  let found: number | undefined;
  for (const x of sorted) {
    if (x > t) break;
    found = x;
  }
  return found;
}
