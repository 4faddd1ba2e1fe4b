// Small executables that stand in the CLI's place for the fault tests: a wrapper that runs the real
// CLI (after doing something to it), written into the test's temp HOME with the paths filled in.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { CliEnv } from "../cliEnv.js";

const faultsDir = path.dirname(fileURLToPath(import.meta.url));

/** A test double next to this file (e.g. notReadingClaude.mjs), run with this Node. */
export function doubleCommand(name: string): string {
  return `"${process.execPath}" "${path.join(faultsDir, name)}"`;
}

/** Writes an executable `sh` script `name` into the env's HOME; `$CLAUDE` in `body` is the real CLI. */
export function writeWrapper(env: CliEnv, name: string, body: string): string {
  const file = path.join(env.home, name);
  fs.writeFileSync(file, `#!/bin/sh\nCLAUDE="${env.claudePath}"\n${body}\n`);
  fs.chmodSync(file, 0o755);
  return file;
}
