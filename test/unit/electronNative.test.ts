// The Electron copy of better-sqlite3: where it lives, when it is rebuilt, the commands that build
// it (checked against the real prebuild-install and node-gyp option parsers), and the script's
// behaviour end to end with stand-in build tools (nothing here touches the network).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  childEnv,
  electronBindingPath,
  electronNativePaths,
  expectedStamp,
  failureMessage,
  needsBuild,
  nodeGypArgs,
  nodeGypCandidates,
  parseStamp,
  prebuildInstallArgs,
  targetArch,
} from "../../scripts/electronNativePaths.mjs";
import { tempDirs } from "../support/tempDirs.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const script = path.join(repoRoot, "scripts", "electronNative.mjs");
const root = path.join(path.sep, "home", "user", "code", "baton");

describe("where the Electron build lives", () => {
  it("is one folder per Electron version and CPU under build/native", () => {
    const paths = electronNativePaths("45.5.0", "x64", root);
    expect(paths.binary).toBe(path.join(root, "build", "native", "electron-45.5.0-x64", "better_sqlite3.node"));
    expect(path.dirname(paths.stamp)).toBe(paths.dir);
    expect(electronNativePaths("45.5.1", "x64", root).dir).not.toBe(paths.dir);
    expect(electronNativePaths("45.5.0", "arm64", root).dir).not.toBe(paths.dir);
  });

  it("is used only inside Electron; plain Node keeps node_modules' build", () => {
    expect(electronBindingPath({ node: "20.19.0" }, "x64", root)).toBeUndefined();
    expect(electronBindingPath({ node: "22.20.0", electron: "45.5.0" }, "x64", root)).toBe(electronNativePaths("45.5.0", "x64", root).binary);
  });

  it("targets the CPU electron's installer chose", () => {
    expect(targetArch({}, "x64")).toBe("x64");
    expect(targetArch({ npm_config_arch: "arm64" }, "x64")).toBe("arm64");
    expect(targetArch({ npm_config_arch: "arm64", ELECTRON_INSTALL_ARCH: "ia32" }, "x64")).toBe("ia32");
  });
});

describe("when to build", () => {
  const expected = expectedStamp("45.5.0", "x64", "12.6.2");
  const stamp = parseStamp(JSON.stringify(expected));

  it("reads back the stamp it writes and rejects anything else", () => {
    expect(stamp).toEqual(expected);
    expect(parseStamp(undefined)).toBeUndefined();
    expect(parseStamp("{not json")).toBeUndefined();
    expect(parseStamp("null")).toBeUndefined();
    expect(parseStamp(JSON.stringify({ electron: "45.5.0", arch: "x64" }))).toBeUndefined();
  });

  it("builds when the binary or its stamp is missing", () => {
    expect(needsBuild({ binaryExists: false, stamp, expected })).toBe(true);
    expect(needsBuild({ binaryExists: true, stamp: undefined, expected })).toBe(true);
  });

  it("skips when the binary matches Electron, CPU and better-sqlite3", () => {
    expect(needsBuild({ binaryExists: true, stamp, expected })).toBe(false);
  });

  it("rebuilds after an Electron or better-sqlite3 upgrade, or for another CPU", () => {
    expect(needsBuild({ binaryExists: true, stamp, expected: expectedStamp("46.0.0", "x64", "12.6.2") })).toBe(true);
    expect(needsBuild({ binaryExists: true, stamp, expected: expectedStamp("45.5.0", "x64", "12.7.0") })).toBe(true);
    expect(needsBuild({ binaryExists: true, stamp, expected: expectedStamp("45.5.0", "arm64", "12.6.2") })).toBe(true);
  });
});

