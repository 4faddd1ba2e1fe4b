// The permission broker on its own (no CLI, fake timers): requests wait in their tab's pending
// list until answered; they fail closed when the tab closes, when no window has been connected for
// the grace period, and when Baton quits; a window that comes back in time keeps them waiting.

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PermissionRequestEvent } from "../../src/shared/events.js";
import type { PermissionDecision } from "../../src/main/cli/permissionGate.js";
import { PermissionBroker } from "../../src/main/core/permissionBroker.js";
import { decisionFor } from "../../src/main/core/permissionAnswers.js";

const request = (requestId: string, extra: Partial<PermissionRequestEvent> = {}): PermissionRequestEvent => ({
  kind: "permission_request",
  requestId,
  toolName: "Bash",
  toolUseId: `tu-${requestId}`,
  input: { command: "touch x" },
  ...extra,
});

describe("PermissionBroker", () => {
  let changes: string[];
  let broker: PermissionBroker;
  beforeEach(() => {
    vi.useFakeTimers();
    changes = [];
    broker = new PermissionBroker({ graceMs: 1000, onChange: (tabId) => changes.push(tabId) });
  });
  afterEach(() => vi.useRealTimers());

  function ask(tabId: string, id: string, extra?: Partial<PermissionRequestEvent>) {
    const controller = new AbortController();
    let decision: PermissionDecision | undefined;
    void broker.deciderFor(tabId)(request(id, extra), controller.signal).then((d) => (decision = d));
    return { controller, decided: async () => (await vi.advanceTimersByTimeAsync(0), decision) };
  }

  it("lists requests per tab (with the asking subagent) until answered", async () => {
    const release = broker.acquirePresence();
    const a = ask("t1", "r1", { agentId: "a123" });
    ask("t2", "r2");
    expect(broker.pending("t1")).toEqual([expect.objectContaining({ requestId: "r1", agentId: "a123", toolName: "Bash" })]);
    const listBefore = broker.pending("t1");
    expect(broker.pending("t1")).toBe(listBefore);
    expect(broker.answer("t2", "r1", { behavior: "allow" })).toBe(false);
    expect(broker.answer("t1", "r1", { behavior: "allow", decidedBy: "user" })).toBe(true);
    expect(await a.decided()).toEqual({ behavior: "allow", decidedBy: "user" });
    expect(broker.pending("t1")).toEqual([]);
    expect(changes).toContain("t1");
    release();
  });

  it("a request the CLI withdraws leaves the list", () => {
    broker.acquirePresence();
    const a = ask("t1", "r1");
    a.controller.abort();
    expect(broker.pending("t1")).toEqual([]);
  });

  it("denies after the grace period with no window, not before, and not if a window returns", async () => {
    const release = broker.acquirePresence();
    const a = ask("t1", "r1");
    release();
    await vi.advanceTimersByTimeAsync(900);
    expect(await a.decided()).toBeUndefined();
    const again = broker.acquirePresence();
    await vi.advanceTimersByTimeAsync(5000);
    expect(await a.decided()).toBeUndefined();
    again();
    await vi.advanceTimersByTimeAsync(1000);
    expect(await a.decided()).toMatchObject({ behavior: "deny", decidedBy: "window-closed" });
  });

  it("closing a tab denies its requests only; quitting denies all and every later one", async () => {
    broker.acquirePresence();
    const a = ask("t1", "r1");
    const b = ask("t2", "r2");
    broker.denyTab("t1", "tab-closed", "closed");
    expect(await a.decided()).toMatchObject({ behavior: "deny", decidedBy: "tab-closed" });
    expect(await b.decided()).toBeUndefined();
    broker.close();
    expect(await b.decided()).toMatchObject({ behavior: "deny", decidedBy: "shutdown" });
    expect(await ask("t3", "r3").decided()).toMatchObject({ behavior: "deny", decidedBy: "shutdown" });
  });
});

describe("decisionFor", () => {
  const pending = { requestId: "r", toolName: "Bash", toolUseId: "tu", input: { command: "ls" } };
  it("allow for this session keeps only addRules suggestions, as session rules", () => {
    const outcome = decisionFor(
      {
        ...pending,
        suggestions: [
          { type: "addRules", rules: [{ toolName: "Bash", ruleContent: "ls" }], behavior: "allow", destination: "localSettings" },
          { type: "setMode", mode: "acceptEdits", destination: "session" },
        ],
      },
      { behavior: "allow", scope: "session" },
    );
    expect(outcome).toMatchObject({
      ok: true,
      decision: { behavior: "allow", updatedInput: { command: "ls" }, updatedPermissions: [{ type: "addRules", rules: [{ toolName: "Bash", ruleContent: "ls" }], behavior: "allow", destination: "session" }] },
    });
  });
  it("answers and plans only for their own tools; reject is a deny with the feedback", () => {
    expect(decisionFor(pending, { behavior: "allow", answers: { q: "a" } })).toMatchObject({ ok: false, code: "invalid_argument" });
    expect(decisionFor(pending, { behavior: "allow", plan: "x" })).toMatchObject({ ok: false });
    const plan = { ...pending, toolName: "ExitPlanMode", input: { plan: "old" } };
    expect(decisionFor(plan, { behavior: "allow", plan: "new" })).toMatchObject({ ok: true, decision: { behavior: "allow", updatedInput: { plan: "new" } } });
    expect(decisionFor(plan, { behavior: "deny", message: "more tests" })).toMatchObject({ ok: true, decision: { behavior: "deny", message: "more tests" } });
    expect(decisionFor(plan, { behavior: "allow", clearContext: true })).toMatchObject({ ok: true, startFreshWith: "old", decision: { behavior: "deny", interrupt: true } });
  });
  it("a request only a person may answer (2.1.332 requires_user_interaction) never becomes a session rule, and a question needs its answers", () => {
    const suggestions = [{ type: "addRules" as const, rules: [{ toolName: "ExitPlanMode" }], behavior: "allow" as const, destination: "localSettings" as const }];
    const plan = { ...pending, toolName: "ExitPlanMode", input: { plan: "p" }, requiresUserInteraction: true, suggestions };
    expect(decisionFor(plan, { behavior: "allow", scope: "session" })).toMatchObject({ ok: false, code: "invalid_argument", message: expect.stringContaining("each time") });
    expect(decisionFor(plan, { behavior: "allow", updatedPermissions: suggestions })).toMatchObject({ ok: false });
    expect(decisionFor(plan, { behavior: "allow" })).toMatchObject({ ok: true, decision: { behavior: "allow", updatedInput: { plan: "p" } } });
    const question = { ...pending, toolName: "AskUserQuestion", input: { questions: [{ question: "Which?" }] }, requiresUserInteraction: true };
    expect(decisionFor(question, { behavior: "allow" })).toMatchObject({ ok: false, message: expect.stringContaining("answers") });
    expect(decisionFor(question, { behavior: "allow", answers: { "Which?": "A" } })).toMatchObject({ ok: true, decision: { updatedInput: { answers: { "Which?": "A" } } } });
    expect(decisionFor(question, { behavior: "deny", message: "no" })).toMatchObject({ ok: true, decision: { behavior: "deny" } });
  });
});
