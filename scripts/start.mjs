// `npm start`: installs Electron's binary (`install-electron`), the Electron copy of better-sqlite3
// (scripts/electronNative.mjs) and runs `electron-vite dev`. When the window cannot come up (the
// binary cannot be downloaded, a library is missing, there is no display) it prints one paragraph
// saying what failed and what to do (scripts/startFailure.mjs decides which), and offers Baton in
// the browser instead: asked on a terminal, the command printed otherwise. Arguments after `--`
// go to the app (`npm start -- --projects-dir D`).
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import readline from "node:readline/promises";
import { fileURLToPath } from "node:url";
import { acceptsOffer, describeStartFailure, recogniseStartFailure, WEB_COMMAND } from "./startFailure.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(path.join(root, "package.json"));
/** Enough of a step's stderr to recognise its failure; the rest has been shown already. */
const KEEP_STDERR = 64 * 1024;

/**
 * Runs a step with stdin and stdout shared and stderr kept for recognising; shown as it comes when
 * `echo` (the app's own log), else held back: a download's bare stack is replaced by the paragraph.
 */
function runStep(command, args, { echo }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ["inherit", "inherit", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      if (echo) process.stderr.write(chunk);
      stderr = (stderr + chunk.toString("utf8")).slice(-KEEP_STDERR);
    });
    child.on("error", (error) => resolve({ exitCode: 1, signal: null, stderr: `${stderr}${error.message}\n` }));
    child.on("close", (code, signal) => resolve({ exitCode: code ?? 1, signal, stderr }));
  });
}

async function offerBrowser(failure) {
  const offer = process.stdin.isTTY && process.stdout.isTTY ? "ask" : "print";
  process.stderr.write(`\n${describeStartFailure(failure, { nodeVersion: process.version, offer })}\n\n`);
  if (offer === "print") return 1;
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  // Ctrl-C at the question (or stdin closing) is a no.
  const asked = new AbortController();
  rl.on("SIGINT", () => asked.abort());
  rl.on("close", () => asked.abort());
  const answer = await rl.question("Open Baton in your browser instead? [Y/n] ", { signal: asked.signal }).catch(() => "n");
  rl.close();
  if (!acceptsOffer(answer)) return 1;
  // The web command prints the link and runs until Ctrl-C; its exit code is this start's.
  const [command, ...args] = WEB_COMMAND.split(" ");
  const web = spawn(command, args, { cwd: root, stdio: "inherit", shell: process.platform === "win32" });
  return new Promise((resolve) => web.on("close", (code) => resolve(code ?? 0)));
}

async function main() {
  // Ctrl-C reaches the step running too (same terminal): it stops on its own, and this script then
  // ends with its exit code instead of leaving it behind mid-shutdown.
  let interrupted = false;
  process.on("SIGINT", () => (interrupted = true));
  const context = { nodeVersion: process.version, platform: process.platform, env: process.env };
  const noDisplay = recogniseStartFailure({ ...context, step: "launch", exitCode: 0, stderr: "", preflight: true });
  if (noDisplay) return offerBrowser(noDisplay);

  const download = await runStep(process.execPath, [require.resolve("electron/install.js")], { echo: false });
  if (interrupted || download.signal !== null) return 130;
  const downloadFailure = recogniseStartFailure({ ...context, step: "download", ...download });
  if (downloadFailure) {
    // A failure not recognised keeps all it said; a recognised one is quoted in the paragraph.
    if (downloadFailure.kind === "download-other") process.stderr.write(download.stderr);
    return offerBrowser(downloadFailure);
  }
  if (download.stderr) process.stderr.write(download.stderr);

  const native = await runStep(process.execPath, [path.join(root, "scripts", "electronNative.mjs")], { echo: true });
  if (native.exitCode !== 0) return native.exitCode;

  const viteBin = path.join(path.dirname(require.resolve("electron-vite/package.json")), "bin", "electron-vite.js");
  const launch = await runStep(process.execPath, [viteBin, "dev", "--", ...process.argv.slice(2)], { echo: true });
  // Ctrl-C in the terminal stops the app: not a failure to explain.
  if (interrupted || launch.signal !== null) return 0;
  const launchFailure = recogniseStartFailure({ ...context, step: "launch", ...launch });
  return launchFailure ? offerBrowser(launchFailure) : launch.exitCode;
}

process.exitCode = await main();
