// The decisions behind scripts/electronNative.mjs, as pure functions (tested in
// test/unit/electronNative.test.ts). The Electron main imports electronBindingPath too, so the
// script and the app agree on where the Electron copy of better-sqlite3 lives.
import path from "node:path";

export const BINARY_NAME = "better_sqlite3.node";
export const ELECTRON_HEADERS_URL = "https://electronjs.org/headers";

/**
 * Where the better-sqlite3 binary built for one Electron version and CPU lives, and the stamp
 * that says which better-sqlite3 it was built from. Everything sits under build/native/
 * (gitignored), outside node_modules so `npm install` never overwrites it.
 * @param {string} electronVersion
 * @param {string} arch
 * @param {string} root the app's root (the folder holding package.json)
 */
export function electronNativePaths(electronVersion, arch, root) {
  const dir = path.join(root, "build", "native", `electron-${electronVersion}-${arch}`);
  return { dir, binary: path.join(dir, BINARY_NAME), stamp: path.join(dir, "stamp.json") };
}

/**
 * The binary the store should load: the Electron copy when running inside Electron, else
 * undefined (plain Node uses the copy `npm install` built in node_modules).
 * @param {Readonly<Record<string, string | undefined>>} versions process.versions
 * @param {string} arch process.arch
 * @param {string} root
 */
export function electronBindingPath(versions, arch, root) {
  const electron = versions["electron"];
  return electron ? electronNativePaths(electron, arch, root).binary : undefined;
}

/**
 * Where an installed Baton keeps better-sqlite3's binary, under the app's resources folder:
 * electron-builder rebuilt it for Electron's ABI (npmRebuild) and kept it out of app.asar
 * (asarUnpack in electron-builder.yml), because the operating system loads a .node file by path
 * and cannot read inside the archive. test/unit/electronBuilderFiles.test.ts checks that the
 * packaging configuration puts it here.
 * @param {string} resourcesPath process.resourcesPath
 */
export function packagedBindingPath(resourcesPath) {
  return path.join(resourcesPath, "app.asar.unpacked", "node_modules", "better-sqlite3", "build", "Release", BINARY_NAME);
}

/**
 * The binary the store should load: an installed app's own rebuilt copy; under `npm start` the
 * copy scripts/electronNative.mjs built into build/native/ (node_modules keeps the Node build);
 * in plain Node undefined (the copy `npm install` built).
 * @param {Readonly<Record<string, string | undefined>>} versions process.versions
 * @param {string} arch process.arch
 * @param {string} appPath app.getAppPath()
 * @param {string | undefined} packagedResources process.resourcesPath when app.isPackaged, else undefined
 */
export function storeBindingPath(versions, arch, appPath, packagedResources) {
  if (versions["electron"] && packagedResources !== undefined) return packagedBindingPath(packagedResources);
  return electronBindingPath(versions, arch, appPath);
}

/**
 * The CPU Electron was installed for: electron's own installer honours these variables first.
 * @param {Readonly<Record<string, string | undefined>>} env
 * @param {string} processArch
 */
export function targetArch(env, processArch) {
  return env["ELECTRON_INSTALL_ARCH"] || env["npm_config_arch"] || processArch;
}

/**
 * @param {string} electronVersion
 * @param {string} arch
 * @param {string} betterSqlite3Version
 */
export function expectedStamp(electronVersion, arch, betterSqlite3Version) {
  return { electron: electronVersion, arch, betterSqlite3: betterSqlite3Version };
}

/**
 * The stamp file's contents, or undefined when it is missing, unreadable or not a stamp.
 * @param {string | undefined} text
 */
export function parseStamp(text) {
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text);
    if (typeof value !== "object" || value === null) return undefined;
    const { electron, arch, betterSqlite3 } = value;
    if (typeof electron !== "string" || typeof arch !== "string" || typeof betterSqlite3 !== "string") return undefined;
    return { electron, arch, betterSqlite3 };
  } catch {
    return undefined;
  }
}

