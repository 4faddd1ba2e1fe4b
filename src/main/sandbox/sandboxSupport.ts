// Whether the operating-system sandbox can run here, and if not, what to install (issue 31).
// Linux needs bubblewrap (the sandbox), socat (its network bridge) and ripgrep (the runtime looks
// for protected files with it), and user namespaces that bubblewrap may use; macOS has Seatbelt.
// The decision is pure (`sandboxSupport`); `probeSandboxSupport` looks at this machine.

import { spawn } from "node:child_process";
import { findOnPath } from "../platform/findOnPath.js";

export interface SandboxSupport {
  readonly ok: boolean;
  /** What is missing, as package names a person installs. */
  readonly missing: readonly string[];
  /** One line: what runs Baton's sandbox, or why none can and what to do. */
  readonly message: string;
}

interface Requirement {
  readonly program: string;
  /** The package that brings it, as Debian, Ubuntu and Fedora name it. */
  readonly pkg: string;
}

const LinuxRequirements: readonly Requirement[] = [
  { program: "bwrap", pkg: "bubblewrap" },
  { program: "socat", pkg: "socat" },
  { program: "rg", pkg: "ripgrep" },
];

export interface SupportFacts {
  readonly platform: NodeJS.Platform;
  /** Which of the programs are on PATH. */
  readonly found: ReadonlySet<string>;
  /** Linux: what a trial bubblewrap run said when it failed (no user namespaces, say). */
  readonly bwrapFailure?: string;
}

export function sandboxSupport(facts: SupportFacts): SandboxSupport {
  if (facts.platform === "darwin") {
    return facts.found.has("sandbox-exec")
      ? { ok: true, missing: [], message: "OS sandbox: Seatbelt (sandbox-exec)" }
      : { ok: false, missing: [], message: "No OS sandbox: sandbox-exec is not on PATH (it ships with macOS in /usr/bin)" };
  }
  if (facts.platform !== "linux") {
    return { ok: false, missing: [], message: `No OS sandbox: Baton's sandbox runs on Linux and macOS, not on ${facts.platform}` };
  }
  const missing = LinuxRequirements.filter((r) => !facts.found.has(r.program)).map((r) => r.pkg);
  if (missing.length > 0) {
    return { ok: false, missing, message: `No OS sandbox: install ${joinAnd(missing)} (Debian and Ubuntu: sudo apt-get install ${missing.join(" ")})` };
  }
  if (facts.bwrapFailure !== undefined) {
    return { ok: false, missing: [], message: `No OS sandbox: bubblewrap cannot start here (${facts.bwrapFailure}); allow unprivileged user namespaces (kernel.unprivileged_userns_clone=1, or an AppArmor profile for bwrap)` };
  }
  return { ok: true, missing: [], message: "OS sandbox: bubblewrap" };
}

/** Looks at this machine: the programs on `env`'s PATH, and on Linux one trial run of bubblewrap. */
export async function probeSandboxSupport(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Promise<SandboxSupport> {
  const programs = platform === "darwin" ? ["sandbox-exec"] : platform === "linux" ? LinuxRequirements.map((r) => r.program) : [];
  const found = new Set<string>();
  for (const program of programs) {
    if ((await findOnPath(program, platform, env)) !== undefined) found.add(program);
  }
  const bwrap = platform === "linux" && found.has("bwrap") ? await tryBwrap(env) : undefined;
  return sandboxSupport({ platform, found, ...(bwrap !== undefined ? { bwrapFailure: bwrap } : {}) });
}

/** Runs `true` in a bubblewrap sandbox like the runtime's; undefined when it worked, else what it said. */
function tryBwrap(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn("bwrap", ["--ro-bind", "/", "/", "--dev", "/dev", "--unshare-pid", "--unshare-net", "--unshare-user", "--", "true"], {
      env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-500)));
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve(error.message);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve(code === 0 ? undefined : stderr.trim().split("\n").at(-1) || (signal ?? `exit ${code}`));
    });
  });
}

function joinAnd(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
