// The plan's limits (issue 37): a `rate_limit_event` line becomes the session's plan limits, a
// later report without windows keeps the ones last seen, and the toolbar shows the newest report
// of any live session with a level that warns near the limit.

import { describe, expect, it } from "vitest";
import { mergePlanLimits } from "../../src/main/hub/planLimits.js";
import { parseLine } from "../../src/shared/protocol/parseMessage.js";
import type { TabState } from "../../src/renderer/state/appState.js";
import { emptyTranscriptState } from "../../src/shared/delta/transcriptState.js";
import type { PlanLimits } from "../../src/shared/transcript.js";
import { levelOf, newestPlanLimits, relativeReset, shownWindows, windowText } from "../../src/renderer/util/planLimits.js";
import { eventsOf, line, live, S } from "./cli332Lines.js";

const reset5h = 1_780_000_000;
const reset7d = 1_780_200_000;
/** What 2.1.332 printed for a response with the unified headers (docs/protocol-notes.md). */
const report332 = {
  type: "rate_limit_event",
  rate_limit_info: {
    status: "allowed_warning",
    resetsAt: reset5h,
    rateLimitType: "five_hour",
    isUsingOverage: false,
    unifiedWindows: { five_hour: { utilization: 0.82, resetsAt: reset5h }, seven_day: { utilization: 0.41, resetsAt: reset7d } },
  },
  uuid: "rl1",
  session_id: S,
};
/** A response without the headers. */
const bare = { type: "rate_limit_event", rate_limit_info: { status: "allowed", isUsingOverage: false }, uuid: "rl2", session_id: S };

describe("rate_limit_event on the wire", () => {
  it("parses to a rate_limit event with only the fields Baton shows", () => {
    const withExtras = { ...report332, rate_limit_info: { ...report332.rate_limit_info, overageStatus: "rejected", surprise: { nested: true } } };
    expect(eventsOf([withExtras])).toEqual([
      {
        kind: "rate_limit",
        limits: {
          status: "allowed_warning",
          rateLimitType: "five_hour",
          resetsAt: reset5h,
          isUsingOverage: false,
          fiveHour: { utilization: 0.82, resetsAt: reset5h },
          sevenDay: { utilization: 0.41, resetsAt: reset7d },
        },
      },
    ]);
  });

  it("is lenient on the info's fields: a wrong type counts as absent; use past the cap stays, below 0 does not", () => {
    const odd = { type: "rate_limit_event", rate_limit_info: { status: 3, resetsAt: "soon", unifiedWindows: { five_hour: { utilization: 1.04, status: "rejected" }, seven_day: { utilization: "x" } } }, session_id: S };
    expect(eventsOf([odd])).toEqual([{ kind: "rate_limit", limits: { fiveHour: { utilization: 1.04, status: "rejected" } } }]);
    const negative = { type: "rate_limit_event", rate_limit_info: { unifiedWindows: { seven_day: { utilization: -0.2, resetsAt: 5 } } }, session_id: S };
    expect(eventsOf([negative])).toEqual([{ kind: "rate_limit", limits: { sevenDay: { utilization: 0, resetsAt: 5 } } }]);
  });

  it("a line without rate_limit_info is a problem, not a silent nothing", () => {
    const parsed = parseLine(JSON.stringify({ type: "rate_limit_event", session_id: S }), 7);
    expect(parsed).toMatchObject({ ok: false, problem: { code: "invalid_message", reason: "rate_limit_event: missing object field `rate_limit_info`" } });
  });
});

describe("the session keeps the plan limits last seen", () => {
  it("the transcript carries the newest report; a later one without windows keeps them and takes its status", () => {
    const first = live([line.init(), report332]);
    expect(first.t.planLimits).toMatchObject({ status: "allowed_warning", fiveHour: { utilization: 0.82 }, sevenDay: { utilization: 0.41 } });
    const second = live([bare], first.model);
    expect(second.t.planLimits).toMatchObject({ status: "allowed", rateLimitType: "five_hour", resetsAt: reset5h, fiveHour: { utilization: 0.82, resetsAt: reset5h }, sevenDay: { utilization: 0.41 } });
    expect(second.t.planLimits?.receivedAt).toBeGreaterThanOrEqual(first.t.planLimits?.receivedAt ?? Infinity);
  });

  it("merging: each field of the newer report replaces the older, the others stay", () => {
    const older: PlanLimits = { status: "allowed", fiveHour: { utilization: 0.5, resetsAt: 10 }, sevenDay: { utilization: 0.2 }, receivedAt: 1 };
    expect(mergePlanLimits(older, { fiveHour: { utilization: 0.9, resetsAt: 10 } }, 2)).toEqual({
      status: "allowed",
      fiveHour: { utilization: 0.9, resetsAt: 10 },
      sevenDay: { utilization: 0.2 },
      receivedAt: 2,
    });
    expect(mergePlanLimits(undefined, { status: "allowed" }, 5)).toEqual({ status: "allowed", receivedAt: 5 });
  });

  it("a session without reports (an API key) has no plan limits", () => {
    const result = { type: "result", subtype: "success", is_error: false, result: "Done.", usage: { input_tokens: 10, output_tokens: 2 }, session_id: S };
    expect(live([line.init(), result]).t.planLimits).toBeUndefined();
  });
});

