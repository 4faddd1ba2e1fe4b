// An Agent/Task call as the history reader notes it (diskMapper.ts), for linking each subagent's
// own transcript to the call that started it (sidechains.ts). Its own file so the linker and the
// first screen need nothing of the mapper.

export interface AgentCall {
  readonly toolUseId: string;
  readonly name: string;
  readonly prompt: string;
  readonly description: string;
  readonly subagentType: string;
  readonly background: boolean;
  /** The subagent the call was made in; null for the main agent. */
  readonly parentToolUseId: string | null;
  /** Named by the call's result (`toolUseResult.agentId` or "agentId: <id>" text). */
  agentId?: string;
  resultSeen: boolean;
  /** The result was an error (e.g. invalid input): no subagent ran. */
  failed: boolean;
}
