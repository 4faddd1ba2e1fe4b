import type { JsonObject } from "../../../src/shared/protocol/messages.js";
import { agentCall, bashCall, text, type Scenario } from "./types.js";

export const hooksAndAgents: Scenario = {
  name: "hooks-and-agents",
  description: "initialize with a custom agent, title, appended system prompt and hooks; a PreToolUse hook allows the main Bash, the subagent's Bash asks",
  options: {
    permissionMode: "default",
    initialize: {
      agents: { "init-agent": { description: "Agent defined in initialize", prompt: "You are INIT-AGENT-PROMPT.", tools: ["Bash"] } },
      appendSystemPrompt: "APPENDED-VIA-INITIALIZE",
      title: "Recorded title",
      hooks: {
        PreToolUse: [{ matcher: "Bash", hookCallbackIds: ["hook_pre_bash"] }],
        SubagentStop: [{ hookCallbackIds: ["hook_sub_stop"] }],
      },
    },
    async onHookCallback(request): Promise<JsonObject> {
      const input = request.input;
      // Let the main agent's Bash through; subagent calls still go to can_use_tool.
      if (request.callback_id === "hook_pre_bash" && input.agent_id === undefined) {
        return {
          hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", permissionDecisionReason: "allowed by hook" },
        };
      }
      return { continue: true };
    },
    async decidePermission() {
      return { behavior: "allow", decidedBy: "policy:record" };
    },
  },
  script: {
    main: [
      { blocks: [bashCall("touch main-hooked.txt", "Main Bash allowed by hook")] },
      { blocks: [agentCall("Init agent task", "[[SUB-A]] work", { subagent_type: "init-agent" })] },
      { blocks: [text("Custom agent and hooks done.")] },
    ],
    "SUB-A": [{ blocks: [bashCall("touch sub-ask.txt", "Touch file needing approval")] }, { blocks: [text("Init agent done.")] }],
  },
  async drive(ctx) {
    await ctx.turn("use the custom agent");
  },
};
