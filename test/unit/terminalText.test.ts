// terminalText: nothing printed from a history file can act on the terminal; terminalJson: the
// same value as JSON.stringify, with no raw byte a terminal would act on.
import { describe, expect, it } from "vitest";
import { terminalJson, terminalText } from "../../src/shared/terminalText.js";

describe("terminalText", () => {
  it.each([
    ["OSC 52 clipboard write", "a\u001b]52;c;cm0gLXJm\u0007b", "a<U+001B>]52;c;cm0gLXJm<U+0007>b"],
    ["OSC title with ST", "\u001b]0;owned\u001b\\", "<U+001B>]0;owned<U+001B>\\"],
    ["CSI clear and cursor moves", "\u001b[2J\u001b[1;1H\u001b[1A", "<U+001B>[2J<U+001B>[1;1H<U+001B>[1A"],
    ["DCS", "\u001bP+q544e\u001b\\", "<U+001B>P+q544e<U+001B>\\"],
    ["C1 CSI, NEL and OSC", "\u009b31m\u0085\u009d0;x\u009c", "<U+009B>31m<U+0085><U+009D>0;x<U+009C>"],
    ["BEL, BS, NUL, DEL, VT, FF", "\u0007\u0008\u0000\u007f\u000b\u000c", "<U+0007><U+0008><U+0000><U+007F><U+000B><U+000C>"],
    ["a lone CR (overwrites the line)", "rm -rf ~\rls", "rm -rf ~<U+000D>ls"],
    ["bidi controls", "a\u202Eb\u2066c\u2069\u200F", "a<U+202E>b<U+2066>c<U+2069><U+200F>"],
    ["zero-width characters", "pay\u200Bpal\uFEFF", "pay<U+200B>pal<U+FEFF>"],
    ["tag characters (smuggled text)", "x\u{E0069}\u{E0067}", "x<U+E0069><U+E0067>"],
  ])("shows %s visibly", (_what, input, shown) => {
    expect(terminalText(input)).toBe(shown);
  });

  it("keeps newlines, tabs, CRLF line ends (as LF), emoji sequences and ordinary text", () => {
    expect(terminalText("a\tb\nc\r\nd")).toBe("a\tb\nc\nd");
    expect(terminalText("family 👨\u200D👩\u200D👧 ❤\uFE0F «match» café — ok")).toBe("family 👨\u200D👩\u200D👧 ❤\uFE0F «match» café — ok");
  });

  it("is idempotent: its output has nothing left to change", () => {
    const once = terminalText("\u001b]52;c;x\u0007\u202E\u009b");
    expect(terminalText(once)).toBe(once);
  });
});

describe("terminalJson", () => {
  const value = { title: "\u001b]52;c;x\u0007 \u009b31m \u007f \u202E \u200B \u00AD \u{E0041}", n: 1, emoji: "👨\u200D👩" };

  it("is valid JSON for the very same value", () => {
    expect(JSON.parse(terminalJson(value, 2))).toEqual(value);
  });

  it("leaves no C0, C1, DEL, bidi or zero-width character raw", () => {
    expect(terminalJson(value)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u202a-\u202e\u{e0000}-\u{e007f}]/u);
    expect(terminalJson(value)).toContain("\\u009b31m");
    expect(terminalJson(value)).toContain("\\u202e");
  });

  it("passes the terminal chokepoint unchanged", () => {
    const json = terminalJson(value, 2);
    expect(terminalText(json)).toBe(json);
  });
});
