// A running subagent the main file has not linked yet (2.1.197 writes a foreground agent's id only in
// the call's result) is linked to its Agent call from its meta.json when a terminal hook names it;
// an id that is not a plain name, a missing meta.json, or one naming a call the file does not hold
// links nothing.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { linkRunningAgent, restoreSession, type HistorySession } from "../../src/main/history/index.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-agent-link-");
const SessionId = "77777777-7777-4777-8777-777777777777";
const AgentId = "a91c40a33b6ca99ff";
const CallId = "toolu_main_t0_0";

const base = { sessionId: SessionId, cwd: "/home/user/code/app", timestamp: "2026-01-01T00:00:00.000Z", isSidechain: false };

/** A session whose main agent's Agent call is written and its result not yet, and the subagent's files with `meta`. */
async function runningSession(meta: object | undefined): Promise<HistorySession> {
  const dir = path.join(tempDir(), "-home-user-code-app");
  fs.mkdirSync(path.join(dir, SessionId, "subagents"), { recursive: true });
  const lines = [
    { ...base, type: "user", uuid: "u0", parentUuid: null, message: { role: "user", content: "please touch a file in a subagent" } },
    {
      ...base,
      type: "assistant",
      uuid: "u1",
      parentUuid: "u0",
      message: { id: "msg_1", type: "message", role: "assistant", model: "claude-test", content: [{ type: "tool_use", id: CallId, name: "Agent", input: { description: "Touch a file", prompt: "touch a file", subagent_type: "general-purpose" } }], stop_reason: "tool_use" },
    },
  ];
  const file = path.join(dir, `${SessionId}.jsonl`);
  fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  const sidechain = { ...base, isSidechain: true, agentId: AgentId, type: "user", uuid: "s0", parentUuid: null, message: { role: "user", content: "touch a file" } };
  fs.writeFileSync(path.join(dir, SessionId, "subagents", `agent-${AgentId}.jsonl`), JSON.stringify(sidechain) + "\n");
  if (meta !== undefined) fs.writeFileSync(path.join(dir, SessionId, "subagents", `agent-${AgentId}.meta.json`), JSON.stringify(meta));
  return (await restoreSession(file, { projectsDir: path.dirname(dir) })).session;
}

describe("linkRunningAgent", () => {
  it("links the agent its meta.json names to that call, once", async () => {
    const session = await runningSession({ agentType: "general-purpose", description: "Touch a file", toolUseId: CallId });
    expect(session.model.agentCallOf(AgentId)).toBeUndefined();
    expect(await linkRunningAgent(session, AgentId)).toBe(true);
    expect(session.model.agentCallOf(AgentId)).toBe(CallId);
    expect(session.model.findToolCall(CallId)?.subagent?.taskId).toBe(AgentId);
    expect(await linkRunningAgent(session, AgentId)).toBe(false);
  });

  it("links nothing without a meta.json, for a call the file does not hold, or for an id that is not a plain name", async () => {
    expect(await linkRunningAgent(await runningSession(undefined), AgentId)).toBe(false);
    const elsewhere = await runningSession({ toolUseId: "toolu_not_in_this_file" });
    expect(await linkRunningAgent(elsewhere, AgentId)).toBe(false);
    expect(elsewhere.model.agentCallOf(AgentId)).toBeUndefined();
    const session = await runningSession({ toolUseId: CallId });
    expect(await linkRunningAgent(session, `../${AgentId}`)).toBe(false);
    expect(await linkRunningAgent(session, "")).toBe(false);
    expect(session.model.agentCallOf(AgentId)).toBeUndefined();
  });
});
