// Connects one live session to its escalation desk (issue 24): Baton's MCP server with the desk's
// handlers goes to the CLI, the desk reads the session's records to know who asks, and its events
// go into the session. Only in orchestration mode: the Deliberate presets that use these tools
// exist only there. The desk also asks here who made a call (the PreToolUse hook's naming, the
// stream's placement), and a conductor's tool it refused to another caller is written to the audit
// trail as a decision made by Baton's MCP server (origin `mcp`).

import type { SubagentRecord } from "../../shared/transcript.js";
import type { LiveSession } from "./liveSession.js";
import type { BatonCaller } from "../mcp/batonToolAccess.js";
import { batonToolId, createBatonMcpServer } from "../mcp/batonTools.js";
import type { McpServer } from "../mcp/mcpServer.js";
import type { SessionPolicy } from "../policy/sessionPolicy.js";
import type { AuditPolicyDecision } from "../audit/audit.js";
import { EscalationDesk, type AskingAgent, type RefusedCall } from "../orchestration/escalationDesk.js";

/** How long the conductor has to answer before the person is asked, unless the settings say otherwise. */
export const DefaultConductorTimeoutMs = 120_000;

export interface SessionEscalationsOptions {
  /** The session, once it exists (the desk is made before it, for its client's options). */
  readonly live: () => LiveSession | undefined;
  readonly policy: SessionPolicy;
  readonly conductorTimeoutMs: number;
  readonly graceMs: number;
  readonly personPresent: () => boolean;
  /** The audit trail's writer of decisions: the desk's refusals go there. */
  readonly record?: (entry: AuditPolicyDecision) => void;
  readonly log: (message: string, fields: Record<string, unknown>) => void;
}

export interface SessionEscalations {
  readonly desk: EscalationDesk;
  readonly server: McpServer;
}

export function createSessionEscalations(options: SessionEscalationsOptions): SessionEscalations {
  const desk = new EscalationDesk({
    emit: (event) => options.live()?.addEvent(event),
    tellConductor: (text) => options.live()?.client.send(text),
    askingAgent: (toolUseId) => (toolUseId === undefined ? undefined : askingAgent(options, toolUseId)),
    callerOf: (toolUseId) => (toolUseId === undefined ? { kind: "unknown" } : callerOf(options, toolUseId)),
    onRefused: (refusal) => refused(options, refusal),
    agentNamed: (name) => options.live()?.agentRecord(name),
    conductorTimeoutMs: options.conductorTimeoutMs,
    personPresent: options.personPresent,
    graceMs: options.graceMs,
    log: options.log,
  });
  const server = createBatonMcpServer(desk.handlers(), { log: (level, message, fields) => options.log(`mcp ${level}: ${message}`, fields ?? {}) });
  return { desk, server };
}

/**
 * The subagent that made the call: the record whose steps hold it (the stream carries the agent's
 * lines), else the agent the PreToolUse hook named (CLI 2.1.197 does not stream a nested agent's
 * lines). The conductor waits on it when every Agent call from it up to the conductor is a
 * running foreground call.
 */
function askingAgent(options: SessionEscalationsOptions, toolUseId: string): AskingAgent | undefined {
  const live = options.live();
  if (live === undefined) return undefined;
  let chain: readonly SubagentRecord[] = live.callersOf(toolUseId);
  if (chain.length === 0) {
    const named = options.policy.agentOfCall(toolUseId);
    const record = named?.kind === "subagent" && named.agentId !== undefined ? live.agentRecord(named.agentId) : undefined;
    if (record === undefined) return undefined;
    chain = [record, ...live.callersOf(record.toolUseId)];
  }
  const record = chain[0] as SubagentRecord;
  return { record, conductorWaits: chain.every((r) => !r.background && r.status === "running") };
}

/**
 * Who made an MCP call, for the desk's check that only the conductor answers. A subagent when the
 * stream places the call in a subagent's steps or the PreToolUse hook named one (either is
 * enough: the stricter wins); the conductor when the hook named the main agent, or, when the hook's
 * naming is gone (a permission request came between), when the call is one of the conductor's own
 * top-level steps. Anything else is unknown, and refused.
 */
function callerOf(options: SessionEscalationsOptions, toolUseId: string): BatonCaller {
  const live = options.live();
  const holder = live?.callersOf(toolUseId)[0];
  const named = options.policy.agentOfCall(toolUseId);
  if (holder !== undefined || (named !== undefined && named.kind !== "main")) {
    const agentId = holder !== undefined && holder.taskId !== "" ? holder.taskId : named?.kind !== "main" ? named?.agentId : undefined;
    const agentType = holder !== undefined && holder.subagentType !== "" ? holder.subagentType : named?.kind === "subagent" ? named.agentType : undefined;
    return { kind: "subagent", ...(agentId !== undefined ? { agentId } : {}), ...(agentType !== undefined ? { agentType } : {}), deliberate: false };
  }
  if (named?.kind === "main") return { kind: "conductor" };
  return live?.transcript.blocks.some((b) => b.call?.toolUseId === toolUseId) === true ? { kind: "conductor" } : { kind: "unknown" };
}

/** A refusal on the caller's card (as the hook's would be) and in the audit trail, with the caller's id. */
function refused(options: SessionEscalationsOptions, refusal: RefusedCall): void {
  const live = options.live();
  const caller = refusal.caller;
  const agentId = caller.kind === "subagent" ? caller.agentId : undefined;
  const toolName = batonToolId(refusal.tool);
  if (refusal.toolUseId !== undefined) {
    live?.addEvent({ kind: "policy_decision", toolName, toolUseId: refusal.toolUseId, ...(agentId !== undefined ? { agentId } : {}), decision: "deny", rule: refusal.verdict.rule, message: refusal.verdict.message });
  }
  const sessionId = live?.sessionId;
  if (options.record === undefined || sessionId === undefined) return;
  options.record({
    sessionId,
    time: new Date().toISOString(),
    // The trail links a decision to its call; a call the CLI did not name goes by its JSON-RPC id.
    toolUseId: refusal.toolUseId ?? `mcp-request:${String(refusal.requestId)}`,
    toolName,
    ...(agentId !== undefined ? { agentId } : {}),
    // An agent nobody could place is not the main agent: the trail must not read it as one.
    agentType: caller.kind === "subagent" ? (caller.agentType ?? "unknown") : "unknown",
    input: { ...refusal.args },
    decision: "deny",
    rule: refusal.verdict.rule,
    message: refusal.verdict.message,
    origin: "mcp",
  });
}
