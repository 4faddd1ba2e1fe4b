// What the prompt's scopes mean (issue 22): "Allow for this session" keeps the prompt's rule(s) as
// Baton session rules and still sends the CLI its own suggestions for the session; "Always allow
// in this project" keeps them as project rules and sends the CLI nothing to remember (the rule is
// Baton's, deletable from the Rules view); a call only a person may answer offers neither. And the
// broker puts the rule(s) a prompt offers on the waiting request, never on such a call.
import { describe, expect, it } from "vitest";
import type { PendingPermission } from "../../src/shared/api.js";
import type { PermissionRequestEvent } from "../../src/shared/events.js";
import { decisionFor } from "../../src/main/core/permissionAnswers.js";
import { PermissionBroker } from "../../src/main/core/permissionBroker.js";

const suggestion = { type: "addRules" as const, rules: [{ toolName: "Bash", ruleContent: "pnpm test:*" }], behavior: "allow" as const, destination: "localSettings" as const };
const pending: PendingPermission = {
  requestId: "r",
  toolName: "Bash",
  toolUseId: "tu",
  input: { command: "pnpm test --watch" },
  suggestions: [suggestion],
  allowRules: ["Bash(pnpm test:*)"],
};

describe("decisionFor with Baton's rules", () => {
  it("'always allow in this project' keeps the prompt's rule as a project rule and asks the CLI to remember nothing", () => {
    const outcome = decisionFor(pending, { behavior: "allow", scope: "project" });
    expect(outcome).toEqual({
      ok: true,
      decision: { behavior: "allow", updatedInput: pending.input, decidedBy: "user" },
      keep: { scope: "project", rules: ["Bash(pnpm test:*)"] },
    });
  });

  it("'allow for this session' keeps the rule as a session rule and still sends the CLI's suggestion for the session", () => {
    const outcome = decisionFor(pending, { behavior: "allow", scope: "session" });
    expect(outcome).toMatchObject({
      ok: true,
      decision: { behavior: "allow", updatedPermissions: [{ ...suggestion, destination: "session" }] },
      keep: { scope: "session", rules: ["Bash(pnpm test:*)"] },
    });
  });

  it("allowing once keeps no rule", () => {
    expect(decisionFor(pending, { behavior: "allow" })).not.toHaveProperty("keep");
    expect(decisionFor(pending, { behavior: "allow", scope: "once" })).not.toHaveProperty("keep");
    expect(decisionFor(pending, { behavior: "deny", message: "no" })).not.toHaveProperty("keep");
  });

  it("a call with no sensible rule cannot be allowed for the project", () => {
    const { allowRules: _none, ...bare } = pending;
    expect(decisionFor(bare, { behavior: "allow", scope: "project" })).toMatchObject({ ok: false, code: "invalid_argument" });
  });

  it("a request only a person may answer is refused project and session scope", () => {
    const plan: PendingPermission = { ...pending, toolName: "ExitPlanMode", input: { plan: "p" }, requiresUserInteraction: true, allowRules: ["ExitPlanMode"] };
    expect(decisionFor(plan, { behavior: "allow", scope: "project" })).toMatchObject({ ok: false, code: "invalid_argument", message: expect.stringContaining("project") });
    expect(decisionFor(plan, { behavior: "allow", scope: "session" })).toMatchObject({ ok: false, code: "invalid_argument" });
  });
});

describe("the broker's waiting request", () => {
  const request = (extra: Partial<PermissionRequestEvent> = {}): PermissionRequestEvent => ({
    kind: "permission_request",
    requestId: "r1",
    toolName: "Bash",
    toolUseId: "tu-1",
    input: { command: "pnpm test" },
    ...extra,
  });

  it("carries the rule(s) the prompt offers, and none for a call only a person may answer", async () => {
    const broker = new PermissionBroker({ graceMs: 60_000, onChange: () => undefined });
    const release = broker.acquirePresence();
    const decide = broker.deciderFor("tab-1", (r) => (r.toolName === "Bash" ? ["Bash(pnpm test:*)"] : ["Whatever"]));
    void decide(request(), new AbortController().signal);
    void decide(request({ requestId: "r2", toolUseId: "tu-2", toolName: "AskUserQuestion", input: {}, requiresUserInteraction: true }), new AbortController().signal);
    expect(broker.find("tab-1", "r1")?.allowRules).toEqual(["Bash(pnpm test:*)"]);
    expect(broker.find("tab-1", "r2")).toBeDefined();
    expect(broker.find("tab-1", "r2")?.allowRules).toBeUndefined();
    broker.close();
    release();
  });
});
