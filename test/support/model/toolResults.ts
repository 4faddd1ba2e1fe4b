// What the model was told of a tool call: the tool_result a scripted agent's requests carried.
import type { ModelServer } from "../modelServer.js";

/** The text of the tool_result for `toolUseId` in the last request `agent` made ("" when none). */
export function toolResultText(server: ModelServer, agent: string, toolUseId: string): string {
  const requests = server.requests.filter((r) => r.agent === agent && r.kind === "agent");
  const messages = (requests.at(-1)?.body["messages"] ?? []) as { content?: unknown }[];
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as { type?: string; tool_use_id?: string; content?: unknown }[]) {
      if (block.type === "tool_result" && block.tool_use_id === toolUseId) return JSON.stringify(block.content);
    }
  }
  return "";
}
