// `claude --version`, bounded in time: a hung or broken binary must not hang `baton doctor`.

import { execFile } from "node:child_process";

export type ClaudeVersionResult =
  | { readonly ok: true; readonly version: string; readonly raw: string }
  | { readonly ok: false; readonly reason: string };

export function claudeVersion(claudePath: string, timeoutMs = 15_000, env?: NodeJS.ProcessEnv): Promise<ClaudeVersionResult> {
  return new Promise((resolve) => {
    execFile(
      claudePath,
      ["--version"],
      { timeout: timeoutMs, killSignal: "SIGKILL", env: env ?? process.env, windowsHide: true, maxBuffer: 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          const e = error as NodeJS.ErrnoException & { killed?: boolean };
          const reason = e.killed
            ? `no answer within ${timeoutMs} ms`
            : `${e.code ?? "failed"}: ${(String(stderr).trim() || e.message).split("\n").slice(-3).join(" ")}`;
          resolve({ ok: false, reason });
          return;
        }
        const raw = String(stdout).trim();
        const match = /\d+\.\d+\.\d+\S*/.exec(raw);
        resolve(match ? { ok: true, version: match[0], raw } : { ok: false, reason: `unexpected output: ${raw.slice(0, 200)}` });
      },
    );
  });
}
