import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ControlRequestFailedError, ControlRequestTimeoutError, ClaudeProcessError } from "../../src/main/cli/errors.js";
import { createPendingRequests } from "../../src/main/cli/pendingRequests.js";

describe("pending control requests", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("resolves with the CLI's answer and forgets the request", async () => {
    const pending = createPendingRequests();
    const answer = pending.add("req_1", "initialize", 1000);
    expect(pending.size).toBe(1);
    expect(pending.settle("req_1", { ok: true, response: { commands: [] } })).toBe(true);
    await expect(answer).resolves.toEqual({ commands: [] });
    expect(pending.size).toBe(0);
    expect(pending.settle("req_1", { ok: true })).toBe(false);
  });

  it("rejects with a typed error when the CLI answers with an error", async () => {
    const pending = createPendingRequests();
    const answer = pending.add("req_2", "set_model", 1000);
    pending.settle("req_2", { ok: false, error: "no such model" });
    const error = await answer.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ControlRequestFailedError);
    expect(error).toMatchObject({ subtype: "set_model", requestId: "req_2", cliMessage: "no such model" });
  });

  it("times out with a typed error, clears its timer, and ignores a late answer", async () => {
    const pending = createPendingRequests();
    const answer = pending.add("req_3", "interrupt", 500);
    const caught = answer.catch((e: unknown) => e);
    vi.advanceTimersByTime(499);
    expect(pending.size).toBe(1);
    vi.advanceTimersByTime(1);
    const error = await caught;
    expect(error).toBeInstanceOf(ControlRequestTimeoutError);
    expect(error).toMatchObject({ subtype: "interrupt", timeoutMs: 500 });
    expect(pending.size).toBe(0);
    expect(pending.settle("req_3", { ok: true })).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rejects everything pending when the process exits, and leaves no timers", async () => {
    const pending = createPendingRequests();
    const a = pending.add("a", "interrupt", 10_000).catch((e: unknown) => e);
    const b = pending.add("b", "set_model", 10_000).catch((e: unknown) => e);
    pending.rejectAll(() => new ClaudeProcessError(3, null, "boom"));
    expect(await a).toBeInstanceOf(ClaudeProcessError);
    expect(await b).toMatchObject({ exitCode: 3, stderrTail: "boom" });
    expect(pending.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("refuses a duplicate id", async () => {
    const pending = createPendingRequests();
    void pending.add("x", "interrupt", undefined);
    await expect(pending.add("x", "interrupt", undefined)).rejects.toThrow(/duplicate/);
  });
});
