// Another process holding one of Baton's SQLite files locked (sqliteLocker.mjs): the tests start
// it, wait until it holds the lock, and let go when the test says so. Every holder still running
// when its test ends is killed (a test that failed before releasing must not leave a lock behind).
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";

const lockerScript = fileURLToPath(new URL("./sqliteLocker.mjs", import.meta.url));

export interface HeldLock {
  /** Rolls back and closes the other process's connection; settles once that process exited. */
  release(): Promise<void>;
}

const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
});

/** Starts a process that holds `file`'s write lock (`write`) or the whole file (`exclusive`). */
export async function holdLock(file: string, mode: "write" | "exclusive"): Promise<HeldLock> {
  const child = spawn(process.execPath, [lockerScript, file, mode], { stdio: ["pipe", "pipe", "pipe"] });
  running.add(child);
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("locked\n")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the locking process exited (${code}) before it held ${file}: ${stderr}`)));
  });
  return {
    async release() {
      child.stdin!.end("release\n");
      await exited;
      running.delete(child);
    },
  };
}
