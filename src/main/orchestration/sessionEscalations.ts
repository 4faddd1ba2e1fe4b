// Connects one live session to its escalation desk (issue 24): Baton's MCP server with the desk's
// handlers goes to the CLI, the desk reads the session's records to know who asks, and its events
// go into the session. Only in orchestration mode: the Deliberate presets that use these tools
// exist only there.

import type { SubagentRecord } from "../../shared/transcript.js";
import type { LiveSession } from "../app/liveSession.js";
import { createBatonMcpServer } from "../mcp/batonTools.js";
import type { McpServer } from "../mcp/mcpServer.js";
import type { SessionPolicy } from "../policy/sessionPolicy.js";
import { EscalationDesk, type AskingAgent } from "./escalationDesk.js";

/** How long the conductor has to answer before the person is asked, unless the settings say otherwise. */
export const DefaultConductorTimeoutMs = 120_000;

export interface SessionEscalationsOptions {
  /** The session, once it exists (the desk is made before it, for its client's options). */
  readonly live: () => LiveSession | undefined;
  readonly policy: SessionPolicy;
  readonly conductorTimeoutMs: number;
  readonly graceMs: number;
  readonly personPresent: () => boolean;
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
