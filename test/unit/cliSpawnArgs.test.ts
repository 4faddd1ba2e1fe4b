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

  it("cuts a fork at an entry (--resume-session-at), and never a plain resume of the fork itself", () => {
    const fork = { resume: "orig", forkSession: true, resumeSessionAt: "uuid-1" };
    expect(buildSpawnArgs(fork).slice(7)).toEqual(["--resume", "orig", "--fork-session", "--resume-session-at", "uuid-1"]);
    // A restart resumes the fork's own session as a whole (claudeClient.restart passes forkSession false).
    expect(buildSpawnArgs({ ...fork, resume: "forked", forkSession: false }).slice(7)).toEqual(["--resume", "forked"]);
  });

  it("refuses fork without a session to resume", () => {
    expect(() => buildSpawnArgs({ forkSession: true })).toThrow(/resume/);
  });
});
