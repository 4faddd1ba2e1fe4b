// A recordable scenario: a model script plus what the client does (prompts, permission answers,
// interrupts, resumes). `npm run record -- <name>` runs it against the real CLI through
// ClaudeClient and writes fixtures/recordings/<name>/.

import type { ClaudeClient, ClaudeClientOptions } from "../../../src/main/cli/claudeClient.js";
import type { PermissionDecision } from "../../../src/main/cli/permissionGate.js";
import type { ModelServer, Script } from "../modelServer.js";
import type { EventLog, EventOf } from "./harness.js";

export interface ScenarioContext {
  readonly log: EventLog;
  readonly server: ModelServer;
  /** The working directory of the CLI (a temp path; it is rewritten in the recording). */
  readonly cwd: string;
  /** The current client (changes after `resume()`). */
  readonly client: ClaudeClient;
  /** Sends a prompt and waits for the turn's result. */
  turn(text: string): Promise<EventOf<"turn_result">>;
  /** Stops the current process and starts a new one with `--resume <sessionId>`. */
  resume(extra?: Partial<ClaudeClientOptions>): Promise<void>;
}

export interface Scenario {
  readonly name: string;
  readonly description: string;
  readonly script: Script;
  /** Client options for every run (permission mode, decider, initialize extras, …). */
  readonly options?: Partial<ClaudeClientOptions>;
  drive(ctx: ScenarioContext): Promise<void>;
}

export const agentCall = (description: string, prompt: string, extra: Record<string, unknown> = {}) => ({
  type: "tool_use" as const,
  name: "Agent",
  input: { description, prompt, subagent_type: "general-purpose", ...extra },
});

export const bashCall = (command: string, description: string) => ({
  type: "tool_use" as const,
  name: "Bash",
  input: { command, description },
});

export const text = (value: string) => ({ type: "text" as const, text: value });
export const thinking = (value: string) => ({ type: "thinking" as const, thinking: value });

/** A permission decider for recordings: allows every request except commands that mention "deny". */
export async function allowUnlessDeny(request: { input: Record<string, unknown> }): Promise<PermissionDecision> {
  const command = String(request.input["command"] ?? "");
  if (command.includes("deny")) return { behavior: "deny", message: "Denied by the recording harness", decidedBy: "policy:record" };
  return { behavior: "allow", decidedBy: "policy:record" };
}
