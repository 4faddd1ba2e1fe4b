// Markdown from the model is untrusted: it must render inert (no raw HTML, no script URLs).
import { describe, expect, it } from "vitest";
import { isAllowedLink, renderMarkdown } from "../../src/shared/markdown/renderMarkdown.js";

describe("renderMarkdown", () => {
  it("escapes raw HTML instead of emitting elements", () => {
    const html = renderMarkdown('<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).toContain("&lt;script&gt;");
  });

  it("links only https: and mailto:, as the desktop shell does; anything else stays text", () => {
    const html = renderMarkdown("[a](javascript:alert(1)) [b](data:text/html,x) [c](vbscript:x) [d](https://example.com) [e](mailto:x@example.com) [f](http://example.com/plain) [g](file:///etc/passwd) [h](//evil.example/x) [i](JaVaScRiPt&#58;alert(2)) <http://auto.example/> <vscode://file/x>");
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
    expect(hrefs).toEqual(["https://example.com", "mailto:x@example.com"]);
    expect(html).toContain("http://example.com/plain");
    expect(html).toContain("http://auto.example/");
  });

  it("shows hidden direction and zero-width characters in text and code as markers", () => {
    const html = renderMarkdown("Run `rm -rf /\u202Etxt.exe` now\u200B.\n\n```\nls\u2066x\n```\n\n```sh\necho a\u202Db\n```");
    expect(html).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B]/);
    expect(html).toContain('<span class="hidden-char direction" data-hidden="direction"');
    expect(html).toContain("⟨U+202E⟩");
    expect(html).toContain("⟨U+200B⟩");
    expect(html).toContain("⟨U+2066⟩");
    expect(html).toContain("⟨U+202D⟩");
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

  it("allows only absolute https and mailto links", () => {
    expect(isAllowedLink("https://x.org")).toBe(true);
    expect(isAllowedLink("HTTPS://x.org")).toBe(true);
    expect(isAllowedLink("  https://x.org")).toBe(false);
    expect(isAllowedLink("http://x.org")).toBe(false);
    expect(isAllowedLink("mailto:a@b.c")).toBe(true);
    expect(isAllowedLink("javascript:alert(1)")).toBe(false);
    expect(isAllowedLink("/relative")).toBe(false);
    expect(isAllowedLink("file:///etc/passwd")).toBe(false);
  });
});
