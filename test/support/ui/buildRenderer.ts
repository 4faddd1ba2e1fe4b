// The browser tests load the built renderer (`out/renderer`), as `baton web` serves it. Builds it
// once when it is missing or older than any renderer/shared source file.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
export const rendererOut = path.join(repoRoot, "out", "renderer");

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

function stale(): boolean {
  const index = path.join(rendererOut, "index.html");
  const sources = Math.max(newestMtime(path.join(repoRoot, "src", "renderer")), newestMtime(path.join(repoRoot, "src", "shared")));
  return !fs.existsSync(index) || fs.statSync(index).mtimeMs < sources;
}

const LockDir = path.join(repoRoot, "out", ".renderer-build.lock");
const LockWaitMs = 120_000;

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Builds when stale. Test files run in parallel workers: one builds, the others wait for it. */
export function ensureRendererBuilt(): string {
  if (!stale()) return rendererOut;
  fs.mkdirSync(path.dirname(LockDir), { recursive: true });
  const deadline = Date.now() + LockWaitMs;
  for (;;) {
    try {
      fs.mkdirSync(LockDir);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`renderer build lock ${LockDir} held for over ${LockWaitMs} ms`);
      sleepSync(200);
    }
  }
  try {
    if (stale()) {
      execFileSync(process.execPath, [path.join(repoRoot, "node_modules", "electron-vite", "bin", "electron-vite.js"), "build"], {
        cwd: repoRoot,
        stdio: "pipe",
      });
    }
  } finally {
    fs.rmdirSync(LockDir);
  }
  return rendererOut;
}
