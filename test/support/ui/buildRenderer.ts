// The browser tests load the built renderer (`out/renderer`), as `baton web` serves it; the bundle
// test loads the built main (`out/main`). Builds once when the output is missing or older than
// any source file it comes from.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
export const rendererOut = path.join(repoRoot, "out", "renderer");
export const mainOut = path.join(repoRoot, "out", "main");

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

function olderThan(output: string, sources: readonly string[]): boolean {
  if (!fs.existsSync(output)) return true;
  const newest = Math.max(...sources.map((s) => (fs.statSync(s).isDirectory() ? newestMtime(s) : fs.statSync(s).mtimeMs)));
  return fs.statSync(output).mtimeMs < newest;
}

function rendererStale(): boolean {
  return olderThan(path.join(rendererOut, "index.html"), [path.join(repoRoot, "src", "renderer"), path.join(repoRoot, "src", "shared")]);
}

function mainStale(): boolean {
  const sources = ["src/main", "src/shared", "scripts/electronNativePaths.mjs", "electron.vite.config.ts"];
  return olderThan(path.join(mainOut, "storeWorker.js"), sources.map((s) => path.join(repoRoot, s)));
}

const LockDir = path.join(repoRoot, "out", ".renderer-build.lock");
const LockWaitMs = 120_000;

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Builds the renderer when stale; returns its folder. */
export function ensureRendererBuilt(): string {
  ensureBuilt(rendererStale);
  return rendererOut;
}

/** Builds the Electron main bundle (with its worker entries) when stale; returns its folder. */
export function ensureMainBuilt(): string {
  ensureBuilt(mainStale);
  return mainOut;
}

function takeBuildLock(): void {
  fs.mkdirSync(path.dirname(LockDir), { recursive: true });
  const deadline = Date.now() + LockWaitMs;
  for (;;) {
    try {
      fs.mkdirSync(LockDir);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`renderer build lock ${LockDir} held for over ${LockWaitMs} ms`);
      sleepSync(200);
    }
  }
}

/**
 * Runs `use` while no test can rebuild out/ (it takes the build lock): for a test that reads the
 * built files in several steps and must see one build throughout.
 */
export async function whileOutputHeld<T>(use: () => Promise<T>): Promise<T> {
  takeBuildLock();
  try {
    return await use();
  } finally {
    fs.rmdirSync(LockDir);
  }
}

/** `electron-vite build` when stale. Test files run in parallel workers: one builds, the others wait. */
function ensureBuilt(stale: () => boolean): void {
  if (!stale()) return;
  takeBuildLock();
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
}
