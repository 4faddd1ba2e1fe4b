import { bashCall, text, type Scenario } from "./types.js";

/** A Workflow script: two agents in parallel, one running Bash. */
const script = `export const meta = { name: 'two-readers', description: 'Two agents in parallel', phases: [{ title: 'Read', detail: 'two readers' }] }
phase('Read')
const results = await parallel([() => agent('[[SUB-A]] read part one', { label: 'Reader one' }), () => agent('[[SUB-B]] read part two', { label: 'Reader two' })])
log('done: ' + results.length)
return results.join(' | ')`;

/**
 * The Workflow tool (CLI 2.1.197) runs a script of agents in the background. On stdout: a
 * task_started of task_type local_workflow naming the Workflow call, task_progress per agent
 * ("Read: Reader one", last_tool_name the agent's label), then its notification; the agents' own
 * messages are not streamed. On disk: `<session>/workflows/<runId>.json` and each agent's
 * transcript under `<session>/subagents/workflows/<runId>/`.
 */
export const workflow: Scenario = {
  name: "workflow",
  description: "a Workflow script running two agents in parallel in the background",
  options: { permissionMode: "bypassPermissions" },
  script: {
    main: [
      { blocks: [{ type: "tool_use", name: "Workflow", input: { script } }] },
      { blocks: [text("Workflow started.")] },
      { blocks: [text("Workflow finished.")] },
    ],
    "SUB-A": [{ blocks: [bashCall("echo part-one", "Read part one")] }, { blocks: [text("Part one read.")] }],
    "SUB-B": [{ blocks: [text("Part two read.")] }],
  },
  async drive(ctx) {
    const from = ctx.log.mark;
    await ctx.turn("use a workflow to read both parts");
    await ctx.log.waitFor("task_notification", () => true, { from });
    // The notification starts a turn of its own; wait for its result.
    await ctx.log.waitFor("turn_result", (r) => r.result === "Workflow finished.", { from });
  },
};
