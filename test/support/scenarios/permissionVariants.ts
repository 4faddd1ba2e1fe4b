import type { PermissionDecision } from "../../../src/main/cli/permissionGate.js";
import { bashCall, text, type Scenario } from "./types.js";

/** One answer of each shape the CLI accepts, picked by the command asked about. */
async function decide(request: { input: Record<string, unknown> }): Promise<PermissionDecision> {
  const command = String(request.input["command"] ?? "");
  if (command.startsWith("mkdir")) return { behavior: "allow", updatedInput: { ...request.input, command: "mkdir -p rewritten-by-client" }, decidedBy: "policy:record" };
  if (command.startsWith("touch")) {
    return {
      behavior: "allow",
      updatedPermissions: [{ type: "addRules", rules: [{ toolName: "Bash", ruleContent: "touch:*" }], behavior: "allow", destination: "session" }],
      decidedBy: "policy:record",
    };
  }
  return { behavior: "deny", message: "Denied, and the turn stops", interrupt: true, decidedBy: "policy:record" };
}

export const permissionVariants: Scenario = {
  name: "permission-variants",
  description: "allow with a rewritten input, allow with a session rule (the next matching call is not asked), deny with interrupt",
  options: { permissionMode: "default", decidePermission: decide },
  script: {
    main: [
      { blocks: [bashCall("mkdir -p original-input", "Make a folder the client renames")] },
      { blocks: [bashCall("touch first-rule.txt", "Create a file; the answer adds a session rule")] },
      { blocks: [bashCall("touch second-rule.txt", "Create another file under the rule")] },
      { blocks: [bashCall("rm -f stop-here.txt", "A command the client denies with interrupt")] },
      { blocks: [text("never reached")] },
    ],
  },
  async drive(ctx) {
    const from = ctx.log.mark;
    ctx.client.send("try each kind of permission answer");
    await ctx.log.waitFor("turn_result", () => true, { from });
  },
};
