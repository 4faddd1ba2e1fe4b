// Markdown from the model is untrusted: it must render inert (no raw HTML, no script URLs).
import { describe, expect, it } from "vitest";
import { isAllowedLink, renderMarkdown } from "../../src/renderer/markdown/renderMarkdown.js";

describe("renderMarkdown", () => {
  it("escapes raw HTML instead of emitting elements", () => {
    const html = renderMarkdown('<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).toContain("&lt;script&gt;");
  });

  it("drops javascript:, data: and vbscript: links but keeps http(s) and mailto", () => {
    const html = renderMarkdown("[a](javascript:alert(1)) [b](data:text/html,x) [c](vbscript:x) [d](https://example.com) [e](mailto:x@example.com)");
    expect(html).not.toMatch(/href="(javascript|data|vbscript):/i);
    expect(html).toContain('href="https://example.com"');
    expect(html).toContain('href="mailto:x@example.com"');
  });

  it("never emits an event-handler attribute", () => {
    const html = renderMarkdown('[x](https://e.com "t\\" onmouseover=\\"alert(1)") **<b onclick=alert(1)>b</b>**');
    const attributes = [...html.matchAll(/<\w+((?:\s+[\w-]+(?:="[^"]*")?)*)\s*\/?>/g)].flatMap((m) =>
      [...(m[1] ?? "").matchAll(/\s([\w-]+)(?:="[^"]*")?/g)].map((a) => a[1]),
    );
    expect(attributes.length).toBeGreaterThan(0);
    expect(attributes.filter((name) => /^on/i.test(name ?? ""))).toEqual([]);
    expect(html).not.toMatch(/<b\s/);
  });

  it("renders images as links, not as fetched images", () => {
    const html = renderMarkdown("![pic](https://example.com/a.png) ![bad](javascript:alert(1))");
    expect(html).not.toMatch(/<img/i);
    expect(html).toContain('href="https://example.com/a.png"');
    expect(html).not.toMatch(/href="javascript:/i);
  });

  it("highlights fenced code and escapes it", () => {
    const html = renderMarkdown("```ts\nconst a = '<b>';\n```");
    expect(html).toContain("hljs-keyword");
    expect(html).not.toContain("<b>");
  });

  it("allows only absolute http(s) and mailto links", () => {
    expect(isAllowedLink("https://x.org")).toBe(true);
    expect(isAllowedLink("  HTTP://x.org")).toBe(true);
    expect(isAllowedLink("mailto:a@b.c")).toBe(true);
    expect(isAllowedLink("javascript:alert(1)")).toBe(false);
    expect(isAllowedLink("/relative")).toBe(false);
    expect(isAllowedLink("file:///etc/passwd")).toBe(false);
  });
});
