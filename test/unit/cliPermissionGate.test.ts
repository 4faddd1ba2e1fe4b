import { describe, expect, it, vi } from "vitest";
import type { PermissionCancelledEvent, PermissionResolvedEvent } from "../../src/shared/events.js";
import type { CanUseToolRequest, PermissionResult } from "../../src/shared/protocol/messages.js";
import {
  createPermissionGate,
  toPermissionResult,
  type PermissionDecider,
} from "../../src/main/cli/permissionGate.js";

const request: CanUseToolRequest = {
  subtype: "can_use_tool",
  tool_name: "Bash",
  input: { command: "touch a.txt", description: "touch" },
  tool_use_id: "toolu_1",
  agent_id: "a0123456789abcdef",
};

type Answer = { requestId: string; result: PermissionResult & { toolUseID?: string } };

function harness(decide: PermissionDecider, timeoutMs?: number) {
  const answers: Answer[] = [];
  const events: (PermissionResolvedEvent | PermissionCancelledEvent)[] = [];
  const gate = createPermissionGate({
    decide,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    answer: (requestId, result) => answers.push({ requestId, result }),
    emit: (event) => events.push(event),
  });
  return { gate, answers, events };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe("permission answers the CLI accepts", () => {
  it("allow echoes the original input when the decision does not rewrite it", () => {
    expect(toPermissionResult({ behavior: "allow" }, request.input)).toEqual({
      behavior: "allow",
      updatedInput: request.input,
    });
  });

  it("allow carries the rewritten input and permission updates", () => {
    const rule = { type: "addRules" as const, rules: [{ toolName: "Bash" }], behavior: "allow" as const, destination: "session" as const };
    expect(
      toPermissionResult({ behavior: "allow", updatedInput: { command: "ls" }, updatedPermissions: [rule] }, request.input),
    ).toEqual({ behavior: "allow", updatedInput: { command: "ls" }, updatedPermissions: [rule] });
  });

  it("deny always has a message and keeps interrupt", () => {
    expect(toPermissionResult({ behavior: "deny", message: "  " }, request.input)).toEqual({ behavior: "deny", message: "Denied by Baton." });
    expect(toPermissionResult({ behavior: "deny", message: "no", interrupt: true }, request.input)).toEqual({
      behavior: "deny",
      message: "no",
      interrupt: true,
    });
  });
});

describe("permission gate", () => {
  it("passes the request (with agentId) to the decider and answers once with its decision", async () => {
    const decide = vi.fn<PermissionDecider>(async () => ({ behavior: "allow", decidedBy: "user" }));
    const { gate, answers, events } = harness(decide);
    gate.handle("r1", request);
    await flush();
    expect(decide.mock.calls[0]![0]).toMatchObject({ requestId: "r1", toolName: "Bash", agentId: "a0123456789abcdef", toolUseId: "toolu_1" });
    expect(answers).toEqual([{ requestId: "r1", result: { behavior: "allow", updatedInput: request.input, toolUseID: "toolu_1" } }]);
    expect(events).toEqual([{ kind: "permission_resolved", requestId: "r1", behavior: "allow", decidedBy: "user" }]);
    expect(gate.openRequests).toEqual([]);
  });

  it("a throwing decider becomes a deny decided by 'error'", async () => {
    const { gate, answers, events } = harness(async () => {
      throw new Error("policy exploded");
    });
    gate.handle("r2", request);
    await flush();
    expect(answers[0]!.result).toMatchObject({ behavior: "deny" });
    expect((answers[0]!.result as { message: string }).message).toContain("policy exploded");
    expect(events[0]).toMatchObject({ behavior: "deny", decidedBy: "error" });
  });

  it("a synchronously throwing or malformed decider also fails closed", async () => {
    const { gate, answers } = harness((() => {
      throw new Error("sync");
    }) as PermissionDecider);
    gate.handle("r3", request);
    const bad = harness(async () => ({ behavior: "maybe" }) as never);
    bad.gate.handle("r4", request);
    await flush();
    expect(answers[0]!.result.behavior).toBe("deny");
    expect(bad.answers[0]!.result.behavior).toBe("deny");
    expect(bad.events[0]).toMatchObject({ decidedBy: "error" });
  });

  it("times out into a deny, aborts the decider, and ignores its late answer", async () => {
    vi.useFakeTimers();
    try {
      let seen: AbortSignal | undefined;
      let late: ((d: { behavior: "allow" }) => void) | undefined;
      const { gate, answers, events } = harness(
        (_req, signal) =>
          new Promise((resolve) => {
            seen = signal;
            late = resolve;
          }),
        1000,
      );
      gate.handle("r5", request);
      await vi.advanceTimersByTimeAsync(1000);
      expect(answers).toHaveLength(1);
      expect(answers[0]!.result.behavior).toBe("deny");
      expect(events[0]).toMatchObject({ decidedBy: "timeout" });
      expect(seen?.aborted).toBe(true);
      late!({ behavior: "allow" });
      await vi.advanceTimersByTimeAsync(10);
      expect(answers).toHaveLength(1);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a withdrawn request aborts the decider and is never answered", async () => {
    let seen: AbortSignal | undefined;
    let resolveLater: ((d: { behavior: "allow" }) => void) | undefined;
    const { gate, answers } = harness(
      (_req, signal) =>
        new Promise((resolve) => {
          seen = signal;
          resolveLater = resolve;
        }),
    );
    gate.handle("r6", request);
    await flush();
    expect(gate.cancel("r6")).toBe(true);
    expect(seen?.aborted).toBe(true);
    resolveLater!({ behavior: "allow" });
    await flush();
    expect(answers).toEqual([]);
    expect(gate.cancel("r6")).toBe(false);
  });

  it("denyAll answers every open request with deny (shutdown)", async () => {
    const { gate, answers, events } = harness(() => new Promise(() => undefined));
    gate.handle("a", request);
    gate.handle("b", { ...request, tool_use_id: "toolu_2" });
    gate.denyAll("shutdown", "Baton is stopping");
    expect(answers.map((a) => [a.requestId, a.result])).toEqual([
      ["a", { behavior: "deny", message: "Baton is stopping", toolUseID: "toolu_1" }],
      ["b", { behavior: "deny", message: "Baton is stopping", toolUseID: "toolu_2" }],
    ]);
    expect(events.every((e) => e.kind === "permission_resolved" && e.decidedBy === "shutdown")).toBe(true);
  });

  it("abandonAll (process gone) aborts deciders and reports the requests cancelled", async () => {
    let seen: AbortSignal | undefined;
    const { gate, answers, events } = harness((_req, signal) => {
      seen = signal;
      return new Promise(() => undefined);
    });
    gate.handle("z", request);
    await flush();
    gate.abandonAll();
    expect(seen?.aborted).toBe(true);
    expect(answers).toEqual([]);
    expect(events).toEqual([{ kind: "permission_cancelled", requestId: "z" }]);
  });
});
