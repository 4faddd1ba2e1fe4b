// A prompt the CLI queued behind a running turn (2.1.332 command_lifecycle) says so until it starts.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { BlockView } from "../../src/renderer/transcript/BlockView.js";

const prompt = (queued: boolean | undefined): string =>
  renderToStaticMarkup(createElement(BlockView, { tabId: "tab-1", nested: false, block: { kind: "user", id: "22222222-0000-4000-8000-000000000001", text: "second question", ...(queued === undefined ? {} : { queued }) } }));

describe("a queued prompt", () => {
  it("is marked queued while queued, and not once started", () => {
    expect(prompt(true)).toMatch(/aria-label="Queued"[^>]*> queued</);
    expect(prompt(undefined)).not.toContain("queued");
  });
});
