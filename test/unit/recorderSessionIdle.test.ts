// The recorder closes a CLI's stdin only once the session is idle: with 2.1.332's background
// agents (its default for Agent calls) the first `result` is not the end, and an interrupt after
// the main turn ended gives no `result` at all.
import { describe, expect, it } from "vitest";
import { SessionIdleTracker, waitForIdle } from "../support/scenarios/sessionIdle.js";

const line = (value: Record<string, unknown>) => JSON.stringify(value);
const prompt = line({ type: "user", message: { role: "user", content: "go" }, parent_tool_use_id: null, session_id: "", uuid: "u1" });
const result = (extra: Record<string, unknown> = {}) => line({ type: "result", subtype: "success", is_error: false, result: "ok", ...extra });
const tasksChanged = (...ids: string[]) =>
  line({ type: "system", subtype: "background_tasks_changed", tasks: ids.map((task_id) => ({ task_id, task_type: "local_agent" })) });
const started = (task_id: string, extra: Record<string, unknown>) =>
  line({ type: "system", subtype: "task_started", task_id, run_id: `r-${task_id}`, task_type: "local_agent", ...extra });
const notified = (task_id: string, status = "completed") => line({ type: "system", subtype: "task_notification", task_id, status, summary_is_report: true });
const interrupt = line({ type: "control_request", request_id: "req_2", request: { subtype: "interrupt" } });
const interruptAnswer = line({ type: "control_response", response: { subtype: "success", request_id: "req_2", response: { still_queued: [] } } });

function feed(tracker: SessionIdleTracker, steps: readonly ["in" | "out", string][]): boolean[] {
  return steps.map(([side, text]) => {
    if (side === "in") tracker.stdin(text);
    else tracker.stdout(text);
    return tracker.state.idle;
  });
}

describe("when a recorded session is idle", () => {
  it("a background agent keeps it busy past the first result, until its notification turn has its result", () => {
    const t = new SessionIdleTracker();
    const idle = feed(t, [
      ["in", prompt],
      ["out", started("a1", { is_backgrounded: true, spawn_depth: 1 })],
      ["out", tasksChanged("a1")],
      ["out", result()],
      ["out", notified("a1")],
      ["out", tasksChanged()],
      ["out", result({ origin: { kind: "task-notification", producer: "session-task", runId: "r-a1" } })],
    ]);
    expect(idle).toEqual([false, false, false, false, false, false, true]);
  });

  it("the empty task list alone is not enough while a background agent's notification is still to come", () => {
    const t = new SessionIdleTracker();
    feed(t, [["in", prompt], ["out", started("a1", { is_backgrounded: true })], ["out", result()], ["out", tasksChanged()]]);
    expect(t.state).toEqual({ idle: false, waitingFor: ["the task_notification of a1"] });
  });

  it("a nested (foreground) agent's notification starts no turn of its own", () => {
    const t = new SessionIdleTracker();
    const idle = feed(t, [
      ["in", prompt],
      ["out", started("a1", { is_backgrounded: true })],
      ["out", result()],
      ["out", started("a2", { is_backgrounded: false, spawn_depth: 2, parent_task_id: "a1" })],
      ["out", notified("a2")],
      ["out", notified("a1")],
      ["out", tasksChanged()],
      ["out", result()],
    ]);
    expect(idle.at(-1)).toBe(true);
    expect(idle.slice(0, -1).every((x) => !x)).toBe(true);
  });

  it("an interrupt after the main turn ended is over at its answer: no result, and the killed agent starts no turn", () => {
    const t = new SessionIdleTracker();
    const idle = feed(t, [
      ["in", prompt],
      ["out", started("a1", { is_backgrounded: true })],
      ["out", tasksChanged("a1")],
      ["out", result()],
      ["in", interrupt],
      ["out", notified("a1", "killed")],
      ["out", tasksChanged()],
      ["out", interruptAnswer],
    ]);
    expect(idle).toEqual([false, false, false, false, false, false, true, true]);
  });

  it("a result that says turns are queued leaves the session busy", () => {
    const t = new SessionIdleTracker();
    feed(t, [["in", prompt], ["out", result({ queued_turn_count: 1 })]]);
    expect(t.state.idle).toBe(false);
    t.stdout(result({ queued_turn_count: 0 }));
    expect(t.state.idle).toBe(true);
  });

  it("2.1.197 traffic (no background_tasks_changed, no is_backgrounded) is idle at the prompt's result", () => {
    const t = new SessionIdleTracker();
    const idle = feed(t, [["in", prompt], ["out", started("a1", {})], ["out", notified("a1")], ["out", result()]]);
    expect(idle).toEqual([false, false, false, true]);
  });

  it("a wait that never sees idle fails with what it still waits for", async () => {
    const t = new SessionIdleTracker();
    feed(t, [["in", prompt], ["out", started("a1", { is_backgrounded: true })], ["out", tasksChanged("a1")], ["out", result()]]);
    await expect(waitForIdle(t, () => false, 50)).rejects.toThrow(
      "the session was not idle within 50 ms; still waiting for: live background tasks a1; the task_notification of a1",
    );
  });

  it("a wait ends when the tracker turns idle, or when the process is gone", async () => {
    const t = new SessionIdleTracker();
    feed(t, [["in", prompt]]);
    const waiting = waitForIdle(t, () => false, 5_000);
    t.stdout(result());
    await expect(waiting).resolves.toBeUndefined();
    const t2 = new SessionIdleTracker();
    feed(t2, [["in", prompt]]);
    await expect(waitForIdle(t2, () => true, 5_000)).resolves.toBeUndefined();
  });
});
