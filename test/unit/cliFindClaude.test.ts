import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findClaude } from "../../src/main/cli/findClaude.js";

let root: string;
const exe = (file: string, mode = 0o755) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, "#!/bin/sh\necho 1.0.0\n");
  chmodSync(file, mode);
  return file;
};

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "baton-find-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("findClaude", () => {
  const base = () => ({ env: { PATH: "" }, homeDir: path.join(root, "home"), searchFrom: [path.join(root, "app", "src")] });

  it("prefers the explicit option, then BATON_CLAUDE_PATH, and never falls back from them", () => {
    const explicit = exe(path.join(root, "x", "claude"));
    const fromEnv = exe(path.join(root, "y", "claude"));
    expect(findClaude({ ...base(), explicitPath: explicit, env: { BATON_CLAUDE_PATH: fromEnv } })).toMatchObject({
      found: true,
      path: explicit,
      source: "option",
    });
    expect(findClaude({ ...base(), env: { BATON_CLAUDE_PATH: fromEnv } })).toMatchObject({ found: true, source: "env" });
    const missing = findClaude({ ...base(), env: { BATON_CLAUDE_PATH: path.join(root, "nope"), PATH: path.dirname(fromEnv) } });
    expect(missing).toEqual({ found: false, tried: [{ path: path.join(root, "nope"), source: "env", problem: "missing" }] });
  });

  it("searches PATH before node_modules/.bin, then install dirs, and skips non-executables", () => {
    const inPath = path.join(root, "bin1");
    exe(path.join(inPath, "claude"), 0o644);
    const nm = exe(path.join(root, "app", "node_modules", ".bin", "claude"));
    const result = findClaude({ ...base(), env: { PATH: inPath } });
    expect(result).toMatchObject({ found: true, path: nm, source: "node_modules" });
    expect(result.tried[0]).toEqual({ path: path.join(inPath, "claude"), source: "path", problem: "not-executable" });

    const local = exe(path.join(root, "home", ".claude", "local", "claude"));
    rmSync(nm);
    expect(findClaude({ ...base(), env: { PATH: inPath } })).toMatchObject({ found: true, path: local, source: "install-dir" });
  });

  it("says where it looked when nothing is there", () => {
    const result = findClaude({ ...base(), env: { PATH: path.join(root, "empty") } });
    if (result.found && result.source !== "install-dir") throw new Error("unexpected find " + result.path);
    const places = result.tried.map((c) => c.path);
    expect(places).toContain(path.join(root, "empty", "claude"));
    expect(places).toContain(path.join(root, "app", "node_modules", ".bin", "claude"));
    expect(places).toContain(path.join(root, "home", ".local", "bin", "claude"));
  });
});
