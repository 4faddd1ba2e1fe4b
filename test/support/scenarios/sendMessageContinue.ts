import { sidechainHolds } from "../cliTranscripts.js";
import type { ScriptBlock } from "../modelServer.js";
import { agentCall, bashCall, text, type Scenario } from "./types.js";

type Request = Readonly<Record<string, unknown>>;

const messagesOf = (request: Request): readonly { role?: unknown; content?: unknown }[] =>
  Array.isArray(request["messages"]) ? request["messages"] : [];

/**
 * The id the CLI made up for the last subagent it ran: its Agent tool_result tells the model
 * "agentId: <id> (use SendMessage with to: '<id>', …)".
 */
export function lastAgentId(request: Request): string {
  const found = [...JSON.stringify(messagesOf(request)).matchAll(/agentId: ([A-Za-z0-9_-]+)/g)].at(-1);
  if (found === undefined) throw new Error("no agentId in the request's tool results");
  return found[1]!;
}

const said = (request: Request, text: string): boolean => JSON.stringify(messagesOf(request)).includes(text);

/** The first part, then (once the coordinator asks) the second, each a Bash call followed by an answer. */
function twoPartHelper(request: Request): ScriptBlock[] {
  if (said(request, "Now do the second part.")) {
    return said(request, "echo second-part") ? [text("Second part done.")] : [bashCall("echo second-part", "Run the second part")];
  }
  return said(request, "echo first-part") ? [text("First part done.")] : [bashCall("echo first-part", "Run the first part")];
}

export const sendMessageContinue: Scenario = {
  name: "sendmessage-continue",
  description: "SendMessage to a finished subagent: it resumes in the background under a new task_started, same task_id",
  options: { permissionMode: "bypassPermissions" },
  script: {
    main: [
      // In the foreground (2.1.332 backgrounds an Agent call by default), so the helper has
      // finished before the SendMessage reaches it: a continuation, not a message mid-run.
      { blocks: [agentCall("Two-part helper", "[[SUB-A]] do the first part", { run_in_background: false })] },
      {
        blocks: (request) => [
          {
            type: "tool_use",
            name: "SendMessage",
            input: { to: lastAgentId(request), summary: "second part", message: "Now do the second part." },
          },
        ],
        // The CLI resumes the helper from its sidechain file: not before its first answer is there.
        waitFor: (request, cli) => sidechainHolds(cli, lastAgentId(request), "First part done."),
      },
      { blocks: [text("Sent the helper its second part.")] },
      { blocks: [text("The helper finished the second part.")] },
    ],
    // By what the conversation holds, not by turn number: what the resumed agent's request holds
    // depends on timing (whether its first answer reached its transcript before the resume read it).
    "SUB-A": Array.from({ length: 5 }, () => ({ blocks: twoPartHelper })),
  },
  async drive(ctx) {
    const from = ctx.log.mark;
    await ctx.turn("split the work in two");
    await ctx.log.waitFor("task_notification", () => true, { from });
    await ctx.log.waitFor("turn_result", (r) => r.result === "The helper finished the second part.", { from });
  },
};

export const sendMessageRunning: Scenario = {
  name: "sendmessage-running",
  description: "SendMessage to a background subagent that is still working: the message reaches it mid-run",
  options: { permissionMode: "bypassPermissions" },
  script: {
    main: [
      { blocks: [agentCall("Slow helper", "[[SUB-A]] work slowly", { run_in_background: true })] },
      {
        blocks: (request) => [
          { type: "tool_use", name: "SendMessage", input: { to: lastAgentId(request), summary: "extra step", message: "Also do the extra step." } },
        ],
      },
      { blocks: [text("Told the helper about the extra step.")] },
      { blocks: [text("The helper finished everything.")] },
      { blocks: [text("Nothing more.")] },
    ],
    "SUB-A": [
      { blocks: [bashCall("sleep 1; echo slow-step", "A slow step")] },
      {
        blocks: (request) =>
          said(request, "extra step")
            ? [bashCall("echo extra-step", "The extra step")]
            : [text("Done without the extra step.")],
      },
      { blocks: [text("Done, with the extra step.")] },
    ],
  },
  async drive(ctx) {
    const from = ctx.log.mark;
    await ctx.turn("start a slow helper and tell it more");
    await ctx.log.waitFor("task_notification", (e) => e.status !== "running", { from, timeoutMs: 30_000 });
    await ctx.log.waitFor("turn_result", (r) => r.result === "The helper finished everything.", { from, timeoutMs: 30_000 });
  },
};

/** The first part answered at once (no tool, so no tool round to deliver a message at), the second with a Bash call. */
function answerFirstHelper(request: Request): ScriptBlock[] {
  if (!said(request, "Now do the second part.")) return [text("First part done.")];
  return said(request, "echo second-part") ? [text("Second part done.")] : [bashCall("echo second-part", "Run the second part")];
}

export const sendMessageQueuedResume: Scenario = {
  name: "sendmessage-queued-resume",
  description:
    "SendMessage to a background subagent that then finishes before any tool round: 2.1.332 resumes it with the message (under the Agent call's id, a new run_id); 2.1.197 drops the message",
  options: { permissionMode: "bypassPermissions" },
  script: {
    main: [
      { blocks: [agentCall("Two-part helper", "[[SUB-A]] do the first part", { run_in_background: true })] },
      {
        blocks: (request) => [
          { type: "tool_use", name: "SendMessage", input: { to: lastAgentId(request), summary: "second part", message: "Now do the second part." } },
        ],
      },
      { blocks: [text("Sent the helper its second part.")] },
      // One notification turn per run; by what the conversation holds, since the two may come close together.
      ...Array.from({ length: 3 }, () => ({
        blocks: (request: Request) => [text(said(request, "Second part done.") ? "The helper finished the second part." : "The helper finished the first part.")],
      })),
    ],
    // The first answer waits, so the SendMessage is queued while the helper still runs.
    "SUB-A": [{ blocks: answerFirstHelper, delayMs: 3000 }, ...Array.from({ length: 4 }, () => ({ blocks: answerFirstHelper }))],
  },
  async drive(ctx) {
    const from = ctx.log.mark;
    await ctx.turn("split the work in two");
    const init = await ctx.log.waitFor("session_init", () => true, { from });
    // 2.1.197 delivers a queued message only at a tool round: the helper ends with its first part.
    const last = init.cliVersion === "2.1.197" ? "The helper finished the first part." : "The helper finished the second part.";
    await ctx.log.waitFor("turn_result", (r) => r.result === last, { from, timeoutMs: 60_000 });
  },
};
