// The window's side of background agents: an interrupt that would stop some asks first, naming how
// many; the status pill says "working" while they live; "a long turn ended" waits for the last.
import { beforeEach, describe, expect, it } from "vitest";
import type { BatonApi, Result } from "../../src/shared/api.js";
import type { ClientEvent } from "../../src/shared/events.js";
import { setApi } from "../../src/renderer/apiClient.js";
import { cancelInterrupt, interruptActive } from "../../src/renderer/actions.js";
import { LongTurns, LongTurnMs } from "../../src/renderer/longTurns.js";
import { setTabs, useApp } from "../../src/renderer/state/appState.js";
import { enqueueDelta, flushDeltas } from "../../src/renderer/state/deltaQueue.js";
import { statusText } from "../../src/renderer/panels/Toolbar.js";
import { SessionModel } from "../../src/main/hub/index.js";
import { ev } from "./hubTestKit.js";

let sent: string[] = [];
let answer: (r: Result<void>) => void = () => undefined;

beforeEach(() => {
  sent = [];
  setApi({
    interrupt: (tabId: string) => {
      sent.push(tabId);
      return new Promise<Result<void>>((resolve) => (answer = resolve));
    },
  } as unknown as BatonApi);
  useApp.setState({ tabs: {}, tabOrder: [], activeTabId: undefined, expanded: {}, interruptConfirm: undefined, interrupting: {} });
  setTabs([{ tabId: "t1", title: "One", live: true }]);
});

function showMeta(meta: { status: "running" | "idle"; backgroundAgents?: number }): void {
  enqueueDelta({ tabId: "t1", meta: { sessionId: "s-1", ...meta }, upserts: [], children: {} });
  flushDeltas();
}

describe("interrupting a session with background agents", () => {
  it("the first ask opens a confirm naming the count and sends nothing; the second sends it", async () => {
    showMeta({ status: "running", backgroundAgents: 2 });
    interruptActive();
    expect(sent).toEqual([]);
    expect(useApp.getState().interruptConfirm).toEqual({ tabId: "t1", agents: 2 });
    interruptActive(); // Esc again, or the confirm's button
    expect(sent).toEqual(["t1"]);
    expect(useApp.getState().interruptConfirm).toBeUndefined();
    // Until the interrupt has taken effect the button says so; then it is free again.
    expect(useApp.getState().interrupting).toEqual({ t1: true });
    answer({ ok: true, value: undefined });
    await expect.poll(() => useApp.getState().interrupting).toEqual({});
  });

  it("Cancel sends nothing, and the next ask asks again", () => {
    showMeta({ status: "running", backgroundAgents: 1 });
    interruptActive();
    cancelInterrupt();
    expect(useApp.getState().interruptConfirm).toBeUndefined();
    interruptActive();
    expect(sent).toEqual([]);
    expect(useApp.getState().interruptConfirm).toEqual({ tabId: "t1", agents: 1 });
  });

  it("no confirm when no background agent would be stopped", () => {
    showMeta({ status: "running" });
    interruptActive();
    expect(sent).toEqual(["t1"]);
    expect(useApp.getState().interruptConfirm).toBeUndefined();
  });

  it("a confirm asked in another tab does not confirm this one", () => {
    setTabs([{ tabId: "t1", title: "One", live: true }, { tabId: "t2", title: "Two", live: true }]);
    showMeta({ status: "running", backgroundAgents: 2 });
    useApp.setState({ activeTabId: "t2", interruptConfirm: { tabId: "t1", agents: 2 } });
    enqueueDelta({ tabId: "t2", meta: { sessionId: "s-2", status: "running", backgroundAgents: 1 }, upserts: [], children: {} });
    flushDeltas();
    interruptActive();
    expect(sent).toEqual([]);
    expect(useApp.getState().interruptConfirm).toEqual({ tabId: "t2", agents: 1 });
  });

  it("the status pill says working, and how many agents work in the background", () => {
    expect(statusText("running", 0)).toBe("working");
    expect(statusText("running", 2)).toBe("working · 2 background agents");
    expect(statusText("running", 1)).toBe("working · 1 background agent");
    expect(statusText("idle", 0)).toBe("idle");
    expect(statusText(undefined, 0)).toBe("no session");
  });
});

describe("'a long turn ended' waits for the last background agent", () => {
  // A turn that launches a background agent and answers at once; the agent ends 30 s later and
  // its report's turn follows (2.1.197 shapes; 2.1.332 adds background_tasks_changed).
  const launched: ClientEvent[] = [
    ev.init(),
    ev.prompt("go"),
    ev.agent("toolu_A", "bg"),
    ev.started("a1", "toolu_A"),
    ev.result("toolu_A", "Async agent launched", null, { structured: { isAsync: true, status: "async_launched", agentId: "a1" } }),
    ev.text("t1", "Started it."),
    ev.turnEnd(),
  ];
  const finished: ClientEvent[] = [ev.text("s1", "bg done", "toolu_A"), ev.updated("a1", "completed"), ev.notified("a1", "completed"), ev.init(), ev.text("t2", "It finished."), ev.turnEnd()];

  function notificationsOver(events: readonly { event: ClientEvent; at: number }[]): number[] {
    const turns = new LongTurns();
    const model = new SessionModel();
    const at: number[] = [];
    for (const { event, at: now } of events) {
      model.apply([event]);
      if (turns.update("t1", model.transcript().status, now)) at.push(now);
    }
    return at;
  }

  it("one notification, when the session is really idle, none at the first result", () => {
    // The first turn itself is long (its result at 21 s), the agent ends at 51 s.
    const firstResult = 1_000 + LongTurnMs + 1;
    const end = firstResult + 30_000;
    const timeline = [
      ...launched.map((event) => ({ event, at: event.kind === "turn_result" ? firstResult : 1_000 })),
      ...finished.map((event) => ({ event, at: end })),
    ];
    expect(notificationsOver(timeline)).toEqual([end]);
  });

  it("a short stretch of work notifies nothing", () => {
    const timeline = [...launched, ...finished].map((event, i) => ({ event, at: 1_000 + i }));
    expect(notificationsOver(timeline)).toEqual([]);
  });
});
