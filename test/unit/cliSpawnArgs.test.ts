import { describe, expect, it } from "vitest";
import { buildSpawnArgs } from "../../src/main/cli/spawnArgs.js";

describe("spawn arguments", () => {
  it("runs stream-json both ways with stdio permission prompts and no -p", () => {
    const args = buildSpawnArgs();
    expect(args).toEqual([
      "--output-format", "stream-json", "--input-format", "stream-json", "--verbose",
      "--permission-prompt-tool", "stdio",
    ]);
    expect(args).not.toContain("-p");
  });

  it("adds mode, model, partial messages, resume/fork and extra args as separate elements", () => {
    const args = buildSpawnArgs({
      permissionMode: "plan",
      model: "opus",
      includePartialMessages: true,
      resume: "abc; rm -rf /",
      forkSession: true,
      extraArgs: ["--agents", '{"x":{}}'],
    });
    expect(args.slice(7)).toEqual([
      "--permission-mode", "plan", "--model", "opus", "--include-partial-messages",
      "--resume", "abc; rm -rf /", "--fork-session", "--agents", '{"x":{}}',
    ]);
  });

  it("refuses fork without a session to resume", () => {
    expect(() => buildSpawnArgs({ forkSession: true })).toThrow(/resume/);
  });
});
