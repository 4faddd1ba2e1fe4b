import type { PermissionDecision } from "../../../src/main/cli/permissionGate.js";
import { agentCall, bashCall, text, type Scenario } from "./types.js";

/** Never answers: the request stays pending until the CLI withdraws it. */
function neverDecide(_request: unknown, signal: AbortSignal): Promise<PermissionDecision> {
  return new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(new Error("withdrawn")), { once: true }));
}

export const interruptPendingPermission: Scenario = {
  name: "interrupt-pending-permission",
  description: "interrupt while a subagent's permission request waits for an answer; then a normal turn in the same process",
  options: { permissionMode: "default", decidePermission: neverDecide },
  script: {
    main: [
      { blocks: [agentCall("Waiting agent", "[[SUB-A]] needs a permission")] },
      { blocks: [text("Still here after the interrupt.")] },
    ],
    "SUB-A": [
      { blocks: [text("Asking to write a file."), bashCall("touch waiting.txt", "Create a file that needs permission")] },
      { blocks: [text("never reached")] },
    ],
  },
  async drive(ctx) {
    const from = ctx.log.mark;
    ctx.client.send("start an agent that will wait for permission");
    await ctx.log.waitFor("permission_request", () => true, { from });
    await ctx.client.interrupt();
    await ctx.log.waitFor("turn_result", () => true, { from });
    await ctx.turn("are you still there?");
  },
};
