import { describe, expect, it } from "vitest";
import { MaxNestedBlocks } from "../../src/shared/transcript.js";
import { stepWindow, StepPage } from "../../src/renderer/util/stepWindow.js";

describe("steps drawn in a card", () => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => `s${i}`);

  it("draws a live card's whole capped list", () => {
    expect(StepPage).toBeGreaterThanOrEqual(MaxNestedBlocks);
    const live = ids(MaxNestedBlocks);
    expect(stepWindow(live, StepPage)).toEqual({ hidden: 0, visible: live });
  });

  it("draws the newest page of a long loaded history and counts the rest", () => {
    const all = ids(1000);
    const first = stepWindow(all, StepPage);
    expect(first.hidden).toBe(800);
    expect(first.visible[0]).toBe("s800");
    expect(first.visible.at(-1)).toBe("s999");
    expect(stepWindow(all, 5 * StepPage)).toEqual({ hidden: 0, visible: all });
  });
});
