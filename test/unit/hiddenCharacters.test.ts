// Which characters the window and terminal show as markers, and which legitimate uses stay as they are.
import { describe, expect, it } from "vitest";
import { hasHidden, hiddenKinds, hiddenRunLabel, markHidden, splitHidden } from "../../src/shared/hiddenCharacters.js";

describe("hidden characters", () => {
  it.each([
    ["\u202A", "direction"], ["\u202B", "direction"], ["\u202C", "direction"], ["\u202D", "direction"], ["\u202E", "direction"],
    ["\u2066", "direction"], ["\u2067", "direction"], ["\u2068", "direction"], ["\u2069", "direction"],
    ["\u200E", "direction"], ["\u200F", "direction"], ["\u061C", "direction"],
    ["\u200B", "invisible"], ["\u200C", "invisible"], ["\u200D", "invisible"], ["\u2060", "invisible"], ["\uFEFF", "invisible"],
    ["\u00AD", "invisible"], ["\u180E", "invisible"], ["\u3164", "invisible"], ["\u{E0041}", "invisible"],
  ])("marks U+%s as %s", (char, kind) => {
    const text = `ls${char}x`;
    expect(hasHidden(text)).toBe(true);
    const pieces = splitHidden(text);
    expect(pieces).toEqual([{ kind: "text", text: "ls" }, { kind: "hidden", chars: char, hiddenKind: kind }, { kind: "text", text: "x" }]);
    expect(hiddenKinds(text)).toEqual({ direction: kind === "direction", invisible: kind === "invisible" });
  });

  it("keeps the text in logical order: the pieces join back to the input", () => {
    const text = "rm -rf /\u202Etxt.exe\u200B\u200B done \u2066x\u2069";
    expect(splitHidden(text).map((p) => (p.kind === "text" ? p.text : p.chars)).join("")).toBe(text);
    expect(markHidden(text)).toBe("rm -rf /⟨U+202E⟩txt.exe⟨U+200B ×2⟩ done ⟨U+2066⟩x⟨U+2069⟩");
  });

  it("leaves emoji sequences, Persian and Hindi joiners and a single variation selector alone", () => {
    for (const ok of ["👨\u200D👩\u200D👧", "👍🏽", "❤\uFE0F", "می\u200Cخواهم", "क्\u200Dष", "plain ascii", "漢\u{E0100}"]) {
      expect(hasHidden(ok), JSON.stringify(ok)).toBe(false);
    }
  });

  it("flags a run of variation selectors (bytes smuggled into one character) and a ZWJ between Latin letters", () => {
    expect(markHidden("x\uFE00\uFE01\uFE02")).toBe("x\uFE00⟨U+FE01 U+FE02⟩");
    expect(markHidden("pay\u200Dpal")).toBe("pay⟨U+200D⟩pal");
  });

  it("labels long runs briefly", () => {
    expect(hiddenRunLabel("\u200B")).toBe("U+200B");
    expect(hiddenRunLabel("\u200B".repeat(40))).toBe("U+200B ×40");
    expect(hiddenRunLabel("\u{E0069}\u{E0067}\u{E006E}\u{E006F}\u{E0072}")).toBe("U+E0069 U+E0067 U+E006E … (5 characters)");
  });
});
