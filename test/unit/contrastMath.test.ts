// The arithmetic of the browser tests' contrast check (test/support/ui/contrast.ts), against
// WCAG 2's own figures.
import { describe, expect, it } from "vitest";
import { contrastMath } from "../support/ui/contrast.js";

const { ratio, over, needed, hex } = contrastMath();
const white = [255, 255, 255, 1] as const;
const black = [0, 0, 0, 1] as const;
const grey = (v: number) => [v, v, v, 1] as const;

describe("contrast arithmetic", () => {
  it("gives WCAG's ratios: 21:1 at most, 1:1 for equal colours, #767676 the lightest grey passing on white", () => {
    expect(ratio(black, white)).toBeCloseTo(21, 5);
    expect(ratio(white, black)).toBeCloseTo(21, 5);
    expect(ratio(grey(128), grey(128))).toBe(1);
    expect(ratio(grey(0x76), white)).toBeGreaterThanOrEqual(4.5);
    expect(ratio(grey(0x77), white)).toBeLessThan(4.5);
    expect(ratio([0x3d, 0x7b, 0xd9, 1], [0x28, 0x28, 0x28, 1])).toBeCloseTo(3.53, 2);
  });

  it("paints a translucent colour over the opaque one under it", () => {
    expect(over([0, 0, 0, 0.5], white)).toEqual([127.5, 127.5, 127.5, 1]);
    expect(over([10, 20, 30, 1], white)).toEqual([10, 20, 30, 1]);
    expect(over([10, 20, 30, 0], grey(40))).toEqual([40, 40, 40, 1]);
    expect(hex(over([0, 0, 0, 0.5], white))).toBe("#808080");
  });

  it("asks 4.5:1 of normal text and 3:1 of large text (24 px, or 18.66 px bold)", () => {
    expect(needed(12, 400)).toBe(4.5);
    expect(needed(23.9, 400)).toBe(4.5);
    expect(needed(24, 400)).toBe(3);
    expect(needed(18.66, 700)).toBe(3);
    expect(needed(18.66, 600)).toBe(4.5);
  });
});
