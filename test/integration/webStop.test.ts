// The real `baton web` process stops on SIGTERM while a history read is still in flight: a page
// opened a session whose file is enormous (a sparse file of tens of gigabytes that takes minutes
// to read), and the process must still say "Stopping Baton…" and be gone within seconds.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ensureCliBuilt } from "../support/cliBundle.js";
import { ensureRendererBuilt, repoRoot } from "../support/ui/buildRenderer.js";
import { openSocket, signIn } from "../support/webSignIn.js";
import { tempDirs } from "../support/tempDirs.js";

const SessionId = "66666666-6666-4666-8666-666666666666";
/** Holes read as zeros: one "line" this long takes far longer to read than the test waits. */
const SparseBytes = 200 * 2 ** 30;
const ExitWaitMs = 20_000;

const tempDir = tempDirs("baton-web-stop-");
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const clean of cleanups.splice(0).reverse()) clean();
});

function until<T>(what: string, read: () => T | undefined, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      const value = read();
      if (value !== undefined) return resolve(value);
      if (Date.now() - started > timeoutMs) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 20);
    };
    tick();
  });
}

/** Bytes the process has read so far (Linux: /proc/<pid>/io `rchar`). */
function bytesRead(pid: number): number | undefined {
  try {
    const match = /^rchar: (\d+)$/m.exec(fs.readFileSync(`/proc/${pid}/io`, "utf8"));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** A history folder whose only session is a normal line, a huge hole, and more lines. */
function hugeHistory(root: string): string {
  const projects = path.join(root, "projects");
  const dir = path.join(projects, "-home-user-code-app");
  fs.mkdirSync(dir, { recursive: true });
  const line = (i: number) =>
    `${JSON.stringify({ type: "user", sessionId: SessionId, uuid: `u${i}`, parentUuid: i > 0 ? `u${i - 1}` : null, isSidechain: false, cwd: "/home/user/code/app", timestamp: "2026-01-01T00:00:00.000Z", message: { role: "user", content: `prompt ${i}` } })}\n`;
  const file = path.join(dir, `${SessionId}.jsonl`);
  const head = line(0);
  fs.writeFileSync(file, head);
  fs.truncateSync(file, Buffer.byteLength(head) + SparseBytes);
  fs.appendFileSync(file, `\n${Array.from({ length: 50 }, (_, i) => line(i + 1)).join("")}`);
  return projects;
}

describe.skipIf(process.platform !== "linux")("baton web on SIGTERM", () => {
  it("stops promptly and cleanly while a session's huge file is still being read", async () => {
    const root = tempDir();
    const projects = hugeHistory(root);
    ensureRendererBuilt(); // `baton web` serves out/renderer
    ensureCliBuilt(); // and runs from out/cli, as `npx baton web` does

    const child: ChildProcess = spawn(
      process.execPath,
      [path.join(repoRoot, "bin", "baton.mjs"), "web", "--no-index", "--projects-dir", projects, "--claude", "/nonexistent/claude"],
      { cwd: repoRoot, env: { ...process.env, XDG_CONFIG_HOME: path.join(root, "config"), XDG_RUNTIME_DIR: path.join(root, "runtime") }, stdio: ["ignore", "pipe", "pipe"] },
    );
    cleanups.push(() => child.kill("SIGKILL"));
    let out = "";
    child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));

    const url = await until("the printed link", () => /Baton is at (\S+)/.exec(out)?.[1], 60_000);
    const port = Number(new URL(url).port);
    const ws = openSocket(port, await signIn(url));
    await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
    cleanups.push(() => ws.terminate());
    const before = bytesRead(child.pid!) ?? 0;
    ws.send(JSON.stringify({ type: "call", id: 1, method: "openSession", args: [SessionId] }));
    // The read is in flight once the process has read a gigabyte more than before.
    await until("the session file being read", () => ((bytesRead(child.pid!) ?? 0) - before > 2 ** 30 ? true : undefined), 60_000);

    const signalledAt = Date.now();
    child.kill("SIGTERM");
    const result = await Promise.race([exited, new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), ExitWaitMs))]);
    expect(result, out).not.toBe("still running");
    expect(out).toContain("Stopping Baton…");
    // Stopped cleanly (CLIs, index) and then left though the read went on: ended by the signal.
    expect(result).toEqual({ code: null, signal: "SIGTERM" });
    expect(Date.now() - signalledAt).toBeLessThan(ExitWaitMs);
    expect(out).not.toMatch(/took longer than/);
  });
});
