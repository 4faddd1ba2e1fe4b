// A small disk for the disk-full tests: a tmpfs of a few megabytes mounted on a fresh folder in a
// private mount namespace (`unshare -m`, as root: the machine's own mounts are never touched, and
// the mount goes when the namespace's holder process is killed). Commands run inside it with
// `nsenter`. SQLite cannot reach the mount from outside (it resolves /proc/<pid>/root to the
// folder underneath), so Baton runs inside too: its command line, or a store driver.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export interface SmallDisk {
  /** The mounted folder (an empty folder outside the namespace). */
  readonly dir: string;
  /** Argv prefix that runs a command inside the namespace, in this process's working folder. */
  readonly enter: readonly string[];
  /** Runs a shell command inside the namespace; returns its stdout. */
  sh(script: string): string;
  /** Free bytes on the small disk. */
  free(): number;
  /** Fills the disk with a ballast file until `leave` bytes are free. */
  fill(leave: number): void;
  /** Removes the ballast: space is back. */
  unfill(): void;
  close(): void;
}

/** Why a small disk cannot be made here (not root, no unshare, no CAP_SYS_ADMIN), or undefined. */
export function smallDiskUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return "not root";
  try {
    execFileSync("unshare", ["-m", "--propagation", "private", "true"], { stdio: "pipe" });
    return undefined;
  } catch (err) {
    return `unshare -m failed: ${String((err as { stderr?: unknown }).stderr ?? err)}`;
  }
}

/** Mounts a tmpfs of `bytes` on `dir` (which must exist and be empty) in a new mount namespace. */
export async function smallDisk(dir: string, bytes: number): Promise<SmallDisk> {
  const holder: ChildProcess = spawn(
    "unshare",
    ["-m", "--propagation", "private", "sh", "-c", `mount -t tmpfs -o size=${bytes} baton-small-disk "$1" && echo mounted && exec sleep 100000`, "sh", dir],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  holder.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  await new Promise<void>((resolve, reject) => {
    holder.stdout!.on("data", (d: Buffer) => {
      if (d.toString().includes("mounted")) resolve();
    });
    holder.once("exit", (code) => reject(new Error(`could not mount a tmpfs in a private namespace (exit ${code}): ${stderr}`)));
  });
  // The calling process's folder, seen inside (nsenter would start in /): node resolves packages from it.
  const enter = ["nsenter", "-t", String(holder.pid), "-m", `--wdns=${process.cwd()}`, "--"];
  const sh = (script: string): string => execFileSync(enter[0]!, [...enter.slice(1), "sh", "-c", script], { encoding: "utf8" });
  const ballast = path.join(dir, "ballast");
  return {
    dir,
    enter,
    sh,
    free: () => Number(sh(`stat -f -c '%a %S' "${dir}" | awk '{print $1 * $2}'`).trim()),
    fill(leave) {
      const now = Number(sh(`stat -f -c '%a %S' "${dir}" | awk '{print $1 * $2}'`).trim());
      const take = Math.max(0, now - leave);
      sh(`head -c ${take} /dev/zero >> "${ballast}"`);
    },
    unfill: () => void sh(`rm -f "${ballast}"`),
    close() {
      holder.kill("SIGKILL");
      // The namespace and its mount go with the holder; the folder underneath was never written.
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