/**
 * A build is needed when the binary is missing, or was built for another Electron, CPU or
 * better-sqlite3 version (its JavaScript and its binary must match).
 * @param {{ binaryExists: boolean, stamp: ReturnType<typeof parseStamp>, expected: ReturnType<typeof expectedStamp> }} state
 */
export function needsBuild(state) {
  const { binaryExists, stamp, expected } = state;
  if (!binaryExists || stamp === undefined) return true;
  return stamp.electron !== expected.electron || stamp.arch !== expected.arch || stamp.betterSqlite3 !== expected.betterSqlite3;
}

/**
 * prebuild-install downloads better-sqlite3's published binary for this Electron into
 * build/Release/ of the package folder it runs in.
 * @param {string} electronVersion
 * @param {string} arch
 */
export function prebuildInstallArgs(electronVersion, arch) {
  return ["--runtime", "electron", "--target", electronVersion, "--arch", arch, "--verbose"];
}

/**
 * Compiles from source against Electron's headers (downloaded into `devdir`, kept apart from
 * Node's headers of the same version number).
 * @param {string} electronVersion
 * @param {string} arch
 * @param {string} devdir
 */
export function nodeGypArgs(electronVersion, arch, devdir) {
  return [
    "rebuild",
    "--release",
    `--target=${electronVersion}`,
    `--arch=${arch}`,
    `--dist-url=${ELECTRON_HEADERS_URL}`,
    `--devdir=${devdir}`,
  ];
}

// npm hands its config to scripts as npm_config_* variables, and node-gyp lets those override its
// command line; any that choose the target would build for the wrong runtime.
const TARGET_SETTINGS = new Set(["target", "arch", "runtime", "dist_url", "disturl", "nodedir", "devdir", "target_arch", "build_from_source"]);

/**
 * The environment for prebuild-install and node-gyp: ours, minus settings that pick the target.
 * @param {Readonly<Record<string, string | undefined>>} env
 */
export function childEnv(env) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const [key, value] of Object.entries(env)) {
    const setting = /^npm_(?:package_config_node_gyp|config)_(.+)$/i.exec(key)?.[1]?.toLowerCase().replaceAll("-", "_");
    if (value !== undefined && !(setting !== undefined && TARGET_SETTINGS.has(setting))) out[key] = value;
  }
  return out;
}

/**
 * Where node-gyp may be, best first: the copy npm names to scripts it runs, then the copy
 * bundled with the npm that runs us, then the npm installed next to this Node.
 * @param {Readonly<Record<string, string | undefined>>} env
 * @param {string} execPath process.execPath
 * @param {string} platform process.platform
 */
export function nodeGypCandidates(env, execPath, platform) {
  const candidates = [];
  if (env["npm_config_node_gyp"]) candidates.push(env["npm_config_node_gyp"]);
  const npmCli = env["npm_execpath"];
  if (npmCli) candidates.push(path.join(path.dirname(npmCli), "..", "node_modules", "node-gyp", "bin", "node-gyp.js"));
  const nodeDir = path.dirname(execPath);
  const npmDir =
    platform === "win32" ? path.join(nodeDir, "node_modules", "npm") : path.join(nodeDir, "..", "lib", "node_modules", "npm");
  candidates.push(path.join(npmDir, "node_modules", "node-gyp", "bin", "node-gyp.js"));
  return [...new Set(candidates.map((c) => path.normalize(c)))];
}

/**
 * What to tell a person when neither way worked. The app still starts; only search is off.
 * @param {string} electronVersion
 * @param {string} arch
 * @param {readonly { how: string, error: string }[]} attempts
 */
export function failureMessage(electronVersion, arch, attempts) {
  return [
    `baton: could not get better-sqlite3 for Electron ${electronVersion} (${arch}).`,
    ...attempts.map((a) => `  - ${a.how}: ${a.error}`),
    "  This needs network access (github.com for the prebuilt binary, electronjs.org for headers",
    "  when compiling, which also needs Python and a C++ toolchain). The app will start, but",
    "  history search stays off until `node scripts/electronNative.mjs` succeeds.",
  ].join("\n");
}
