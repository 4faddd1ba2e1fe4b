import { bashCall, text, type Scenario } from "./types.js";

/** Says whether the request has seen the second message yet (the CLI folds it into the running turn). */
const answer = (request: Readonly<Record<string, unknown>>) => [
  text(JSON.stringify(request["messages"] ?? []).includes("second message") ? "Handled both messages." : "Handled the first message."),
];

export const messageDuringTurn: Scenario = {
  name: "message-during-turn",
  description: "a second message sent while the first turn runs a slow Bash: the CLI folds it into that turn",
  options: { permissionMode: "bypassPermissions" },
  script: {
    main: [
      { blocks: [bashCall("sleep 1; echo slow-step", "A slow step")] },
      { blocks: answer },
      { blocks: answer },
      { blocks: answer },
    ],
  },
  async drive(ctx) {
    const from = ctx.log.mark;
    ctx.client.send("first message: run a slow step");
    await ctx.log.waitFor("assistant_block", (e) => e.block.type === "tool_use", { from });
    ctx.client.send("second message while you work");
    await ctx.log.waitFor("turn_result", (r) => r.result === "Handled both messages.", { from });
  },
};
