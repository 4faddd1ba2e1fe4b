import { agentCall, text, type Scenario } from "./types.js";

const LongAnswer = Array.from({ length: 40 }, (_, i) => `Sentence ${i + 1} of an answer streamed slowly.`).join(" ");

export const interruptStreaming: Scenario = {
  name: "interrupt-streaming",
  description: "--include-partial-messages: interrupt while the main agent streams a long text, with a background agent running; then a normal turn",
  options: { permissionMode: "bypassPermissions", includePartialMessages: true },
  script: {
    main: [
      { blocks: [agentCall("Background counter", "[[SUB-BG]] count slowly", { run_in_background: true })] },
      { blocks: [text(LongAnswer)], chunkDelayMs: 400 },
      { blocks: [text("Back after the interrupt.")] },
      { blocks: [text("The background counter is done.")] },
      { blocks: [text("Nothing more to add.")] },
    ],
    "SUB-BG": [
      { blocks: [text("Counting in the background.")], delayMs: 1500 },
    ],
  },
  async drive(ctx) {
    const from = ctx.log.mark;
    ctx.client.send("start a background counter, then tell me a long story");
    // Interrupt once the long answer is streaming.
    await ctx.log.waitFor("stream_delta", (e) => e.parentToolUseId === null && (e.event as { delta?: { type?: string } }).delta?.type === "text_delta", { from });
    await ctx.client.interrupt();
    await ctx.log.waitFor("turn_result", () => true, { from });
    await ctx.turn("are you still there?");
    await ctx.log.waitFor("task_notification", () => true, { from });
  },
};
