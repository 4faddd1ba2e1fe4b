import path from "node:path";
import { describe, expect, it } from "vitest";
import { APP_ENTRY_URL, APP_ORIGIN, resolveAppAsset } from "../../src/main/window/appProtocol.js";
import { contentSecurityPolicy } from "../../src/main/platform/contentSecurityPolicy.js";
import { isAllowedExternalUrl, windowOpenHandler } from "../../src/main/window/externalLinks.js";
import { decideNavigation, shouldAllowNavigation } from "../../src/main/window/navigationPolicy.js";
import { createWindowOptions } from "../../src/main/window/windowOptions.js";

function directives(csp: string): Map<string, string> {
  return new Map(
    csp.split(";").map((part) => {
      const [name = "", ...values] = part.trim().split(/\s+/);
      return [name, values.join(" ")];
    }),
  );
}

describe("createWindowOptions", () => {
  it("isolates and sandboxes the page and uses the given preload", () => {
    const prefs = createWindowOptions({ preloadPath: "/app/out/preload/index.cjs" }).webPreferences;
    expect(prefs).toMatchObject({
      preload: "/app/out/preload/index.cjs",
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });

  it("turns off the middle-click (auxclick) event, which could otherwise open links in a new window", () => {
    expect(createWindowOptions({ preloadPath: "/app/out/preload/index.cjs" }).webPreferences?.disableBlinkFeatures).toBe("Auxclick");
  });

  it("shows the frame in the system's scheme before the page draws, the themes' own window colour", () => {
    expect(createWindowOptions({ preloadPath: "/p.cjs", dark: true }).backgroundColor).toBe("#191919");
    expect(createWindowOptions({ preloadPath: "/p.cjs", dark: false }).backgroundColor).toBe("#cfcfcf");
  });
});

describe("contentSecurityPolicy", () => {
  it("allows only the app's own scripts, styles and connections in a build", () => {
    const csp = directives(contentSecurityPolicy());
    expect(csp.get("default-src")).toBe("'none'");
    expect(csp.get("script-src")).toBe("'self'");
    expect(csp.get("style-src")).toBe("'self'");
    expect(csp.get("connect-src")).toBe("'self'");
    expect(csp.get("object-src")).toBe("'none'");
    expect(csp.get("base-uri")).toBe("'none'");
    expect(csp.get("frame-ancestors")).toBe("'none'");
    expect(contentSecurityPolicy()).not.toMatch(/unsafe-eval|unsafe-inline|\*/);
  });

  it("relaxes only what the dev server needs, and only for that origin", () => {
    const csp = directives(contentSecurityPolicy({ devServerOrigin: "http://localhost:5173" }));
    expect(csp.get("connect-src")).toBe("'self' ws://localhost:5173");
    expect(csp.get("script-src")).toBe("'self' 'unsafe-inline'");
    expect(csp.get("default-src")).toBe("'none'");
    expect(contentSecurityPolicy({ devServerOrigin: "http://localhost:5173" })).not.toContain("unsafe-eval");
  });
});

describe("shouldAllowNavigation / decideNavigation", () => {
  it("allows the app's own origin only", () => {
    expect(shouldAllowNavigation(APP_ENTRY_URL, APP_ORIGIN)).toBe(true);
    expect(shouldAllowNavigation("app://baton/index.html#/session/1", APP_ORIGIN)).toBe(true);
    expect(shouldAllowNavigation("http://localhost:5173/x", "http://localhost:5173")).toBe(true);
  });

  it("denies other hosts, ports, schemes and garbage", () => {
    for (const url of [
      "app://evil/index.html",
      "https://example.com/",
      "http://localhost:5174/",
      "file:///etc/passwd",
      "javascript:alert(1)",
      "data:text/html,<script>1</script>",
      "not a url",
      "",
    ]) {
      expect(shouldAllowNavigation(url, APP_ORIGIN), url).toBe(false);
      expect(shouldAllowNavigation(url, "http://localhost:5173"), url).toBe(false);
    }
  });

  it("sends allowed external links to the OS and drops the rest", () => {
    expect(decideNavigation("app://baton/x", APP_ORIGIN)).toEqual({ kind: "allow" });
    expect(decideNavigation("https://docs.anthropic.com/", APP_ORIGIN)).toEqual({
      kind: "open-external",
      url: "https://docs.anthropic.com/",
    });
    expect(decideNavigation("http://example.com/", APP_ORIGIN)).toEqual({ kind: "deny" });
    expect(decideNavigation("file:///etc/passwd", APP_ORIGIN)).toEqual({ kind: "deny" });
  });
});

describe("isAllowedExternalUrl", () => {
  it("allows https and mailto links", () => {
    expect(isAllowedExternalUrl("https://github.com/anthropics/claude-code")).toBe(true);
    expect(isAllowedExternalUrl("mailto:someone@example.com")).toBe(true);
  });

  it("rejects other schemes, credentials, whitespace tricks and malformed URLs", () => {
    for (const url of [
      "http://example.com/",
      "file:///etc/passwd",
      "javascript:alert(1)",
      "vscode://file/x",
      "ms-settings:",
      "https://user:pass@example.com/",
      "https://example.com/\nx",
      "https://example.com/\u202Egpj.exe",
      "https://pay\u200Bpal.com/",
      "https://example.com/\u0085",
      " https://example.com/",
      "https://",
      "mailto:",
      `https://example.com/${"a".repeat(3000)}`,
      "",
    ]) {
      expect(isAllowedExternalUrl(url), JSON.stringify(url)).toBe(false);
    }
  });

  it("restricts https hosts when the policy names them", () => {
    const policy = { protocols: ["https:"], hosts: ["github.com", "*.anthropic.com"] };
    expect(isAllowedExternalUrl("https://github.com/x", policy)).toBe(true);
    expect(isAllowedExternalUrl("https://docs.anthropic.com/x", policy)).toBe(true);
    expect(isAllowedExternalUrl("https://evilgithub.com/x", policy)).toBe(false);
    expect(isAllowedExternalUrl("https://anthropic.com.evil.io/x", policy)).toBe(false);
    expect(isAllowedExternalUrl("mailto:a@b.c", policy)).toBe(false);
  });
});

describe("windowOpenHandler", () => {
  it("never opens a window; forwards only allowed links to the OS", () => {
    const opened: string[] = [];
    const open = (url: string): void => {
      opened.push(url);
    };
    expect(windowOpenHandler({ url: "https://example.com/a" }, open)).toEqual({ action: "deny" });
    expect(windowOpenHandler({ url: "file:///etc/passwd" }, open)).toEqual({ action: "deny" });
    expect(windowOpenHandler({ url: "app://baton/index.html" }, open)).toEqual({ action: "deny" });
    expect(opened).toEqual(["https://example.com/a"]);
  });
});

describe("resolveAppAsset", () => {
  const root = path.resolve("/srv/baton/out/renderer");

  it("maps app:// URLs to files under the renderer directory", () => {
    expect(resolveAppAsset("app://baton/index.html", root)).toBe(path.join(root, "index.html"));
    expect(resolveAppAsset("app://baton/", root)).toBe(path.join(root, "index.html"));
    expect(resolveAppAsset("app://baton/assets/index-abc.js?v=1#x", root)).toBe(path.join(root, "assets/index-abc.js"));
  });

  it("refuses other hosts and anything that escapes the directory", () => {
    for (const url of [
      "app://other/index.html",
      "https://baton/index.html",
      "app://baton/../../etc/passwd",
      "app://baton/%2e%2e/%2e%2e/etc/passwd",
      "app://baton/assets/..%2f..%2f..%2fetc/passwd",
      "app://baton/a%5c..%5c..%5cx",
      "app://baton/%00",
      "app://baton/%E0%A4%A",
      "nonsense",
    ]) {
      const resolved = resolveAppAsset(url, root);
      if (resolved !== undefined) expect(resolved.startsWith(root + path.sep), url).toBe(true);
      else expect(resolved).toBeUndefined();
    }
    // Dot segments are resolved against the root, so they can never climb out of it.
    expect(resolveAppAsset("app://baton/%2e%2e/%2e%2e/etc/passwd", root)).toBe(path.join(root, "etc/passwd"));
    for (const url of ["app://other/index.html", "app://baton/a%5c..%5c..%5cx", "app://baton/%00", "app://baton/%E0%A4%A"]) {
      expect(resolveAppAsset(url, root), url).toBeUndefined();
    }
  });
});
