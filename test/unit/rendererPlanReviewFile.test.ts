// The plan review of an ExitPlanMode request that came with only a plan file (CLI 2.1.332): it
// shows the plan the main side read from the file, or says why the file could not be read.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { PendingPermission } from "../../src/shared/api.js";
import { PlanReview } from "../../src/renderer/transcript/PlanReview.js";

const request = (fields: Partial<PendingPermission>): PendingPermission => ({
  requestId: "req-1",
  toolName: "ExitPlanMode",
  toolUseId: "toolu_plan",
  input: { plan: null, planFilePath: "/home/user/.claude/plans/brave-otter.md" },
  requiresUserInteraction: true,
  ...fields,
});
const review = (r: PendingPermission): string => renderToStaticMarkup(createElement(PlanReview, { tabId: "tab-1", request: r }));

describe("plan review from a plan file", () => {
  it("shows the plan read from the file", () => {
    const html = review(request({ planFromFile: "# Plan\n\n1. **Refactor** the parser" }));
    expect(html).toContain("<strong>Refactor</strong>");
    expect(html).not.toContain("could not be read");
  });

  it("says clearly when the file could not be read", () => {
    const html = review(request({ planFileProblem: "The plan file could not be read: it is not in Claude Code's plans folder." }));
    expect(html).toMatch(/role="alert"[^>]*>.*The plan file could not be read: it is not in Claude Code(&#x27;|')s plans folder\./s);
  });

  it("says so when the request carries no plan at all, instead of an empty review", () => {
    // What 2.1.332 sends when the model called ExitPlanMode without writing its plan file.
    const html = review(request({ input: {} }));
    expect(html).toMatch(/role="alert"[^>]*>.*Claude Code sent no plan/s);
    expect(review(request({ input: { plan: "# Inline plan" } }))).not.toContain("sent no plan");
  });

  it("an inline plan wins over the file", () => {
    expect(review(request({ input: { plan: "# Inline plan" }, planFromFile: "# From file" }))).toContain("Inline plan");
  });
});