const tab = (tabId: string, kind: "live" | "restored", planLimits?: PlanLimits): TabState => ({
  info: { tabId, title: tabId, live: kind === "live", kind },
  transcript: { ...emptyTranscriptState(), meta: { sessionId: tabId, status: "idle", ...(planLimits === undefined ? {} : { planLimits }) } },
});

describe("the toolbar's meter", () => {
  it("shows the newest report among live tabs (the windows are the account's)", () => {
    const older: PlanLimits = { fiveHour: { utilization: 0.3 }, receivedAt: 100 };
    const newer: PlanLimits = { fiveHour: { utilization: 0.6 }, receivedAt: 200 };
    expect(newestPlanLimits({ a: tab("a", "live", newer), b: tab("b", "live", older), c: tab("c", "live") })).toBe(newer);
    expect(newestPlanLimits({ a: tab("a", "live", older), b: tab("b", "restored", newer) })).toBe(older);
    expect(newestPlanLimits({ c: tab("c", "live") })).toBeUndefined();
  });

  it("warns from 80 % or when the CLI warns; danger from 95 % or when the plan refuses", () => {
    expect([0, 0.79, 0.8, 0.94, 0.95, 1].map((u) => levelOf(u, "allowed"))).toEqual(["ok", "ok", "warning", "warning", "danger", "danger"]);
    expect(levelOf(0.1, "allowed_warning")).toBe("warning");
    expect(levelOf(0.1, "rejected")).toBe("danger");
    expect(levelOf(undefined, undefined)).toBe("ok");
  });

  it("both windows with their levels (2.1.332); the status counts for the deciding window only", () => {
    const limits: PlanLimits = { status: "allowed_warning", rateLimitType: "seven_day", fiveHour: { utilization: 0.2, resetsAt: reset5h }, sevenDay: { utilization: 0.5, resetsAt: reset7d }, receivedAt: 1 };
    expect(shownWindows(limits).map((w) => [w.short, w.level, w.resetsAt])).toEqual([
      ["5h", "ok", reset5h],
      ["7d", "warning", reset7d],
    ]);
    // A window's own status, when the CLI names one, decides over the report's.
    const own: PlanLimits = { ...limits, fiveHour: { utilization: 0.5, status: "rejected" } };
    expect(shownWindows(own).map((w) => w.level)).toEqual(["danger", "warning"]);
  });

  it("2.1.197 reports no utilization: the deciding window alone with its status, no bar", () => {
    const limits: PlanLimits = { status: "allowed_warning", rateLimitType: "five_hour", resetsAt: reset5h, receivedAt: 1 };
    const [only, ...rest] = shownWindows(limits);
    expect(rest).toEqual([]);
    expect(only).toMatchObject({ short: "5h", level: "warning", resetsAt: reset5h });
    expect(only?.window).toBeUndefined();
    expect(windowText(only!, limits.status, (reset5h - 3600) * 1000)).toMatch(/^Five-hour limit: close to the limit, resets in 1 h \(.+\)$/);
    expect(shownWindows({ status: "allowed", receivedAt: 1 })).toEqual([]);
  });

  it("says when a window resets, relative to now", () => {
    const at = (seconds: number) => relativeReset(1000 + seconds, 1000 * 1000);
    expect([at(-5), at(0), at(42), at(59 * 60 + 50), at(3600), at(3600 + 5 * 60), at(86400 * 3), at(86400 * 3 + 4 * 3600 + 60)]).toEqual([
      "now",
      "now",
      "in 42 s",
      "in 1 h",
      "in 1 h",
      "in 1 h 5 min",
      "in 3 d",
      "in 3 d 4 h",
    ]);
  });
});
