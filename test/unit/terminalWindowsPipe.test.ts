// The Windows named pipe's name and rules, as data (no Windows here): the same rules as the Unix
// socket (the person only, no remote clients, one per launch, the secret), and a pipe of another
// user or another shape is refused.
import { describe, expect, it } from "vitest";
import { pipeNameProblem, windowsPipePlan } from "../../src/main/terminal/windowsPipe.js";

const Sid = "S-1-5-21-1004336348-1177238915-682003330-1001";

describe("the Windows hook pipe", () => {
  it("is a local pipe named for the user (hashed) and the launch", () => {
    const plan = windowsPipePlan(Sid, 4242);
    expect(plan.name).toMatch(/^\\\\\.\\pipe\\baton-hook-[0-9a-f]{16}-4242$/);
    expect(plan.name).not.toContain(Sid);
    expect(windowsPipePlan(Sid, 4243).name).not.toBe(plan.name);
  });

  it("carries the socket's rules: owner-only, no remote clients, first instance, per launch, secret", () => {
    expect(windowsPipePlan(Sid, 1).rules.map((r) => r.rule)).toEqual(["owner-only-dacl", "reject-remote-clients", "first-instance", "per-launch-name", "secret-required"]);
  });

  it("accepts its own name and refuses another user's, a remote one, or another shape", () => {
    const own = windowsPipePlan(Sid, 77).name;
    expect(pipeNameProblem(own, Sid)).toBeUndefined();
    expect(pipeNameProblem(windowsPipePlan("S-1-5-21-1-2-3-1002", 77).name, Sid)).toMatch(/another user/);
    expect(pipeNameProblem(own.replace("\\\\.\\", "\\\\server\\"), Sid)).toMatch(/not a local Baton hook pipe/);
    expect(pipeNameProblem("\\\\.\\pipe\\baton-hook", Sid)).toMatch(/not a local/);
  });
});
