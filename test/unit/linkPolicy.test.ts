// One link policy for the desktop shell, the markdown renderer and the WebFetch card: absolute
// https: and mailto: only, nothing disguised.
import { describe, expect, it } from "vitest";
import { isAllowedExternalUrl } from "../../src/shared/linkPolicy.js";

describe("isAllowedExternalUrl", () => {
  it.each([
    "https://example.com/",
    "https://docs.anthropic.com/en/docs?q=1#x",
    "HTTPS://EXAMPLE.COM/Path",
    "https://例え.jp/",
    "mailto:someone@example.com",
    "mailto:a@b.c?subject=hi%20there",
  ])("opens %s", (url) => {
    expect(isAllowedExternalUrl(url)).toBe(true);
  });

  it.each([
    ["plain http", "http://example.com/"],
    ["javascript:", "javascript:alert(1)"],
    ["mixed-case javascript:", "JaVaScRiPt:alert(1)"],
    ["javascript: with a tab inside", "java\tscript:alert(1)"],
    ["javascript: with a newline inside", "java\nscript:alert(1)"],
    ["leading space", " https://example.com/"],
    ["leading control character", "\u0001javascript:alert(1)"],
    ["C1 control", "https://example.com/\u0085"],
    ["entity-encoded colon", "javascript&#58;alert(1)"],
    ["entity-encoded https", "https&#58;//example.com"],
    ["percent-encoded scheme", "javascript%3Aalert(1)"],
    ["data:", "data:text/html,<script>alert(1)</script>"],
    ["file:", "file:///etc/passwd"],
    ["vbscript:", "vbscript:msgbox(1)"],
    ["custom scheme", "vscode://file/home/user/x"],
    ["ms- scheme", "ms-settings:"],
    ["blob:", "blob:https://example.com/uuid"],
    ["protocol-relative", "//evil.example/"],
    ["relative", "/etc/passwd"],
    ["credentials", "https://user:pass@example.com/"],
    ["bidi override in the host or path", "https://example.com/\u202Eexe.txt"],
    ["zero-width character", "https://pay\u200Bpal.com/"],
    ["empty host", "https://"],
    ["empty mailto", "mailto:"],
    ["too long", `https://example.com/${"a".repeat(3000)}`],
    ["empty", ""],
  ])("refuses %s", (_what, url) => {
    expect(isAllowedExternalUrl(url)).toBe(false);
  });

  it("takes a stricter policy: named hosts only", () => {
    const policy = { protocols: ["https:"], hosts: ["github.com", "*.anthropic.com"] };
    expect(isAllowedExternalUrl("https://docs.anthropic.com/x", policy)).toBe(true);
    expect(isAllowedExternalUrl("https://anthropic.com.evil.io/x", policy)).toBe(false);
  });
});
