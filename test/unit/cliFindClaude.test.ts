import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { batonPackageDir } from "../../src/main/cli/batonPackageDir.js";
import { findClaude } from "../../src/main/cli/findClaude.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-find-");
let root: string;
const exe = (file: string, mode = 0o755) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, "#!/bin/sh\necho 1.0.0\n");
  chmodSync(file, mode);
  return file;
};
/** A folder that looks like a Baton checkout, with its test copy of claude in node_modules/.bin. */
const fakeBaton = (dir: string) => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "baton", version: "0.0.0" }));
  exe(path.join(dir, "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe"));
  mkdirSync(path.join(dir, "node_modules", ".bin"), { recursive: true });
  symlinkSync("../@anthropic-ai/claude-code/bin/claude.exe", path.join(dir, "node_modules", ".bin", "claude"));
  return dir;
};

beforeEach(() => {
  root = tempDir();
});

describe("findClaude", () => {
  const base = () => ({ env: { PATH: "" }, homeDir: path.join(root, "home"), batonDir: path.join(root, "baton") });

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

  it("an explicit path may name Baton's own copy: a test that asks for it gets it", () => {
    const baton = fakeBaton(path.join(root, "baton"));
    const own = path.join(baton, "node_modules", ".bin", "claude");
    expect(findClaude({ ...base(), explicitPath: own })).toMatchObject({ found: true, path: own, source: "option" });
  });

  it("skips Baton's own node_modules/.bin that npm puts first on PATH, and names the PATH entry it used", () => {
    const baton = fakeBaton(path.join(root, "baton"));
    const ownBin = path.join(baton, "node_modules", ".bin");
    const mine = path.join(root, "usr", "bin");
    exe(path.join(mine, "claude"));
    const result = findClaude({ ...base(), env: { PATH: [ownBin, path.join(root, "empty"), mine].join(path.delimiter) } });
    expect(result).toMatchObject({ found: true, path: path.join(mine, "claude"), source: "path", pathEntry: mine, pathIndex: 3 });
    expect(result.tried[0]).toEqual({ path: path.join(ownBin, "claude"), source: "path", pathEntry: ownBin, pathIndex: 1, problem: "baton-own-copy" });
  });

  it("skips Baton's own copy however it is reached: another checkout, a symlinked folder, a nested .bin", () => {
    const baton = fakeBaton(path.join(root, "baton"));
    // A second checkout (not the running one) is still Baton's test copy, by its package.json.
    const other = fakeBaton(path.join(root, "other-checkout"));
    // A folder on PATH that is a symlink into Baton's node_modules.
    symlinkSync(path.join(baton, "node_modules", ".bin"), path.join(root, "linked-bin"));
    // A dependency's own .bin inside Baton's node_modules.
    exe(path.join(baton, "node_modules", "dep", "node_modules", ".bin", "claude"));
    const PATH = [path.join(other, "node_modules", ".bin"), path.join(root, "linked-bin"), path.join(baton, "node_modules", "dep", "node_modules", ".bin")].join(path.delimiter);
    const result = findClaude({ ...base(), env: { PATH } });
    expect(result.found && result.source === "path").toBe(false);
    expect(result.tried.filter((c) => c.source === "path").map((c) => c.problem)).toEqual(["baton-own-copy", "baton-own-copy", "baton-own-copy"]);
  });

  it("does not skip another project's node_modules/.bin: that claude is the person's choice", () => {
    fakeBaton(path.join(root, "baton"));
    const project = path.join(root, "code", "app");
    mkdirSync(project, { recursive: true });
    writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "app" }));
    const bin = exe(path.join(project, "node_modules", ".bin", "claude"));
    expect(findClaude({ ...base(), env: { PATH: path.dirname(bin) } })).toMatchObject({ found: true, path: bin, source: "path" });
  });

  it("searches PATH, then install dirs, skips non-executables and relative PATH entries, and never node_modules above the cwd", () => {
    const inPath = path.join(root, "bin1");
    exe(path.join(inPath, "claude"), 0o644);
    exe(path.join(root, "app", "node_modules", ".bin", "claude"));
    const local = exe(path.join(root, "home", ".claude", "local", "claude"));
    const result = findClaude({ ...base(), env: { PATH: ["", ".", "relative/bin", inPath].join(path.delimiter) } });
    expect(result).toMatchObject({ found: true, path: local, source: "install-dir" });
    expect(result.tried[0]).toEqual({ path: path.join(inPath, "claude"), source: "path", pathEntry: inPath, pathIndex: 4, problem: "not-executable" });
    expect(result.tried.map((c) => c.path)).not.toContain(path.join(root, "app", "node_modules", ".bin", "claude"));
  });

  it("says where it looked when nothing is there", () => {
    const result = findClaude({ ...base(), env: { PATH: path.join(root, "empty") } });
    if (result.found && result.source !== "install-dir") throw new Error("unexpected find " + result.path);
    const places = result.tried.map((c) => c.path);
    expect(places).toContain(path.join(root, "empty", "claude"));
    expect(places).toContain(path.join(root, "home", ".local", "bin", "claude"));
    expect(places).toContain(path.join(root, "home", ".claude", "local", "claude"));
  });
});

describe("batonPackageDir", () => {
  it("finds the folder whose package.json is named baton, from this repository's sources", () => {
    const repo = path.resolve(import.meta.dirname, "../..");
    expect(batonPackageDir(path.join(repo, "src", "main", "cli"))).toBe(repo);
    // The default starts from the module itself.
    expect(batonPackageDir()).toBe(repo);
  });

  it("passes over other packages' package.json on the way up", () => {
    const baton = fakeBaton(path.join(root, "baton"));
    const inner = path.join(baton, "out", "main");
    mkdirSync(inner, { recursive: true });
    writeFileSync(path.join(baton, "out", "package.json"), JSON.stringify({ name: "not-baton" }));
    expect(batonPackageDir(inner)).toBe(baton);
    expect(batonPackageDir(path.join(root, "elsewhere"))).toBeUndefined();
  });
});
