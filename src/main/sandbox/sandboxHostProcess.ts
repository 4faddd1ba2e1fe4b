// Baton's side of one sandbox host (sandboxHost.ts): starts the child process, asks it to wrap
// commands and to clean up after them, and stops it. A host that fails or dies fails every
// request waiting on it (the caller then refuses the command: fail closed); the next request
// starts a new host through SandboxService.

import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { HostConfigVariable, type HostConfig, type HostMessage, type HostRequest } from "./hostProtocol.js";
import { outsideAsar } from "./packagedHelpers.js";
import type { NetworkPolicy } from "./sandboxPlan.js";

/** The host module next to this one: .ts under tsx and vitest, .js when built. */
export function defaultHostEntry(): URL {
  const here = import.meta.url;
  return new URL(here.endsWith(".ts") ? "./sandboxHost.ts" : "./sandboxHost.js", here);
}

/**
 * How the host is started from `entry`: the TypeScript sources (tests, `npx baton`) under tsx,
 * found from their own folder, which a built host starts in too (the host then moves to each
 * command's folder). An installed app's host sits inside app.asar, a file no process can start
 * in: it starts beside the archive.
 */
export function hostStartOptions(entry: URL): { readonly execArgv: string[]; readonly cwd: string } {
  const cwd = outsideAsar(path.dirname(fileURLToPath(entry)));
  return { execArgv: entry.pathname.endsWith(".ts") ? ["--import", "tsx"] : [], cwd };
}

export interface HostProcessOptions {
  readonly network: NetworkPolicy;
  readonly entry?: URL;
  /** The environment the runtime finds bwrap, socat and rg in (the CLI's). */
  readonly env?: NodeJS.ProcessEnv;
  /** How long one request may take, start-up included. */
  readonly timeoutMs?: number;
  readonly onExit?: (reason: string) => void;
}

export interface HostFolders {
  /** The sandboxes' temporary folder. */
  readonly temporaryFolder: string;
  /** Where the scripts that start sandboxed commands are written; no sandbox may write it. */
  readonly wrapsFolder: string;
}

type RequestBody = HostRequest extends infer R ? (R extends HostRequest ? Omit<R, "id"> : never) : never;

const DefaultTimeoutMs = 30_000;
const StopTimeoutMs = 3_000;

export class SandboxHostProcess {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, { resolve(value: string): void; reject(error: Error): void; timer: NodeJS.Timeout }>();
  private nextId = 1;
  private gone: string | undefined;
  private stderr = "";
  /** The host's private folders, once it is up. */
  readonly ready: Promise<HostFolders>;

  constructor(private readonly options: HostProcessOptions) {
    const entry = options.entry ?? defaultHostEntry();
    const config: HostConfig = { network: options.network };
    this.child = fork(fileURLToPath(entry), [], {
      // Under Electron, process.execPath is the app itself: ELECTRON_RUN_AS_NODE makes it Node.
      env: { ...(options.env ?? process.env), [HostConfigVariable]: JSON.stringify(config), ELECTRON_RUN_AS_NODE: "1" },
      ...hostStartOptions(entry),
      stdio: ["ignore", "ignore", "pipe", "ipc"],
      serialization: "json",
    });
    this.child.stderr?.setEncoding("utf8");
    this.child.stderr?.on("data", (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-4000);
    });
    this.ready = new Promise<HostFolders>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the sandbox host did not start within ${this.timeoutMs} ms`)), this.timeoutMs);
      timer.unref();
      this.child.on("message", (message: HostMessage) => {
        if (message.op === "ready") {
          clearTimeout(timer);
          resolve({ temporaryFolder: message.temporaryFolder, wrapsFolder: message.wrapsFolder });
        } else if (message.op === "failed") {
          clearTimeout(timer);
          reject(new Error(message.error));
        } else this.settle(message);
      });
      this.child.on("exit", (code, signal) => {
        clearTimeout(timer);
        const reason = `the sandbox host stopped (${signal ?? `exit ${code}`})${this.stderr.trim() === "" ? "" : `: ${this.stderr.trim().split("\n").slice(-3).join(" ")}`}`;
        reject(new Error(reason));
        this.fail(reason);
      });
      this.child.on("error", (error) => {
        clearTimeout(timer);
        reject(error);
        this.fail(error.message);
      });
    });
    // A caller that never asks still must not see an unhandled rejection.
    this.ready.catch(() => undefined);
  }

  get alive(): boolean {
    return this.gone === undefined;
  }

  /** The command as bubblewrap or Seatbelt runs it. */
  async wrap(request: Omit<Extract<HostRequest, { op: "wrap" }>, "id" | "op">): Promise<string> {
    await this.ready;
    return this.request({ op: "wrap", ...request });
  }

  /** `count` wrapped commands have ended. */
  async release(count: number): Promise<void> {
    if (count <= 0 || !this.alive) return;
    await this.ready;
    await this.request({ op: "release", count });
  }

  /** Stops the host: its proxy goes, so commands still running lose their network. */
  async stop(): Promise<void> {
    if (!this.alive) return;
    const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.child.disconnect?.();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), StopTimeoutMs);
    timer.unref();
    await exited;
    clearTimeout(timer);
  }

  private get timeoutMs(): number {
    return this.options.timeoutMs ?? DefaultTimeoutMs;
  }

  private request(body: RequestBody): Promise<string> {
    if (this.gone !== undefined) return Promise.reject(new Error(this.gone));
    if (!this.child.connected) return Promise.reject(new Error("the sandbox host is stopping"));
    const id = this.nextId++;
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`the sandbox host did not answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      timer.unref();
      this.pending.set(id, { resolve, reject, timer });
      this.child.send({ ...body, id } as HostRequest);
    });
  }

  private settle(message: Extract<HostMessage, { op: "reply" }>): void {
    const waiting = this.pending.get(message.id);
    if (waiting === undefined) return;
    this.pending.delete(message.id);
    clearTimeout(waiting.timer);
    if (message.ok) waiting.resolve(message.value);
    else waiting.reject(new Error(message.error));
  }

  private fail(reason: string): void {
    if (this.gone !== undefined) return;
    this.gone = reason;
    for (const waiting of this.pending.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(new Error(reason));
    }
    this.pending.clear();
    this.options.onExit?.(reason);
  }
}
