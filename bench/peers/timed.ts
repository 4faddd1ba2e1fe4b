// One process of a peer, timed as a person's shell would start it, with its peak RSS from GNU time
// (`/usr/bin/time -f %M`, the process's own ru_maxrss: time forks it fresh, so nothing of this big
// benchmark process is inherited). Wall time is the parent's clock around the whole run.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface TimedRun {
  readonly ms: number;
  /** Peak RSS in kB; undefined where this machine has no GNU time. */
  readonly peakKb: number | undefined;
  readonly stdout: string;
}

export interface RunOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly cwd?: string;
}

const GnuTime = "/usr/bin/time";

export function runTimed(command: string, args: readonly string[], options: RunOptions): TimedRun {
  const withTime = fs.existsSync(GnuTime);
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "baton-bench-peers-time-")), "time.txt");
  try {
    const [cmd, argv] = withTime ? [GnuTime, ["-f", "%M", "-o", out, command, ...args]] : [command, [...args]];
    const t0 = performance.now();
    const child = spawnSync(cmd, argv, { cwd: options.cwd, env: options.env, encoding: "utf8", maxBuffer: 512 * 1024 * 1024 });
    const ms = performance.now() - t0;
    if (child.error !== undefined) throw child.error;
    if (child.status !== 0) throw new Error(`${path.basename(command)} ${args.slice(0, 4).join(" ")} … exited ${child.status}: ${child.stderr.trim().split("\n").slice(-5).join(" | ")}`);
    return { ms, peakKb: withTime ? parseTimeOutput(fs.readFileSync(out, "utf8")) : undefined, stdout: child.stdout };
  } finally {
    fs.rmSync(path.dirname(out), { recursive: true, force: true });
  }
}

/** GNU time's `-o` file for `-f %M`: the kB on its last line (a "Command exited with …" line may come first). */
export function parseTimeOutput(text: string): number | undefined {
  const last = text.trim().split("\n").at(-1)?.trim() ?? "";
  if (!/^\d+$/.test(last)) return undefined;
  const kb = Number(last);
  return kb > 0 ? kb : undefined;
}

/** The last line of a measuring child's stdout, which is its JSON report. */
export function lastJson<T>(stdout: string, what: string): T {
  const last = stdout.trim().split("\n").at(-1) ?? "";
  if (!last.startsWith("{")) throw new Error(`${what} printed no report: ${JSON.stringify(stdout.slice(-300))}`);
  return JSON.parse(last) as T;
}
