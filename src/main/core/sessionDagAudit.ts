// The session DAG of one live tab, written to the audit trail (issue 24): each spawn (parent →
// child), each status change of a subagent's record, and each step of the escalation chain
// (question, plan, route, answer, review, phase) that Baton's orchestration adds to the session.
//
// Cheap on the event path: only Agent calls, task lifecycle events, Agent results, turn ends and
// the escalation events are looked at; a status is read from the hub's record (the status the
// card shows) once per agent per batch of events, a microtask later, and written only when it
// changed. Spawns are written once per Agent call.
import type { ClientEvent } from "../../shared/events.js";
import { isAgentToolCall, type SubagentRecord, type SubagentStatus } from "../../shared/transcript.js";
import { escalationRow } from "../audit/auditOrchestration.js";
import type { AuditTrail } from "../store/auditTrail.js";

export interface SessionDagOptions {
  readonly trail: AuditTrail;
  readonly sessionId: () => string | undefined;
  /** The record of an Agent call as the hub has it now, the events so far applied. */
  readonly record: (agentToolUseId: string) => SubagentRecord | undefined;
  readonly now?: () => string;
}

export class SessionDagAudit {
  /** Agent calls whose spawn is written. */
  private readonly spawned = new Set<string>();
  /** Task id → its Agent call, and back (the agent id of a record). */
  private readonly callOfTask = new Map<string, string>();
  private readonly taskOfCall = new Map<string, string>();
  /** What task_started said of an agent whose call the stream has not shown (yet). */
  private readonly started = new Map<string, { parentTaskId?: string; subagentType?: string; description?: string }>();
  /** The status last written for each Agent call. */
  private readonly written = new Map<string, SubagentStatus>();
  /** Each question's or plan's kind, by its call: names what settles it (answer or review). */
  private readonly escalations = new Map<string, "question" | "plan">();
  /** Agent calls to look at once the current events are applied. */
  private readonly checks = new Set<string>();
  private checkQueued = false;

  constructor(private readonly options: SessionDagOptions) {}

  note(event: ClientEvent): void {
    switch (event.kind) {
      case "assistant_block":
        if (event.block.type === "tool_use" && isAgentToolCall(event.block.name, event.block.input)) {
          const input = event.block.input;
          this.spawn(event.block.id, {
            ...(event.parentToolUseId !== null ? { parentToolUseId: event.parentToolUseId } : {}),
            ...(typeof input["subagent_type"] === "string" ? { subagentType: input["subagent_type"] } : {}),
            ...(typeof input["description"] === "string" ? { description: input["description"] } : {}),
            background: input["run_in_background"] === true,
          });
        }
        return;
      case "task_started": {
        if (event.taskType === "local_bash") return;
        const call = this.callOfTask.get(event.taskId) ?? event.toolUseId;
        if (call === undefined) return;
        if (!this.callOfTask.has(event.taskId)) {
          this.callOfTask.set(event.taskId, call);
          this.taskOfCall.set(call, event.taskId);
        }
        if (!this.spawned.has(call)) {
          this.started.set(call, {
            ...(event.parentTaskId !== undefined ? { parentTaskId: event.parentTaskId } : {}),
            ...(event.subagentType !== undefined ? { subagentType: event.subagentType } : {}),
            ...(event.description !== undefined ? { description: event.description } : {}),
          });
        }
        return this.check(call);
      }
      case "task_updated":
      case "task_notification": {
        const call = this.callOfTask.get(event.taskId) ?? (event.kind === "task_notification" ? event.toolUseId : undefined);
        if (call !== undefined) this.check(call);
        return;
      }
      case "tool_result":
        if (this.spawned.has(event.toolUseId)) this.check(event.toolUseId);
        return;
      case "turn_result":
      case "process_exit":
        for (const [call, status] of this.written) if (status === "running") this.check(call);
        return;
      case "escalation_opened":
      case "escalation_routed":
      case "escalation_settled":
      case "phase_changed": {
        const sessionId = this.options.sessionId();
        if (sessionId === undefined) return;
        if (event.kind === "escalation_opened") this.escalations.set(event.id, event.plan !== undefined ? "plan" : "question");
        const settles = event.kind === "phase_changed" ? undefined : this.escalations.get(event.id);
        this.options.trail.orchestration(escalationRow(sessionId, event, this.agentIdOf(event.agentToolUseId), this.now(), settles));
        return;
      }
      default:
        return;
    }
  }

  private spawn(call: string, fields: { parentToolUseId?: string; subagentType?: string; description?: string; background?: boolean }): void {
    const sessionId = this.options.sessionId();
    if (this.spawned.has(call) || sessionId === undefined) return;
    this.spawned.add(call);
    this.started.delete(call);
    const agentId = this.taskOfCall.get(call);
    this.options.trail.orchestration({ kind: "spawn", sessionId, time: this.now(), agentToolUseId: call, ...(agentId !== undefined ? { agentId } : {}), ...fields });
  }

  private check(call: string): void {
    this.checks.add(call);
    if (this.checkQueued) return;
    this.checkQueued = true;
    // After the live session's own flush (queued earlier in this turn of the event loop).
    queueMicrotask(() => this.runChecks());
  }

  private runChecks(): void {
    this.checkQueued = false;
    const calls = [...this.checks];
    this.checks.clear();
    const sessionId = this.options.sessionId();
    if (sessionId === undefined) return;
    for (const call of calls) {
      const record = this.options.record(call);
      // An agent the stream never showed the call of (a nested one): its spawn from what its task said.
      if (!this.spawned.has(call) && this.started.has(call)) this.spawn(call, this.spawnFromTask(call, record));
      if (record === undefined || this.written.get(call) === record.status) continue;
      this.written.set(call, record.status);
      const agentId = this.agentIdOf(call) ?? (record.taskId || undefined);
      this.options.trail.orchestration({ kind: "status", sessionId, time: this.now(), agentToolUseId: call, ...(agentId !== undefined ? { agentId } : {}), status: record.status });
    }
  }

  private spawnFromTask(call: string, record: SubagentRecord | undefined): { parentToolUseId?: string; subagentType?: string; description?: string } {
    const task = this.started.get(call) ?? {};
    const parentTaskId = task.parentTaskId ?? record?.parentTaskId;
    const parent = parentTaskId === undefined ? undefined : this.callOfTask.get(parentTaskId);
    const subagentType = record?.subagentType || task.subagentType;
    const description = record?.description || task.description;
    return {
      ...(parent !== undefined ? { parentToolUseId: parent } : {}),
      ...(subagentType ? { subagentType } : {}),
      ...(description ? { description } : {}),
    };
  }

  private agentIdOf(call: string): string | undefined {
    return this.taskOfCall.get(call);
  }

  private now(): string {
    return this.options.now?.() ?? new Date().toISOString();
  }
}
