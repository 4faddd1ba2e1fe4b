// The app's operating-system sandbox (issue 31): one sandbox host per network policy, started
// when a command first needs it (sandboxHostProcess.ts), and the lease of every wrapped command.
//
// The CLI runs a sandboxed command as a short line, `bash '<script>'`, whose script (written where
// no sandbox may write) starts bubblewrap: the wrapped line itself is kilobytes long and names git
// in the variables the runtime sets, which the CLI refuses to hand to a shell for an agent that
// works in a worktree of its own (2.1.332, docs/protocol-notes.md).
//
// Why leases: to keep a command from creating a protected file that does not exist yet (a
// `.mcp.json`, `.claude/settings.json`), bubblewrap mounts over an empty placeholder it creates on
// the host; the runtime removes the placeholders when told the command ended. Removing one while
// ANY sandboxed command still runs would take that command's protection away (the kernel detaches
// the mount), whichever host wrapped it. So placeholders are cleaned only when no wrapped command
// of any host is running: each lease ends once, and the last one to end tells every host.

import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { SandboxHostProcess } from "./sandboxHostProcess.js";
import { networkKey, protectedPathsNow, sandboxEnvironment, shellQuote, withEnvironment, type DotGitKind, type NetworkPolicy, type SandboxPlan } from "./sandboxPlan.js";
import { probeSandboxSupport, type SandboxSupport } from "./sandboxSupport.js";

export interface SandboxServiceOptions {
  /** The environment sandboxed commands run in (the CLI's): where bwrap, socat and rg are found. */
  readonly env?: NodeJS.ProcessEnv;
  /** The host module (a bundled app's emitted file); default: sandboxHost next to this module. */
  readonly hostEntry?: URL;
  /** How support is found out; default: this machine (sandboxSupport.ts). */
  readonly probe?: () => Promise<SandboxSupport>;
  readonly log?: (level: "info" | "warning" | "error", message: string, fields?: Record<string, unknown>) => void;
}

/** A wrapped command, until it ends. */
export interface SandboxLease {
  /** The command as it runs: inside bubblewrap or Seatbelt, its variables set. */
  readonly command: string;
  /** The command ended (or never ran). Once is enough; more are ignored. */
  release(): void;
}

export class SandboxUnavailableError extends Error {
  constructor(readonly support: SandboxSupport) {
    super(support.message);
    this.name = "SandboxUnavailableError";
  }
}

export class SandboxService {
  private supported: Promise<SandboxSupport> | undefined;
  private readonly hosts = new Map<string, SandboxHostProcess>();
  private running = 0;
  /** Per host, the commands that ended since the last clean-up. */
  private readonly ended = new Map<SandboxHostProcess, number>();
  private closed = false;

  constructor(private readonly options: SandboxServiceOptions = {}) {}

  /** Whether the sandbox can run here; found out once. */
  support(): Promise<SandboxSupport> {
    this.supported ??= (this.options.probe ?? (() => probeSandboxSupport(this.options.env)))();
    return this.supported;
  }

  /**
   * Wraps `command` in the sandbox `plan` describes. `cwd` is the folder the runtime checks its
   * own protections against (the write root). Rejects with SandboxUnavailableError when no
   * sandbox can run here, and with the host's error when wrapping fails.
   */
  async wrap(plan: SandboxPlan, command: string, cwd: string): Promise<SandboxLease> {
    if (this.closed) throw new Error("the sandbox service is closed");
    const support = await this.support();
    if (!support.ok) throw new SandboxUnavailableError(support);
    const host = this.hostFor(plan.network);
    const { temporaryFolder, wrapsFolder } = await host.ready;
    const wrapped = await host.wrap({
      command: withEnvironment(command, sandboxEnvironment(plan, temporaryFolder)),
      cwd,
      allowWrite: [...plan.writeRoots, ...(plan.temporaryFolder ? [temporaryFolder] : [])],
      denyWrite: [...protectedPathsNow(plan, dotGitKind), wrapsFolder],
    });
    this.running++;
    let script: string;
    try {
      script = path.join(wrapsFolder, `${randomUUID()}.sh`);
      fs.writeFileSync(script, `${wrapped}\n`, { mode: 0o600, flag: "wx" });
    } catch (error) {
      this.commandEnded(host);
      throw error;
    }
    let released = false;
    return {
      command: `bash ${shellQuote(script)}`,
      release: () => {
        if (released) return;
        released = true;
        fs.rmSync(script, { force: true });
        this.commandEnded(host);
      },
    };
  }

  /** Stops every host. Commands still running lose their network; Baton stops the CLIs first. */
  async close(): Promise<void> {
    this.closed = true;
    const hosts = [...this.hosts.values()];
    this.hosts.clear();
    await Promise.all(hosts.map((host) => host.stop()));
  }

  private hostFor(network: NetworkPolicy): SandboxHostProcess {
    const key = networkKey(network);
    const existing = this.hosts.get(key);
    if (existing?.alive === true) return existing;
    const host = new SandboxHostProcess({
      network,
      ...(this.options.hostEntry !== undefined ? { entry: this.options.hostEntry } : {}),
      ...(this.options.env !== undefined ? { env: this.options.env } : {}),
      onExit: (reason) => {
        if (this.hosts.get(key) === host) this.hosts.delete(key);
        this.ended.delete(host);
        if (!this.closed) this.options.log?.("warning", "a sandbox host stopped; the next sandboxed command starts a new one", { network: key, reason });
      },
    });
    this.hosts.set(key, host);
    return host;
  }

  private commandEnded(host: SandboxHostProcess): void {
    this.running--;
    if (host.alive) this.ended.set(host, (this.ended.get(host) ?? 0) + 1);
    if (this.running > 0) return;
    for (const [each, count] of this.ended) {
      each.release(count).catch((error: unknown) => {
        if (!this.closed) this.options.log?.("warning", "a sandbox host could not clean up after its commands", { error: String(error) });
      });
    }
    this.ended.clear();
  }
}

function dotGitKind(folder: string): DotGitKind {
  try {
    const stat = fs.lstatSync(path.join(folder, ".git"));
    return stat.isDirectory() ? "directory" : "file";
  } catch {
    return "absent";
  }
}
