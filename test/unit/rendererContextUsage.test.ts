import { describe, expect, it } from "vitest";
import { contextPercent, contextWindow, formatContext } from "../../src/renderer/util/contextUsage.js";

describe("context usage", () => {
  it("knows the window of 1M-context models by their [1m] suffix", () => {
    expect(contextWindow("claude-opus-4-6[1m]")).toBe(1_000_000);
    expect(contextWindow("claude-sonnet-4-5[1M]")).toBe(1_000_000);
    expect(contextWindow("claude-sonnet-4-5")).toBe(200_000);
    expect(contextWindow(undefined)).toBe(200_000);
  });

  it("counts input, cache read and cache creation tokens, not output", () => {
    const usage = { input_tokens: 10_000, cache_read_input_tokens: 30_000, cache_creation_input_tokens: 10_000, output_tokens: 90_000 };
    expect(contextPercent(usage, "claude-sonnet-4-5")).toBe(25);
    expect(contextPercent(usage, "claude-sonnet-4-5[1m]")).toBe(5);
    expect(formatContext(usage, "claude-sonnet-4-5")).toBe("25%");
    expect(formatContext(usage, "claude-sonnet-4-5[1m]")).toBe("5%");
  });

  it("says nothing is known before any usage or when the usage counts no input", () => {
    expect(contextPercent(undefined, "claude-sonnet-4-5")).toBeUndefined();
    expect(formatContext(undefined, undefined)).toBe("—");
    expect(formatContext({}, "claude-sonnet-4-5")).toBe("—");
    expect(formatContext({ input_tokens: 0, output_tokens: 12 }, undefined)).toBe("—");
  });

  it("shows a little context as <1% rather than 0%, and rounds the rest", () => {
    expect(formatContext({ input_tokens: 400 }, undefined)).toBe("<1%");
    expect(formatContext({ input_tokens: 2_999 }, undefined)).toBe("1%");
    expect(formatContext({ input_tokens: 101_000 }, undefined)).toBe("51%");
  });

  it("prefers the window the CLI reported over the one guessed from the model name", () => {
    expect(formatContext({ input_tokens: 100_000 }, "claude-sonnet-4-5", 1_000_000)).toBe("10%");
    expect(formatContext({ input_tokens: 100_000 }, "claude-sonnet-4-5", 0)).toBe("50%");
  });
});
