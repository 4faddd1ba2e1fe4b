// One running `claude` process: spawned with an argument array (never a shell), stdin behind a
// backpressure-aware writer, stderr in a bounded ring, and one `exited` promise that settles
// exactly once however the process ends (normal exit, crash, kill, or failure to start).

import { spawn, type ChildProcess } from "node:child_process";
import { ClaudeNotFoundError } from "./errors.js";
import { killTree } from "./processTree.js";
import { createStderrRing, type StderrRing } from "./stderrRing.js";
import { createStdinWriter, type StdinStall, type StdinWriter } from "./stdinWriter.js";

export interface ExitInfo {
  readonly code: number | null;
  readonly signal: string | null;
  readonly stderrTail: string;
  /** Set when the process never started (ENOENT, EACCES, …). */
  readonly spawnError?: Error;
}

export interface StopTimeouts {
  /** How long to wait after closing stdin before SIGTERM. */
  readonly closeStdinMs?: number;
  /** How long to wait after SIGTERM before SIGKILL. */
  readonly sigtermMs?: number;
}

export interface CliProcess {
  readonly pid: number | undefined;
  readonly stdin: StdinWriter;
  readonly stderr: StderrRing;
  readonly exited: Promise<ExitInfo>;
  readonly hasExited: boolean;
  /** close stdin → wait → SIGTERM → wait → SIGKILL (with every process it started); resolves with the exit. */
  stop(timeouts?: StopTimeouts): Promise<ExitInfo>;
  kill(signal: NodeJS.Signals): void;
  /** Sends `signal` to the process and every process it started (processTree.ts). */
  killTree(signal: NodeJS.Signals): Promise<void>;
}

export interface SpawnCliOptions {
  readonly path: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly stderrMaxBytes?: number;
  onStdout(chunk: Buffer): void;
  onStderr?(chunk: Buffer): void;
  onStdinError?(error: NodeJS.ErrnoException): void;
  onStdinWritten?(line: string): void;
  /** Bounds on input the CLI has not read (stdinWriter.ts). */
  readonly stdinMaxQueuedBytes?: number;
  readonly stdinStallMs?: number;
  /** The CLI has not read its input for `stdinStallMs`. */
  onStdinStalled?(stall: StdinStall): void;
}

/** After 'exit', how long to wait for stdout to finish ('close') before settling anyway. */
const CLOSE_AFTER_EXIT_MS = 2000;

export function spawnCli(options: SpawnCliOptions): CliProcess {
  const child: ChildProcess = spawn(options.path, [...options.args], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["pipe", "pipe", "pipe"],
    shell: false,
    windowsHide: true,
  });
  const stderr = createStderrRing(options.stderrMaxBytes);
  const stdin = createStdinWriter(child.stdin!, {
    onError: (error) => options.onStdinError?.(error),
    onWritten: (line) => options.onStdinWritten?.(line),
    onStalled: (stall) => options.onStdinStalled?.(stall),
    ...(options.stdinMaxQueuedBytes !== undefined ? { maxQueuedBytes: options.stdinMaxQueuedBytes } : {}),
    ...(options.stdinStallMs !== undefined ? { stallMs: options.stdinStallMs } : {}),
  });

  let hasExited = false;
  let settle!: (info: ExitInfo) => void;
  const exited = new Promise<ExitInfo>((resolve) => {
    settle = (info) => {
      if (hasExited) return;
      hasExited = true;
      stdin.dispose();
      resolve(info);
    };
  });

  child.stdout!.on("data", (chunk: Buffer) => options.onStdout(chunk));
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr.push(chunk);
    options.onStderr?.(chunk);
  });
  // Stream errors after the process is gone carry no news; the exit says it all.
  child.stdout!.on("error", () => undefined);
  child.stderr!.on("error", () => undefined);

  let exitTimer: ReturnType<typeof setTimeout> | undefined;
  const finish = (code: number | null, signal: NodeJS.Signals | null) => {
    if (exitTimer) clearTimeout(exitTimer);
    settle({ code, signal, stderrTail: stderr.text() });
  };
  child.on("error", (error: NodeJS.ErrnoException) => {
    if (child.pid !== undefined) return; // a kill() failure on a live process; 'exit' will follow
    const code = error.code === "ENOENT" || error.code === "EACCES" ? error.code : undefined;
    const spawnError = code ? new ClaudeNotFoundError(options.path, code) : error;
    if (exitTimer) clearTimeout(exitTimer);
    settle({ code: null, signal: null, stderrTail: stderr.text(), spawnError });
  });
  child.on("exit", (code, signal) => {
    // Grandchildren may keep stdout open; do not wait for 'close' forever.
    exitTimer = setTimeout(() => finish(code, signal), CLOSE_AFTER_EXIT_MS);
  });
  child.on("close", (code, signal) => finish(code, signal));

  function waitFor(ms: number): Promise<boolean> {
    if (hasExited) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      void exited.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  async function killAll(signal: NodeJS.Signals): Promise<void> {
    if (!hasExited && child.pid !== undefined) await killTree(child.pid, signal);
  }

  return {
    get pid() {
      return child.pid;
    },
    stdin,
    stderr,
    exited,
    get hasExited() {
      return hasExited;
    },
    async stop(timeouts = {}) {
      stdin.end();
      if (await waitFor(timeouts.closeStdinMs ?? 3000)) return exited;
      child.kill("SIGTERM");
      if (await waitFor(timeouts.sigtermMs ?? 3000)) return exited;
      await killAll("SIGKILL");
      return exited;
    },
    kill(signal) {
      if (!hasExited) child.kill(signal);
    },
    killTree: killAll,
  };
}
