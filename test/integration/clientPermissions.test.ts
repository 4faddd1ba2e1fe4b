// Permission requests from a subagent through the real CLI: allow runs the tool, deny sends the
// message to the model, a throwing decision function fails closed and the session goes on.
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PermissionRequestEvent } from "../../src/shared/events.js";
import type { PermissionDecision } from "../../src/main/cli/permissionGate.js";
import { openSession, type Session } from "../support/scenarios/harness.js";

const bash = (command: string) => ({ type: "tool_use" as const, name: "Bash", input: { command, description: command } });
const DENY_MESSAGE = "Denied by the test: not that file";

describe("client: subagent permission requests", () => {
  let session: Session;
  const asked: PermissionRequestEvent[] = [];

  beforeAll(async () => {
    session = await openSession(
      {
        main: [
          // Foreground on every CLI: 2.1.332 backgrounds an Agent call unless told not to.
          { blocks: [{ type: "tool_use", name: "Agent", input: { description: "Touch files", prompt: "[[SUB-A]] touch files", subagent_type: "general-purpose", run_in_background: false } }] },
          { blocks: [{ type: "text", text: "first turn done" }] },
          { blocks: [{ type: "text", text: "second turn done" }] },
        ],
        "SUB-A": [
          { blocks: [bash("touch allowed.txt")] },
          { blocks: [bash("touch denied.txt")] },
          { blocks: [bash("touch exploded.txt")] },
          { blocks: [{ type: "text", text: "sub finished" }] },
        ],
      },
      {
        cwdName: "client-permissions",
        async decidePermission(request): Promise<PermissionDecision> {
          asked.push(request);
          const command = String(request.input.command);
          if (command.includes("allowed")) return { behavior: "allow", decidedBy: "user" };
          if (command.includes("denied")) return { behavior: "deny", message: DENY_MESSAGE, decidedBy: "policy:test" };
          throw new Error("decider blew up");
        },
      },
    );
    await session.client.start();
  });
  afterAll(() => session?.close());

  it("asks the decision function with the subagent's agentId and applies each answer", async () => {
    const result = await session.turn("touch some files");
    expect(result).toMatchObject({ subtype: "success", result: "first turn done" });
    const taskId = session.log.of("task_started")[0]!.taskId;
    expect(asked.map((r) => [r.toolName, r.agentId, r.input.command])).toEqual([
      ["Bash", taskId, "touch allowed.txt"],
      ["Bash", taskId, "touch denied.txt"],
      ["Bash", taskId, "touch exploded.txt"],
    ]);

    expect(existsSync(path.join(session.env.cwd, "allowed.txt"))).toBe(true);
    expect(existsSync(path.join(session.env.cwd, "denied.txt"))).toBe(false);
    expect(existsSync(path.join(session.env.cwd, "exploded.txt"))).toBe(false);

    const resultFor = (toolUseId: string) => session.log.of("tool_result").find((e) => e.toolUseId === toolUseId);
    const denied = resultFor(asked[1]!.toolUseId);
    expect(denied).toMatchObject({ isError: true, text: DENY_MESSAGE });
    const exploded = resultFor(asked[2]!.toolUseId);
    expect(exploded?.isError).toBe(true);
    expect(exploded?.text).toContain("decider blew up");

    const resolved = session.log.of("permission_resolved");
    expect(resolved.map((e) => [e.requestId, e.behavior, e.decidedBy])).toEqual([
      [asked[0]!.requestId, "allow", "user"],
      [asked[1]!.requestId, "deny", "policy:test"],
      [asked[2]!.requestId, "deny", "error"],
    ]);
  });

  it("keeps working after the failed decision: the next message gets a result", async () => {
    const result = await session.turn("anything else?");
    expect(result).toMatchObject({ subtype: "success", isError: false, result: "second turn done" });
  });
});