describe("the build commands", () => {
  const sqliteDir = path.join(repoRoot, "node_modules", "better-sqlite3");
  const electronPkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "node_modules", "electron", "package.json"), "utf8")) as { version: string };
  const electronAbi = fs.readFileSync(path.join(repoRoot, "node_modules", "electron", "abi_version"), "utf8").trim();

  it("asks prebuild-install for the binary of the installed Electron's ABI", () => {
    const requireHere = createRequire(path.join(sqliteDir, "package.json"));
    const rcScript = requireHere.resolve("prebuild-install/rc.js");
    // rc.js run directly prints the options it parsed from argv.
    const result = spawnSync(process.execPath, [rcScript, ...prebuildInstallArgs(electronPkg.version, "arm64")], {
      cwd: sqliteDir,
      env: childEnv({ ...process.env, npm_config_runtime: "node", npm_config_target: "20.0.0" }),
      encoding: "utf8",
    });
    expect(result.status, result.stderr).toBe(0);
    const rc = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(rc).toMatchObject({ runtime: "electron", target: electronPkg.version, arch: "arm64", abi: electronAbi });
    const util = requireHere("prebuild-install/util.js") as { getDownloadUrl(opts: object): string };
    const pkg = JSON.parse(fs.readFileSync(path.join(sqliteDir, "package.json"), "utf8")) as object;
    expect(util.getDownloadUrl({ ...rc, pkg })).toContain(`-electron-v${electronAbi}-${process.platform}-arm64.tar.gz`);
  });

  const nodeGyp = nodeGypCandidates(process.env, process.execPath, process.platform).find((c) => fs.existsSync(c));
  if (!nodeGyp) console.warn("electronNative.test: npm's node-gyp not found; skipping the node-gyp argument check");

  it.skipIf(!nodeGyp)("asks node-gyp to rebuild against Electron's headers", () => {
    const gyp = createRequire(nodeGyp!)(path.join(path.dirname(nodeGyp!), "..")) as () => {
      parseArgv(argv: string[]): void;
      todo: { name: string }[];
      opts: Record<string, unknown>;
    };
    const prog = gyp();
    prog.parseArgv(["node", "node-gyp", ...nodeGypArgs("45.5.0", "x64", "/tmp/electron-gyp")]);
    expect(prog.todo.map((t) => t.name)).toEqual(["rebuild"]);
    expect(prog.opts).toMatchObject({ target: "45.5.0", arch: "x64", "dist-url": "https://electronjs.org/headers", devdir: "/tmp/electron-gyp" });
  });

  it("keeps npm settings that would retarget the build away from the child tools", () => {
    const env = childEnv({
      PATH: "/usr/bin",
      npm_config_target: "20.0.0",
      npm_config_arch: "ia32",
      npm_config_dist_url: "https://nodejs.org/dist",
      npm_package_config_node_gyp_devdir: "/tmp/elsewhere",
      npm_config_proxy: "http://proxy:8080",
      npm_config_node_gyp: "/opt/node-gyp.js",
    });
    expect(env).toEqual({ PATH: "/usr/bin", npm_config_proxy: "http://proxy:8080", npm_config_node_gyp: "/opt/node-gyp.js" });
  });

  it("finds node-gyp where npm names it, next to the running npm, or next to node", () => {
    const linux = nodeGypCandidates({ npm_config_node_gyp: "/a/node-gyp.js", npm_execpath: "/b/npm/bin/npm-cli.js" }, "/usr/bin/node", "linux");
    expect(linux).toEqual([
      path.normalize("/a/node-gyp.js"),
      path.normalize("/b/npm/node_modules/node-gyp/bin/node-gyp.js"),
      path.normalize("/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js"),
    ]);
    const windows = nodeGypCandidates({}, path.join("C:", "nodejs", "node.exe"), "win32");
    expect(windows).toEqual([path.join("C:", "nodejs", "node_modules", "npm", "node_modules", "node-gyp", "bin", "node-gyp.js")]);
  });

  it("explains a failure: what was tried, why, and that the app still starts without search", () => {
    const text = failureMessage("45.5.0", "x64", [
      { how: "downloading the prebuilt binary", error: "exited with code 1" },
      { how: "compiling", error: "node-gyp not found" },
    ]);
    expect(text).toContain("Electron 45.5.0 (x64)");
    expect(text).toContain("downloading the prebuilt binary: exited with code 1");
    expect(text).toContain("compiling: node-gyp not found");
    expect(text).toMatch(/network/);
    expect(text).toMatch(/search/);
  });
});

