// The toolbar's cost and tokens (issue 34): history keeps no turn results, so a restored session's
// are unknown and say so, never "$0.00"; a live one's are the CLI's, or unknown until a turn ends.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { figuresOf, SessionFigures } from "../../src/renderer/panels/SessionFigures.js";
import type { TabState } from "../../src/renderer/state/appState.js";

const tab = (kind: "live" | "restored", meta: Record<string, unknown>): TabState =>
  ({ info: { tabId: "t1", sessionId: "s1", title: "x", live: kind === "live", kind }, transcript: { meta: { sessionId: "s1", status: "idle", ...meta }, pending: [] } }) as unknown as TabState;
const usage = { input_tokens: 12_345, output_tokens: 678 };

describe("session figures", () => {
  it("are unknown for a restored session, with why in their tooltips, even where the hub has a usage", () => {
    expect(figuresOf(tab("restored", { usage }))).toEqual({
      cost: "—",
      costWhy: "Session cost: not recorded in history",
      tokens: "—",
      tokensWhy: "Tokens of the last turn: not recorded in history",
    });
    const html = renderToStaticMarkup(createElement(SessionFigures, { tab: tab("restored", {}) }));
    expect(html).not.toContain("$0.00");
    expect(html).toContain('title="Session cost: not recorded in history" aria-label="Session cost: not recorded in history">cost —</span>');
    expect(html).toContain(">tokens —</span>");
    const live = renderToStaticMarkup(createElement(SessionFigures, { tab: tab("live", { costUsd: 0.0123 }) }));
    expect(live).toContain('aria-label="Session cost: $0.012">$0.012</span>');
  });

  it("are the CLI's for a live session, and unknown until its first turn ends", () => {
    expect(figuresOf(tab("live", { costUsd: 0.0123, usage }))).toMatchObject({ cost: "$0.012", tokens: "12k in · 678 out" });
    expect(figuresOf(tab("live", {}))).toMatchObject({ cost: "—", costWhy: "Session cost: known when a turn ends", tokens: "—" });
    expect(figuresOf(undefined)).toMatchObject({ cost: "—", tokens: "—" });
  });
});
