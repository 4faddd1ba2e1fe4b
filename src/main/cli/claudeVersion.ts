// `claude --version`, bounded in time and size: a hung or broken binary must not hang `baton
// doctor`. The binary runs in a process group of its own, so on timeout the whole group is killed
// and the answer comes at once, even when a child of it still holds the output pipe open.

import { spawn } from "node:child_process";

export type ClaudeVersionResult =
  | { readonly ok: true; readonly version: string; readonly raw: string }
  | { readonly ok: false; readonly reason: string };

/** More than any version banner; a binary that prints more is cut off, not buffered. */
const MaxOutputBytes = 64 * 1024;

export function claudeVersion(claudePath: string, timeoutMs = 15_000, env?: NodeJS.ProcessEnv): Promise<ClaudeVersionResult> {
  return new Promise((resolve) => {
    const windows = process.platform === "win32";
    let child;
    try {
      child = spawn(claudePath, ["--version"], { env: env ?? process.env, stdio: ["ignore", "pipe", "pipe"], detached: !windows, windowsHide: true });
    } catch (error) {
      resolve({ ok: false, reason: `failed: ${error instanceof Error ? error.message : String(error)}` });
      return;
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      if (size >= MaxOutputBytes) return;
      into.push(chunk.subarray(0, MaxOutputBytes - size));
      size += chunk.length;
    };
    child.stdout.on("data", collect(out));
    child.stderr.on("data", collect(err));

    let settled = false;
    const finish = (result: ClaudeVersionResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stdout.destroy();
      child.stderr.destroy();
      resolve(result);
    };
    const killGroup = () => {
      try {
        if (!windows && child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
        else child.kill("SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      killGroup();
      finish({ ok: false, reason: `no answer within ${timeoutMs} ms` });
    }, timeoutMs);

    child.on("error", (error: NodeJS.ErrnoException) => finish({ ok: false, reason: `${error.code ?? "failed"}: ${error.message}` }));
    // "close": the binary exited and its pipes drained. A child of it could keep them open
    // forever, so the timer stays armed until then.
    child.on("close", (code, signal) => {
      const stdout = Buffer.concat(out).toString("utf8").trim();
      const stderr = Buffer.concat(err).toString("utf8").trim();
      if (code !== 0) {
        const how = signal ? `killed by ${signal}` : `exit code ${String(code)}`;
        finish({ ok: false, reason: `${how}: ${(stderr || stdout || "no output").split("\n").slice(-3).join(" ")}` });
        return;
      }
      const match = /\d+\.\d+\.\d+[^\s()]*/.exec(stdout);
      finish(match ? { ok: true, version: match[0], raw: stdout } : { ok: false, reason: `unexpected output: ${stdout.slice(0, 200)}` });
    });
  });
}
