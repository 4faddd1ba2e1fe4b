// A finished session on disk with a tree of agents, written as the CLI writes it: the main
// transcript with the top agents' calls and results, and for each agent that started agents its
// sidechain (subagents/agent-<id>.jsonl and .meta.json) with their calls. Restored, the top agents
// show at once and the deeper ones as their callers' sidechains are read.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { CliEnv } from "../cliEnv.js";
import { writeHistory } from "./webApp.js";

export interface AgentSpec {
  readonly type: string;
  readonly description: string;
  readonly agents?: readonly AgentSpec[];
}

/** Writes the session; returns the main transcript's path. */
export async function writeAgentSession(env: CliEnv, sessionId: string, agents: readonly AgentSpec[], prompt = "fan out"): Promise<string> {
  let next = 0;
  const newAgentId = (): string => `a${(0xc0de0000 + next++).toString(16).padStart(16, "0")}`;
  const sidechains: { agentId: string; toolUseId: string; spec: AgentSpec; depth: number; text: string }[] = [];
  const callAll = (to: ReturnType<typeof transcriptLines>, list: readonly AgentSpec[], depth: number): void => {
    for (const spec of list) {
      const agentId = newAgentId();
      const toolUseId = `toolu_${agentId}`;
      if ((spec.agents?.length ?? 0) > 0) {
        const side = transcriptLines(env, sessionId, agentId);
        side.user(`do ${spec.description}`);
        callAll(side, spec.agents ?? [], depth + 1);
        side.text(`${spec.description} done.`);
        sidechains.push({ agentId, toolUseId, spec, depth, text: side.jsonl() });
      }
      to.agentCall(toolUseId, spec.type, spec.description, agentId);
    }
  };
  const main = transcriptLines(env, sessionId);
  main.user(prompt);
  callAll(main, agents, 1);
  main.text("All parts done.");
  const file = await writeHistory(env, sessionId, main.lines);
  const dir = path.join(path.dirname(file), sessionId, "subagents");
  fs.mkdirSync(dir, { recursive: true });
  for (const s of sidechains) {
    fs.writeFileSync(path.join(dir, `agent-${s.agentId}.jsonl`), s.text);
    fs.writeFileSync(path.join(dir, `agent-${s.agentId}.meta.json`), JSON.stringify({ agentType: s.spec.type, description: s.spec.description, toolUseId: s.toolUseId, spawnDepth: s.depth }));
  }
  return file;
}

/** The CLI's JSONL lines of one transcript (the main one, or an agent's sidechain). */
export function transcriptLines(env: CliEnv, sessionId: string, agentId?: string) {
  const out: object[] = [];
  let parent: string | null = null;
  let clock = Date.parse("2026-01-01T10:00:00Z");
  const add = (fields: object): string => {
    const uuid = randomUUID();
    clock += 1000;
    out.push({ parentUuid: parent, isSidechain: agentId !== undefined, ...(agentId !== undefined ? { agentId } : {}), ...fields, uuid, timestamp: new Date(clock).toISOString(), userType: "external", entrypoint: "sdk-cli", cwd: env.cwd, sessionId, version: "2.1.197", gitBranch: "main" });
    parent = uuid;
    return uuid;
  };
  const assistant = (block: object, stop: string): string =>
    add({ type: "assistant", message: { id: `msg_${randomUUID()}`, type: "message", role: "assistant", model: "claude-scripted", content: [block], stop_reason: stop, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } } });
  return {
    lines: out,
    jsonl: () => out.map((l) => JSON.stringify(l)).join("\n") + "\n",
    user: (text: string) => add({ type: "user", message: { role: "user", content: text } }),
    text: (text: string) => assistant({ type: "text", text }, "end_turn"),
    agentCall(id: string, type: string, description: string, calleeId: string): void {
      const source = assistant({ type: "tool_use", id, name: "Agent", input: { description, prompt: `do ${description}`, subagent_type: type } }, "tool_use");
      const summary = `${description} done.`;
      add({
        type: "user",
        message: { role: "user", content: [{ tool_use_id: id, type: "tool_result", content: [{ type: "text", text: summary }] }] },
        toolUseResult: { status: "completed", prompt: `do ${description}`, agentId: calleeId, agentType: type, content: [{ type: "text", text: summary }], totalDurationMs: 1000, totalTokens: 100, totalToolUseCount: 1 },
        sourceToolAssistantUUID: source,
      });
    },
  };
}
