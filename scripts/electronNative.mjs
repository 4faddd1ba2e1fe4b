// `npm start` runs this before `electron-vite dev`: makes sure a better-sqlite3 binary built for
// the installed Electron's ABI exists under build/native/ (node_modules keeps the Node build the
// tests and `npx baton` use). First tries better-sqlite3's published prebuilt binary, then a
// compile against Electron's headers. Both need the network; without it this prints why and
// exits 0, so the app still starts (with search off). Flags: --strict (exit 1 on failure),
// --force (rebuild even when up to date), --root <dir> (the app folder; default: this repo).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  BINARY_NAME,
  childEnv,
  electronNativePaths,
  expectedStamp,
  failureMessage,
  needsBuild,
  nodeGypArgs,
  nodeGypCandidates,
  parseStamp,
  prebuildInstallArgs,
  targetArch,
} from "./electronNativePaths.mjs";

function flagValue(argv, name) {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
}

function readText(file) {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

function packageVersion(root, name) {
  const text = readText(path.join(root, "node_modules", name, "package.json"));
  if (text === undefined) throw new Error(`${name} is not installed in ${root}/node_modules: run \`npm install\` first`);
  return { dir: path.join(root, "node_modules", name), version: JSON.parse(text).version };
}

/** A copy of the package without its Node build, so building for Electron leaves node_modules alone. */
function stagePackage(sourceDir) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "baton-native-"));
  const copy = path.join(tmp, "better-sqlite3");
  const skip = new Set([path.join(sourceDir, "build"), path.join(sourceDir, "node_modules")]);
  fs.cpSync(sourceDir, copy, { recursive: true, filter: (src) => !skip.has(src) });
  return { tmp, copy, built: path.join(copy, "build", "Release", BINARY_NAME) };
}

function run(how, command, args, cwd) {
  console.log(`baton: ${how}…`);
  const result = spawnSync(command, args, { cwd, stdio: "inherit", env: childEnv(process.env) });
  if (result.error) return { how, error: result.error.message };
  if (result.status !== 0) return { how, error: `exited with code ${result.status ?? result.signal}` };
  return undefined;
}

function tryPrebuilt(stage, sqliteDir, version, arch) {
  let bin;
  try {
    bin = createRequire(path.join(sqliteDir, "package.json")).resolve("prebuild-install/bin.js");
  } catch {
    return { how: "prebuilt download", error: "prebuild-install is not installed next to better-sqlite3" };
  }
  const failed = run("downloading the prebuilt binary", process.execPath, [bin, ...prebuildInstallArgs(version, arch)], stage.copy);
  if (failed) return failed;
  return fs.existsSync(stage.built) ? undefined : { how: "prebuilt download", error: `no ${BINARY_NAME} was unpacked` };
}

function tryCompile(stage, version, arch) {
  const gyp = nodeGypCandidates(process.env, process.execPath, process.platform).find((c) => fs.existsSync(c));
  if (!gyp) return { how: "compiling", error: "node-gyp not found (it ships with npm; run this through `npm start`)" };
  fs.rmSync(path.join(stage.copy, "build"), { recursive: true, force: true });
  const devdir = path.join(os.homedir(), ".electron-gyp");
  const failed = run("compiling against Electron's headers", process.execPath, [gyp, ...nodeGypArgs(version, arch, devdir)], stage.copy);
  if (failed) return failed;
  return fs.existsSync(stage.built) ? undefined : { how: "compiling", error: `node-gyp produced no ${BINARY_NAME}` };
}

/** Moves the binary into place (rename: a crash never leaves half a file), then the stamp. */
function install(built, paths, stamp) {
  fs.mkdirSync(paths.dir, { recursive: true });
  const partial = `${paths.binary}.partial-${process.pid}`;
  fs.copyFileSync(built, partial);
  fs.renameSync(partial, paths.binary);
  fs.writeFileSync(paths.stamp, `${JSON.stringify(stamp, null, 2)}\n`);
}

function main(argv) {
  const root = path.resolve(flagValue(argv, "--root") ?? path.join(path.dirname(fileURLToPath(import.meta.url)), ".."));
  const electron = packageVersion(root, "electron");
  const sqlite = packageVersion(root, "better-sqlite3");
  const arch = targetArch(process.env, process.arch);
  const paths = electronNativePaths(electron.version, arch, root);
  const expected = expectedStamp(electron.version, arch, sqlite.version);
  const state = { binaryExists: fs.existsSync(paths.binary), stamp: parseStamp(readText(paths.stamp)), expected };
  if (!argv.includes("--force") && !needsBuild(state)) {
    console.log(`baton: better-sqlite3 for Electron ${electron.version} (${arch}) is ready`);
    return 0;
  }
  const stage = stagePackage(sqlite.dir);
  try {
    const attempts = [];
    const prebuilt = tryPrebuilt(stage, sqlite.dir, electron.version, arch);
    if (prebuilt) attempts.push(prebuilt);
    const compiled = prebuilt ? tryCompile(stage, electron.version, arch) : undefined;
    if (compiled) attempts.push(compiled);
    if (prebuilt && compiled) {
      console.error(failureMessage(electron.version, arch, attempts));
      return argv.includes("--strict") ? 1 : 0;
    }
    install(stage.built, paths, expected);
    console.log(`baton: better-sqlite3 for Electron ${electron.version} (${arch}) installed at ${path.relative(root, paths.binary)}`);
    return 0;
  } finally {
    fs.rmSync(stage.tmp, { recursive: true, force: true });
  }
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  console.error(`baton: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
