// `npm start` when the desktop window cannot come up: each failure recognised from what the real
// tools printed (captured on a machine that cannot download Electron, with machine paths made
// neutral), the paragraph it gets, and scripts/start.mjs end to end up to the point where Electron
// would be downloaded or run (never further: no Electron is launched here).
import { spawn } from "node:child_process";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  acceptsOffer,
  describeStartFailure,
  displayMissing,
  olderThan,
  recogniseStartFailure,
} from "../../scripts/startFailure.mjs";
import { tempDirs } from "../support/tempDirs.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** `install-electron` (Electron 45.5.0, @electron/get 5) with no route to github.com. */
const FETCH_FAILED = `TypeError: fetch failed
    at node:internal/deps/undici/undici:14976:13
    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)
    at async FetchDownloader.download (file:///home/user/code/baton/node_modules/@electron/get/dist/FetchDownloader.js:46:30)
    at async file:///home/user/code/baton/node_modules/@electron/get/dist/index.js:158:9
    at async useAndRemoveDirectory (file:///home/user/code/baton/node_modules/@electron/get/dist/utils.js:10:18)
    at async downloadArtifact (file:///home/user/code/baton/node_modules/@electron/get/dist/index.js:154:12)
`;

/** `install-electron` from a mirror that answered with something else than the zip. */
const CHECKSUM = `Error: Generated checksum for "electron-v45.5.0-win32-x64.zip" did not match expected checksum.
    at Hash.<anonymous> (/home/user/code/baton/node_modules/sumchecker/index.js:133:20)
    at Hash.emit (node:events:524:28)
    at emitReadable_ (node:internal/streams/readable:834:12)
`;

/** Chromium (Electron's engine) started with neither DISPLAY nor WAYLAND_DISPLAY. */
const NO_DISPLAY = `[10937:10937:1206/112221.576125:ERROR:ui/ozone/platform/x11/ozone_platform_x11.cc:257] Missing X server or $DISPLAY
[10937:10937:1206/112221.578592:ERROR:ui/aura/env.cc:253] The platform failed to initialize.  Exiting.
`;

/** glibc's loader starting a binary whose library is not there (the Electron binary's own libffmpeg). */
const NO_FFMPEG =
  "/home/user/code/baton/node_modules/electron/dist/electron: error while loading shared libraries: libffmpeg.so: cannot open shared object file: No such file or directory\n";

const linux = { platform: "linux", env: { DISPLAY: ":0" } } as const;
const node20 = "v20.20.2";
const node22 = "v22.12.0";

