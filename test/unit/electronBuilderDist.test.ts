// `npm run dist` where electron-builder cannot finish: one paragraph instead of a stack, the full
// output kept in dist/electron-builder.log, and node_modules as it was (electron-builder rebuilds
// native packages for Electron in place; the tests and `npx baton` need the Node builds back).
// The script runs for real in a scratch copy of the repository's layout, with a stand-in for
// electron-builder's cli.js (a test double) that does what the real one did here: rebuilt
// better-sqlite3 and tree-sitter-bash in node_modules, then failed to download Electron.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { describeDistFailure, recogniseDistFailure } from "../../scripts/distFailure.mjs";
import { repoRoot } from "../support/ui/buildRenderer.js";

const require = createRequire(import.meta.url);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "baton-dist-test-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

// What electron-builder 26 printed here when it could not reach github.com (dist/electron-builder.log).
const OFFLINE = [
  "  • packaging       platform=linux arch=x64 electron=45.5.0 appOutDir=dist/linux-unpacked",
  "  ⨯ getaddrinfo ENOTFOUND github.com  failedTask=build stackTrace=RequestError: getaddrinfo ENOTFOUND github.com",
  "    at ClientRequest.<anonymous> (/home/user/code/baton/node_modules/builder-util-runtime/out/httpExecutor.js:1:1)",
  "    at GetAddrInfoReqWrap.onlookupall [as oncomplete] (node:dns:122:26)",
].join("\n");

describe("what npm run dist says when electron-builder fails", () => {
  it("names the download it could not make, quotes electron-builder's message without its stack, and points at the release workflow", () => {
    const failure = recogniseDistFailure({ exitCode: 1, output: OFFLINE });
    expect(failure).toEqual({ kind: "network", quoted: "getaddrinfo ENOTFOUND github.com" });
    const paragraph = describeDistFailure(failure ?? { kind: "other" }, { log: "dist/electron-builder.log" });
    expect(paragraph).toContain("could not reach them");
    expect(paragraph).toContain('It said: "getaddrinfo ENOTFOUND github.com".');
    expect(paragraph).toContain(".github/workflows/release.yml");
    expect(paragraph).toContain("dist/electron-builder.log");
    expect(paragraph).not.toMatch(/\n|\bat ClientRequest/);
  });

  it("says a dmg is made on macOS only, in electron-builder's own words for it", () => {
    const packager = fs.readFileSync(require.resolve(path.join(repoRoot, "node_modules", "app-builder-lib", "out", "packager.js")), "utf8");
    const message = /"(Build for macOS is supported only on macOS[^"]*)"/.exec(packager)?.[1];
    expect(message).toBeDefined();
    expect(recogniseDistFailure({ exitCode: 1, output: `  ⨯ ${message}` })?.kind).toBe("mac-elsewhere");
  });

  it("is nothing when electron-builder succeeded", () => {
    expect(recogniseDistFailure({ exitCode: 0, output: "  • building        target=AppImage" })).toBeUndefined();
  });
});

/** The repository's layout, as far as scripts/dist.mjs uses it, with electron-builder stood in for. */
function scratchRepository(): string {
  const root = path.join(scratch, "repo");
  fs.mkdirSync(path.join(root, "scripts"), { recursive: true });
  for (const script of ["dist.mjs", "distFailure.mjs"]) fs.copyFileSync(path.join(repoRoot, "scripts", script), path.join(root, "scripts", script));
  const sqlite = path.join(root, "node_modules", "better-sqlite3");
  fs.mkdirSync(path.join(sqlite, "build", "Release"), { recursive: true });
  fs.writeFileSync(path.join(sqlite, "binding.gyp"), "{}");
  fs.writeFileSync(path.join(sqlite, "build", "Release", "better_sqlite3.node"), "built for Node");
  const grammar = path.join(root, "node_modules", "tree-sitter-bash");
  fs.mkdirSync(grammar, { recursive: true });
  fs.writeFileSync(path.join(grammar, "binding.gyp"), "{}");
  fs.writeFileSync(path.join(grammar, "tree-sitter-bash.wasm"), "wasm");
  const builder = path.join(root, "node_modules", "electron-builder");
  fs.mkdirSync(builder, { recursive: true });
  fs.writeFileSync(
    path.join(builder, "cli.js"),
    [
      "// Stand-in for electron-builder (a test double): rebuilds in place, then fails offline.",
      "const fs = require('node:fs'); const path = require('node:path');",
      "const nm = path.join(__dirname, '..');",
      "fs.writeFileSync(path.join(nm, 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'), 'built for Electron');",
      "fs.mkdirSync(path.join(nm, 'tree-sitter-bash', 'build', 'Release'), { recursive: true });",
      "fs.mkdirSync(path.join(nm, 'tree-sitter-bash', 'node-addon-api'), { recursive: true });",
      "fs.writeFileSync(path.join(__dirname, 'args.json'), JSON.stringify(process.argv.slice(2)));",
      `process.stdout.write(${JSON.stringify(OFFLINE.split("\n").slice(0, 1).join("\n") + "\n")});`,
      `process.stderr.write(${JSON.stringify(OFFLINE.split("\n").slice(1).join("\n") + "\n")});`,
      "process.exit(1);",
    ].join("\n"),
  );
  fs.writeFileSync(path.join(builder, "package.json"), JSON.stringify({ name: "electron-builder", type: "commonjs" }));
  return root;
}

describe("npm run dist, run where Electron cannot be downloaded", () => {
  it("prints the paragraph, keeps the whole output in the log, and leaves node_modules' native builds as they were", () => {
    const root = scratchRepository();
    const run = spawnSync(process.execPath, [path.join(root, "scripts", "dist.mjs"), "--linux"], { cwd: root, encoding: "utf8", timeout: 60_000 });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("• packaging");
    expect(run.stderr).toContain("npm run dist could not make the installers");
    expect(run.stderr).toContain('It said: "getaddrinfo ENOTFOUND github.com".');
    expect(run.stderr).not.toContain("at ClientRequest");
    const log = fs.readFileSync(path.join(root, "dist", "electron-builder.log"), "utf8");
    expect(log).toContain("at ClientRequest");
    expect(JSON.parse(fs.readFileSync(path.join(root, "node_modules", "electron-builder", "args.json"), "utf8"))).toEqual(["--publish", "never", "--linux"]);
    expect(fs.readFileSync(path.join(root, "node_modules", "better-sqlite3", "build", "Release", "better_sqlite3.node"), "utf8")).toBe("built for Node");
    expect(fs.readdirSync(path.join(root, "node_modules", "tree-sitter-bash")).sort()).toEqual(["binding.gyp", "tree-sitter-bash.wasm"]);
  });
});
