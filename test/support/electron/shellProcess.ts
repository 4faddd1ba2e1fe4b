// The test's side of the shell's boot test: starts the BUILT Electron main (out/main/index.js) in a
// child Node process against the `electron` test double (shellChild.mjs, electronStandIn.mjs), keeps
// what the double recorded and what the shell sent to its window's page, and asks the child to
// fire Electron's events and call the handlers the shell installed. Electron itself never runs.
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

/** One thing the shell asked of Electron (or one the observers saw), in the order it happened. */
export interface ShellRecord {
  readonly seq: number;
  readonly what: string;
  readonly detail: Readonly<Record<string, unknown>>;
}

/** What the shell sent to a page with webContents.send. */
export interface ShellSend {
  readonly contents: number;
  readonly channel: string;
  readonly args: readonly unknown[];
}

/**
 * Who makes an IPC call: the window's page ("app"), an iframe inside it, the window's main frame
 * after it navigated to another site, or another web contents showing the app's URL.
 */
export type IpcSender = "app" | "subframe" | "foreign-origin" | "other-contents";

export interface AppResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Buffer;
}

export interface ShellOptions {
  /** out/main/index.js */
  readonly mainEntry: string;
  /** The process env of the app (an isolated HOME, the CLI's variables). */
  readonly env: NodeJS.ProcessEnv;
  /** The app's own switches (`--projects-dir D`), after the app's path as in `electron .`. */
  readonly args?: readonly string[];
  /** Electron's userData folder. */
  readonly userData: string;
  /** Another Baton holds the single-instance lock. */
  readonly lockHeld?: boolean;
  /** nativeTheme.shouldUseDarkColors */
  readonly dark?: boolean;
  /** ELECTRON_RENDERER_URL, as `electron-vite dev` (`npm start`) sets it. */
  readonly devServerUrl?: string;
  /** app.isPackaged: an installed app. */
  readonly packaged?: boolean;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

type ChildMessage =
  | { type: "record"; entry: ShellRecord }
  | { type: "send"; contents: number; channel: string; args: unknown[] }
  | { type: "reply"; id: number; ok: true; value: unknown }
  | { type: "reply"; id: number; ok: false; error: string }
  | { type: "exit"; code: number };

const WaitMs = 60_000;

export class ShellProcess {
  readonly records: ShellRecord[] = [];
  readonly sends: ShellSend[] = [];
  /** How the child ended: its code, or the signal that ended it. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  private readonly watchers = new Set<() => void>();
  private readonly sendListeners = new Set<(send: ShellSend) => void>();
  private nextId = 1;
  private stderrText = "";
  private hasExited = false;

  constructor(options: ShellOptions) {
    const env: NodeJS.ProcessEnv = { ...options.env, BATON_STANDIN_MAIN: options.mainEntry, BATON_STANDIN_USER_DATA: options.userData };
    // Plain Node, as Electron's main would be: no loader the test runner may have set, no dev server unless asked.
    delete env["NODE_OPTIONS"];
    delete env["ELECTRON_RENDERER_URL"];
    if (options.devServerUrl !== undefined) env["ELECTRON_RENDERER_URL"] = options.devServerUrl;
    if (options.packaged === true) env["BATON_STANDIN_PACKAGED"] = "1";
    if (options.lockHeld === true) env["BATON_STANDIN_INSTANCE_LOCK"] = "held";
    env["BATON_STANDIN_DARK"] = options.dark === true ? "1" : "0";
    this.child = fork(path.join(here, "shellChild.mjs"), [path.resolve(path.dirname(options.mainEntry), "../.."), ...(options.args ?? [])], {
      env,
      execArgv: [],
      serialization: "advanced",
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    this.child.stdout?.on("data", (chunk: Buffer) => (this.stderrText += chunk.toString()));
    this.child.stderr?.on("data", (chunk: Buffer) => (this.stderrText += chunk.toString()));
    this.child.on("message", (message: ChildMessage) => this.receive(message));
    this.exited = new Promise((resolve) => {
      this.child.once("exit", (code, signal) => {
        this.hasExited = true;
        for (const p of this.pending.values()) p.reject(new Error(`the shell's process ended (${code ?? signal})\n${this.stderrText}`));
        this.pending.clear();
        this.notify();
        resolve({ code, signal });
      });
    });
  }

  /** What the child printed (stdout and stderr), for failure messages. */
  get output(): string {
    return this.stderrText;
  }

  get running(): boolean {
    return !this.hasExited;
  }

  /** The entries named `what` (and matching `match`), in order. */
  seen(what: string, match: (detail: Readonly<Record<string, unknown>>) => boolean = () => true): ShellRecord[] {
    return this.records.filter((r) => r.what === what && match(r.detail));
  }

  /** Waits until the shell has done `what` (and `match`), or the child ended without. */
  waitFor(what: string, match: (detail: Readonly<Record<string, unknown>>) => boolean = () => true, timeoutMs = WaitMs): Promise<ShellRecord> {
    return this.waitUntil(`${what}`, () => this.seen(what, match)[0], timeoutMs);
  }

  /** Waits until `read` gives a value, re-asked at each record and send. */
  waitUntil<T>(what: string, read: () => T | undefined, timeoutMs = WaitMs): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const value = read();
        if (value !== undefined) {
          done();
          resolve(value);
        } else if (this.hasExited) {
          done();
          reject(new Error(`the shell's process ended before ${what}\n${this.describe()}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`timed out waiting for ${what}\n${this.describe()}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.watchers.delete(check);
      };
      this.watchers.add(check);
      check();
    });
  }

