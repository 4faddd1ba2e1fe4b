// The tests that spawn `bin/baton.mjs` run what people run: the command line's bundle (out/cli,
// scripts/buildCli.ts). Built once when missing or older than a source it comes from; test files
// run in parallel workers, so one builds while the others wait.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { cliBundlePaths, cliBundleState } from "../../scripts/cliBundle.mjs";
import { repoRoot } from "./ui/buildRenderer.js";

const LockDir = path.join(repoRoot, "out", ".cli-build.lock");
const LockWaitMs = 60_000;

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** `npm run build:cli` when out/cli is stale; returns its folder. */
export function ensureCliBuilt(): string {
  const { dir } = cliBundlePaths(repoRoot);
  if (cliBundleState(repoRoot).fresh) return dir;
  fs.mkdirSync(path.dirname(LockDir), { recursive: true });
  const deadline = Date.now() + LockWaitMs;
  for (;;) {
    try {
      fs.mkdirSync(LockDir);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`command line build lock ${LockDir} held for over ${LockWaitMs} ms`);
      sleepSync(100);
    }
  }
  try {
    if (!cliBundleState(repoRoot).fresh) {
      execFileSync(process.execPath, ["--import", "tsx", path.join(repoRoot, "scripts", "buildCli.ts")], { cwd: repoRoot, stdio: "pipe" });
    }
  } finally {
    fs.rmdirSync(LockDir);
  }
  return dir;
}
