#!/usr/bin/env node
// `npx baton <command>`: the headless command line. Runs the JavaScript bundle in out/cli, which
// shares the app's core and starts at once (`npm install` and `npm run build` make it:
// scripts/buildCli.ts). Where it is missing or older than the sources (a checkout being edited,
// a pull not yet built) the TypeScript sources run through tsx instead, after a one-line note on
// stderr: slower to start, never stale.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { cliBundlePaths, cliBundleState } from "../scripts/cliBundle.mjs";

const root = path.resolve(fileURLToPath(import.meta.url), "../..");
const paths = cliBundlePaths(root);
const state = cliBundleState(root);

/** Registers tsx for the sources; false (having said why) when it is not installed. */
async function registerTsx(why) {
  try {
    const { register } = await import("tsx/esm/api");
    register();
  } catch (error) {
    if (error?.code !== "ERR_MODULE_NOT_FOUND") throw error;
    process.stderr.write(`baton: ${why}, and tsx is not installed to run the sources: run \`npm install\` in ${root}\n`);
    return false;
  }
  process.stderr.write(`baton: ${why}; running the sources through tsx (slow to start): \`npm run build:cli\` brings out/cli up to date\n`);
  return true;
}

// Either entry runs the command and sets the exit code (src/main/commands/batonProcess.ts).
if (state.fresh) await import(pathToFileURL(paths.entry).href);
else if (await registerTsx(state.why)) await import(pathToFileURL(paths.sourceEntry).href);
else process.exitCode = 1;