  /** Calls `listener` with each webContents.send from now on; returns the function that stops it. */
  onSend(listener: (send: ShellSend) => void): () => void {
    this.sendListeners.add(listener);
    return () => this.sendListeners.delete(listener);
  }

  /** Electron's 'ready', once the main script has run (Electron never fires it before). */
  async ready(): Promise<void> {
    const loaded = await this.waitUntil("the main script to load", () => this.records.find((r) => r.what === "main.loaded" || r.what === "main.failed"));
    if (loaded.what === "main.failed") throw new Error(`the main script failed to load: ${String(loaded.detail["error"])}`);
    await this.command({ op: "ready" });
  }

  /** An app event as Electron emits it ('second-instance', 'activate', …). */
  appEvent(name: string, args: readonly unknown[] = []): Promise<void> {
    return this.command({ op: "appEvent", name, args }) as Promise<void>;
  }

  /** app.quit(), as the app menu's Quit or the window's last close would; the process may end before it answers. */
  async quit(): Promise<void> {
    await this.command({ op: "quit" }).catch((error: unknown) => {
      if (!this.hasExited) throw error;
    });
  }

  /** Another web contents is created (a devtools page, a webview's guest): its id. */
  async newContents(url = ""): Promise<number> {
    return (await this.command({ op: "newContents", url })) as number;
  }

  /** The person closes the window (its close button); the process may end before it answers. */
  async closeWindow(): Promise<void> {
    await this.command({ op: "closeWindow" }).catch((error: unknown) => {
      if (!this.hasExited) throw error;
    });
  }

  minimizeWindow(): Promise<void> {
    return this.command({ op: "minimize" }) as Promise<void>;
  }

  /** ipcRenderer.invoke(channel, ...args) from `from`: what the shell's handler answers. */
  invoke(channel: string, args: readonly unknown[], from: IpcSender = "app"): Promise<unknown> {
    return this.command({ op: "invoke", channel, args, from });
  }

  /** A request the window's page makes for an app:// URL, through the handler the shell registered. */
  async fetchApp(url: string): Promise<AppResponse> {
    const answer = (await this.command({ op: "protocol", url })) as { status: number; headers: [string, string][]; body: Uint8Array };
    return { status: answer.status, headers: new Headers(answer.headers), body: Buffer.from(answer.body) };
  }

  /** A web contents event of the window ('will-navigate' to `url`, 'will-attach-webview'): whether the shell prevented it. */
  async contentsEvent(name: string, url?: string): Promise<{ prevented: boolean }> {
    return (await this.command({ op: "contentsEvent", name, url })) as { prevented: boolean };
  }

  /** The page asks for a new window (window.open, a target=_blank link). */
  windowOpen(url: string): Promise<unknown> {
    return this.command({ op: "windowOpen", url });
  }

  /** A page asks for a permission: what the session's request handler grants. */
  async permissionRequest(permission: string, requestingUrl: string): Promise<boolean> {
    return (await this.command({ op: "permissionRequest", permission, requestingUrl })) as boolean;
  }

  /** Chromium checks a permission: what the session's check handler answers. */
  async permissionCheck(permission: string, origin: string): Promise<boolean> {
    return (await this.command({ op: "permissionCheck", permission, origin })) as boolean;
  }

  /** A response from the web (the dev server's page): the headers the session's onHeadersReceived handler gives it. */
  async headersReceived(url: string, responseHeaders: Record<string, string[]>): Promise<unknown> {
    return this.command({ op: "headersReceived", url, responseHeaders });
  }

  /** Sends the process a signal, as `kill` or the system's shutdown would. */
  signal(signal: NodeJS.Signals): void {
    if (!this.hasExited) this.child.kill(signal);
  }

  /** SIGTERM (the shell answers it with app.quit), then SIGKILL if it has not ended in time. */
  async stop(timeoutMs = 30_000): Promise<void> {
    if (this.hasExited) return;
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => this.child.kill("SIGKILL"), timeoutMs);
    await this.exited;
    clearTimeout(timer);
  }

  private command(message: Record<string, unknown>): Promise<unknown> {
    if (this.hasExited) return Promise.reject(new Error(`the shell's process has ended\n${this.describe()}`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.send({ ...message, id });
    });
  }

  private receive(message: ChildMessage): void {
    switch (message.type) {
      case "record":
        this.records.push(message.entry);
        break;
      case "send": {
        const send = { contents: message.contents, channel: message.channel, args: message.args };
        this.sends.push(send);
        for (const listener of this.sendListeners) listener(send);
        break;
      }
      case "reply": {
        const p = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.ok) p?.resolve(message.value);
        else p?.reject(new Error(message.error));
        break;
      }
      case "exit":
        break;
    }
    this.notify();
  }

  private notify(): void {
    for (const check of [...this.watchers]) check();
  }

  private describe(): string {
    const tail = this.records.slice(-15).map((r) => `  #${r.seq} ${r.what} ${JSON.stringify(r.detail).slice(0, 200)}`);
    return `last records:\n${tail.join("\n")}\noutput:\n${this.stderrText.slice(-3000)}`;
  }
}