describe("scripts/electronNative.mjs with stand-in build tools", () => {
  const tempDir = tempDirs("baton-native-test-");

  /** An app folder with electron and better-sqlite3 "installed", and a fake node-gyp. */
  function fakeApp(gypBody: string): { app: string; gyp: string; paths: ReturnType<typeof electronNativePaths> } {
    const app = tempDir();
    const writeJson = (file: string, value: unknown): void => {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(value));
    };
    writeJson(path.join(app, "node_modules", "electron", "package.json"), { name: "electron", version: "45.5.0" });
    writeJson(path.join(app, "node_modules", "better-sqlite3", "package.json"), { name: "better-sqlite3", version: "12.6.2" });
    // The Node build `npm install` made must never be taken for the Electron one.
    const nodeBuild = path.join(app, "node_modules", "better-sqlite3", "build", "Release", "better_sqlite3.node");
    fs.mkdirSync(path.dirname(nodeBuild), { recursive: true });
    fs.writeFileSync(nodeBuild, "node abi");
    const gyp = path.join(app, "fake-node-gyp.cjs");
    fs.writeFileSync(gyp, gypBody);
    return { app, gyp, paths: electronNativePaths("45.5.0", targetArch(process.env, process.arch), app) };
  }

  function runScript(app: string, gyp: string, extraEnv: Record<string, string> = {}, ...flags: string[]) {
    const env = { ...process.env, ...extraEnv, npm_config_node_gyp: gyp };
    return spawnSync(process.execPath, [script, "--root", app, ...flags], { env, encoding: "utf8", timeout: 30_000 });
  }

  const arch = targetArch(process.env, process.arch);
  // Writes what it was asked to do (when ARGS_OUT is set) and "compiles" in its working folder.
  const compiles = `
    const fs = require("node:fs");
    if (process.env.ARGS_OUT) fs.writeFileSync(process.env.ARGS_OUT, JSON.stringify(process.argv.slice(2)));
    fs.mkdirSync("build/Release", { recursive: true });
    fs.writeFileSync("build/Release/better_sqlite3.node", "electron abi");
  `;

  it("compiles when no prebuilt binary is available, installs it with a stamp, then reports it ready", () => {
    const { app, gyp, paths } = fakeApp(compiles);
    const first = runScript(app, gyp);
    expect(first.status, first.stderr).toBe(0);
    expect(fs.readFileSync(paths.binary, "utf8")).toBe("electron abi");
    expect(parseStamp(fs.readFileSync(paths.stamp, "utf8"))).toEqual(expectedStamp("45.5.0", arch, "12.6.2"));
    expect(fs.readFileSync(path.join(app, "node_modules", "better-sqlite3", "build", "Release", "better_sqlite3.node"), "utf8")).toBe("node abi");

    const second = runScript(app, gyp);
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/is ready/);
  });

  it("passes Electron's version, the CPU and Electron's headers to node-gyp", () => {
    const { app, gyp } = fakeApp(compiles);
    const argsOut = path.join(app, "gyp-args.json");
    const result = runScript(app, gyp, { ARGS_OUT: argsOut });
    expect(result.status, result.stderr).toBe(0);
    const args = JSON.parse(fs.readFileSync(argsOut, "utf8")) as string[];
    expect(args).toEqual(nodeGypArgs("45.5.0", arch, path.join(os.homedir(), ".electron-gyp")));
  });

  it("says clearly what failed and exits 0 (the app starts without search), or 1 with --strict", () => {
    const { app, gyp, paths } = fakeApp(`console.error("gyp ERR! getaddrinfo ENOTFOUND electronjs.org"); process.exit(1);`);
    const lenient = runScript(app, gyp);
    expect(lenient.status).toBe(0);
    expect(lenient.stderr).toContain("could not get better-sqlite3 for Electron 45.5.0");
    expect(lenient.stderr).toContain("prebuild-install is not installed");
    expect(lenient.stderr).toContain("exited with code 1");
    expect(fs.existsSync(paths.binary)).toBe(false);

    expect(runScript(app, gyp, {}, "--strict").status).toBe(1);
  });

  it("fails with a clear message when Electron is not installed", () => {
    const { app, gyp } = fakeApp(compiles);
    fs.rmSync(path.join(app, "node_modules", "electron"), { recursive: true });
    const result = runScript(app, gyp);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/electron is not installed/);
  });
});
