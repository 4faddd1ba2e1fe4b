// Electronegativity as a gate (scripts/electronegativityGate.ts): the repository's `src` and built
// `out` pass, a window with nodeIntegration fails with each finding's file:line, check and
// severity, and an exception counts only on its line, with a reason, while it still excepts
// something. Runs the gate as `npm test` does, as a process, offline.
import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ensureMainBuilt, ensureRendererBuilt, repoRoot } from "../support/ui/buildRenderer.js";
import { tempDirs } from "../support/tempDirs.js";

const gate = path.join(repoRoot, "scripts", "electronegativityGate.ts");
const tempDir = tempDirs("baton-gate-", "all");

/** A folder laid out like a repository: `files` maps relative paths to their text. */
function sample(files: Record<string, string>): string {
  const root = tempDir();
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

function runGate(args: readonly string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", gate, ...args], { cwd: repoRoot, timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

describe("the Electronegativity gate", () => {
  it("passes on the repository's src and built out", { timeout: 300_000 }, async () => {
    ensureMainBuilt();
    ensureRendererBuilt();
    const { code, output } = await runGate([]);
    expect(output, output).toMatch(/^electronegativity gate: OK/);
    expect(code).toBe(0);
    // The reviewed exceptions are listed with their reasons; the scanner's network noise is not.
    expect(output).toMatch(/excepted src\/main\/index\.ts:\d+ SANDBOX_JS_CHECK MEDIUM: set in createWindowOptions\(\)/);
    expect(output).not.toMatch(/translations|releases|connectivity/i);
  });
});

describe.concurrent("the Electronegativity gate on samples", () => {
  it("fails on a window with nodeIntegration, naming file:line, check and severity", { timeout: 60_000 }, async () => {
    const root = sample({
      "src/main.js": [
        'const { BrowserWindow } = require("electron");',
        "const win = new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false } });",
        "",
      ].join("\n"),
    });
    const { code, output } = await runGate(["--root", root, "src"]);
    expect(code).toBe(1);
    expect(output).toMatch(/^electronegativity gate: FAILED/);
    // The scanner rates an explicit nodeIntegration: true INFORMATIONAL; the gate fails it anyway.
    expect(output).toMatch(/src\/main\.js:2:\d+ +NODE_INTEGRATION_JS_CHECK INFORMATIONAL/);
    expect(output).toMatch(/src\/main\.js:2:\d+ +CONTEXT_ISOLATION_JS_CHECK HIGH/);
  });

  it("takes an exception only on its own line, with a reason, while it excepts something", { timeout: 60_000 }, async () => {
    const root = sample({
      "src/links.js": [
        'const { shell } = require("electron");',
        "function open(url, other) {",
        "  shell.openExternal(url); // eng-disable OPEN_EXTERNAL_JS_CHECK: url passed the allowlist above",
        "  shell.openExternal(other); // eng-disable OPEN_EXTERNAL_JS_CHECK",
        "  return 1; // eng-disable SANDBOX_JS_CHECK: nothing to except here",
        "}",
        "",
      ].join("\n"),
      "src/wide.js": ["// eng-disable OPEN_EXTERNAL_JS_CHECK: a whole file", 'require("electron").shell.openExternal(process.argv[2]);', ""].join("\n"),
    });
    const { code, output } = await runGate(["--root", root, "src"]);
    expect(code).toBe(1);
    expect(output).toMatch(/excepted src\/links\.js:3 OPEN_EXTERNAL_JS_CHECK MEDIUM: url passed the allowlist above/);
    expect(output).toMatch(/src\/links\.js:4 +eng-disable OPEN_EXTERNAL_JS_CHECK gives no reason/);
    expect(output).toMatch(/src\/links\.js:5 +eng-disable SANDBOX_JS_CHECK excepts nothing/);
    expect(output).toMatch(/src\/wide\.js:1 +a file-wide eng-disable/);
    expect(output).not.toMatch(/src\/links\.js:3:\d+ +OPEN_EXTERNAL_JS_CHECK/);
  });

  it("traces a bundle's finding to its source file, whose exception covers it", { timeout: 60_000 }, async () => {
    const root = sample({
      "src/good.ts": ["// Opens reviewed links.", "export function open(url: string): void {", "  shell.openExternal(url); // eng-disable OPEN_EXTERNAL_JS_CHECK: reviewed", "}", ""].join("\n"),
      "src/bad.ts": ["// Opens anything.", "export function open(url: string): void {", "  shell.openExternal(url);", "}", ""].join("\n"),
      "out/main/index.js": [
        'import { shell } from "electron";',
        "// src/good.ts",
        "function openGood(url) {",
        "\tshell.openExternal(url);",
        "}",
        "// src/bad.ts",
        "function openBad(url) {",
        "\tshell.openExternal(url);",
        "}",
        "export { openGood, openBad };",
        "",
      ].join("\n"),
    });
    const { code, output } = await runGate(["--root", root, "out"]);
    expect(code).toBe(1);
    expect(output).toMatch(/excepted out\/main\/index\.js:4 OPEN_EXTERNAL_JS_CHECK MEDIUM \(by src\/good\.ts:3\): reviewed/);
    expect(output).toMatch(/out\/main\/index\.js:8:\d+ +OPEN_EXTERNAL_JS_CHECK MEDIUM .*bundled from src\/bad\.ts/);
  });
});