describe("recognising why the desktop window did not start", () => {
  it("a download with no network, naming Node 22.12 only when this Node is older", () => {
    const old = recogniseStartFailure({ ...linux, step: "download", exitCode: 1, stderr: FETCH_FAILED, nodeVersion: node20 });
    expect(old).toEqual({ kind: "download", nodeTooOld: true, quoted: "TypeError: fetch failed" });
    const current = recogniseStartFailure({ ...linux, step: "download", exitCode: 1, stderr: FETCH_FAILED, nodeVersion: node22 });
    expect(current).toEqual({ kind: "download", nodeTooOld: false, quoted: "TypeError: fetch failed" });

    const text = describeStartFailure(old!, { nodeVersion: node20, offer: "print" });
    expect(text).toContain("Electron's binary could not be downloaded (it said: TypeError: fetch failed)");
    expect(text).toContain("ELECTRON_MIRROR");
    expect(text).toContain("Node 22.12.0 or newer and this is Node 20.20.2");
    expect(text).toContain("run `npm run web`");
    expect(text).not.toContain("\n");
    expect(describeStartFailure(current!, { nodeVersion: node22, offer: "print" })).not.toContain("22.12");
  });

  it("a mirror or proxy that served something else is a download problem too", () => {
    const failure = recogniseStartFailure({ ...linux, step: "download", exitCode: 1, stderr: CHECKSUM, nodeVersion: node22 });
    expect(failure?.kind).toBe("download");
    expect(failure?.quoted).toBe('Error: Generated checksum for "electron-v45.5.0-win32-x64.zip" did not match expected checksum.');
  });

  it("code too new for this Node is the Node version, and only on a Node below 22.12", () => {
    const stderr = "TypeError: fs.globSync is not a function\n    at extract (/home/user/code/baton/node_modules/@electron-internal/extract-zip/index.js:12:3)\n";
    const failure = recogniseStartFailure({ ...linux, step: "download", exitCode: 1, stderr, nodeVersion: node20 });
    expect(failure?.kind).toBe("node-version");
    expect(describeStartFailure(failure!, { nodeVersion: node20, offer: "print" })).toContain("asks for Node 22.12.0 or newer while this is Node 20.20.2. Install a newer Node");
    expect(recogniseStartFailure({ ...linux, step: "download", exitCode: 1, stderr, nodeVersion: node22 })?.kind).toBe("download-other");
  });

  it("a missing shared library, with the Debian package for the usual ones and a re-download for Electron's own", () => {
    const own = recogniseStartFailure({ ...linux, step: "launch", exitCode: 127, stderr: NO_FFMPEG, nodeVersion: node22 });
    expect(own).toMatchObject({ kind: "missing-library", library: "libffmpeg.so" });
    expect(describeStartFailure(own!, { nodeVersion: node22, offer: "print" })).toContain("Delete the folder node_modules/electron/dist");

    const nss = NO_FFMPEG.replace("libffmpeg.so", "libnss3.so");
    const system = recogniseStartFailure({ ...linux, step: "launch", exitCode: 127, stderr: nss, nodeVersion: node22 });
    expect(describeStartFailure(system!, { nodeVersion: node22, offer: "print" })).toContain("`sudo apt-get install libnss3`");
    const rare = NO_FFMPEG.replace("libffmpeg.so", "libfoo.so.7");
    expect(describeStartFailure(recogniseStartFailure({ ...linux, step: "launch", exitCode: 127, stderr: rare, nodeVersion: node22 })!, { nodeVersion: node22, offer: "print" })).toContain(
      "libfoo.so.7, which is not installed (install the package of your distribution that provides it)",
    );
  });

  it("no display: from Electron's own words, or known before anything is downloaded", () => {
    expect(recogniseStartFailure({ ...linux, step: "launch", exitCode: 1, stderr: NO_DISPLAY, nodeVersion: node22 })?.kind).toBe("no-display");
    const preflight = { step: "launch", exitCode: 0, stderr: "", nodeVersion: node22, preflight: true } as const;
    expect(recogniseStartFailure({ ...preflight, platform: "linux", env: {} })?.kind).toBe("no-display");
    expect(recogniseStartFailure({ ...preflight, platform: "linux", env: { WAYLAND_DISPLAY: "wayland-0" } })).toBeUndefined();
    expect(recogniseStartFailure({ ...preflight, platform: "darwin", env: {} })).toBeUndefined();
    expect(displayMissing("linux", { DISPLAY: "" })).toBe(true);
    const text = describeStartFailure({ kind: "no-display" }, { nodeVersion: node22, offer: "ask" });
    expect(text).toContain("neither DISPLAY nor WAYLAND_DISPLAY is set");
    expect(text).toContain("`npm run web` builds it and prints a link");
  });

  it("a step that succeeded is no failure; one not recognised quotes what it said", () => {
    expect(recogniseStartFailure({ ...linux, step: "download", exitCode: 0, stderr: "", nodeVersion: node20 })).toBeUndefined();
    expect(recogniseStartFailure({ ...linux, step: "launch", exitCode: 0, stderr: "[vite] warning\n", nodeVersion: node22 })).toBeUndefined();
    const other = recogniseStartFailure({ ...linux, step: "launch", exitCode: 1, stderr: "App threw an error during load\nError: boom\n    at x (/a.js:1:1)\n", nodeVersion: node22 });
    expect(other).toEqual({ kind: "launch-other", quoted: "App threw an error during load" });
  });

  it("compares versions by number and takes Enter as yes", () => {
    expect(olderThan("v20.20.2", "22.12.0")).toBe(true);
    expect(olderThan("v22.9.0", "22.12.0")).toBe(true);
    expect(olderThan("v22.12.0", "22.12.0")).toBe(false);
    expect(olderThan("v24.0.0", "22.12.0")).toBe(false);
    expect(["", "y", "Yes\n"].map(acceptsOffer)).toEqual([true, true, true]);
    expect(["n", "no", "later"].map(acceptsOffer)).toEqual([false, false, false]);
  });
});

describe("npm start's script, up to Electron", () => {
  const temp = tempDirs("baton-start-");
  const servers: http.Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  });

  function runStart(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      // stdin and stdout are pipes, as in CI or an editor's task: the command is printed, not asked.
      const child = spawn(process.execPath, [path.join(repoRoot, "scripts", "start.mjs")], { cwd: repoRoot, env, stdio: ["pipe", "pipe", "pipe"] });
      child.stdin.end();
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
      child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
  }

  function baseEnv(): NodeJS.ProcessEnv {
    const env = { ...process.env };
    delete env.DISPLAY;
    delete env.WAYLAND_DISPLAY;
    return env;
  }

  it.runIf(process.platform === "linux")("with no display says so and prints the browser command, downloading nothing", async () => {
    const result = await runStart(baseEnv());
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("there is no display to open it on");
    expect(result.stderr).toContain("run `npm run web`");
    expect(result.stdout).not.toContain("Open Baton in your browser instead?");
  });

  it.runIf(process.platform === "linux")("a refused download gets the paragraph instead of a bare stack", async () => {
    // A mirror that answers with what is not Electron's zip, for another platform's build, into an
    // empty cache: the downloader fails on the checksum whatever this machine has installed.
    const server = http.createServer((_req, res) => res.end("not a zip"));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    const result = await runStart({
      ...baseEnv(),
      DISPLAY: ":99",
      ELECTRON_INSTALL_PLATFORM: "win32",
      ELECTRON_MIRROR: `http://127.0.0.1:${port}/`,
      electron_config_cache: temp(),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("Electron's binary could not be downloaded (it said: Error: Generated checksum");
    expect(result.stderr).toContain("run `npm run web`");
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });
});
