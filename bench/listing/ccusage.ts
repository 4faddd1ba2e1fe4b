// ccusage's native build over the same history, beside Baton's list: ccusage reads every line of
// every file to sum a session's token usage, Baton's list needs only each file's ends. Found
// through the `ccusage` devDependency, whose optional dependencies hold one native binary per
// platform (`@ccusage/ccusage-linux-x64`, …), as its own launcher finds it. It runs with a HOME
// and a CLAUDE_CONFIG_DIR of the benchmark's own, so it never reads the person's ~/.claude.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

export type Ccusage = { readonly bin: string; readonly version: string } | { readonly missing: string };

export interface CcusageRun {
  /** Wall time of the whole process, as a person's shell starts it. */
  readonly ms: number;
  /** Its peak RSS (GNU time's %M), when this machine has /usr/bin/time. */
  readonly peakKb: number | undefined;
  readonly sessions: number;
}

interface Launcher {
  resolveNativeBinary(): string | undefined;
  ensureNativeBinaryExecutable(options: { readonly binaryPath: string }): string | undefined;
}

const require = createRequire(import.meta.url);
const Args = ["claude", "session", "--json", "--offline"];

/** The native binary, or why there is none here (not installed, no build for this platform, not runnable). */
export async function findCcusage(): Promise<Ccusage> {
  let version: string;
  let launcher: Launcher;
  try {
    const manifest = require.resolve("ccusage/package.json");
    version = (JSON.parse(fs.readFileSync(manifest, "utf8")) as { version: string }).version;
    launcher = (await import(pathToFileURL(path.join(path.dirname(manifest), "src", "cli.js")).href)) as Launcher;
  } catch (error) {
    return { missing: `the ccusage devDependency is not installed (${String(error)})` };
  }
  const bin = launcher.resolveNativeBinary();
  if (bin === undefined) return { missing: `ccusage ${version} has no native build installed for ${process.platform}-${process.arch}` };
  // Registry tarballs may drop the executable bit; ccusage's own launcher sets it the same way.
  const failed = launcher.ensureNativeBinaryExecutable({ binaryPath: bin });
  if (failed !== undefined) return { missing: `ccusage ${version}'s native build cannot be made executable: ${failed}` };
  const probe = spawnSync(bin, ["--version"], { encoding: "utf8" });
  if (probe.status !== 0) return { missing: `ccusage ${version}'s native build does not run here: ${probe.error?.message ?? probe.stderr.trim()}` };
  return { bin, version };
}

/** One run over `configDir/projects` in a fresh process; `home` is an empty folder of the benchmark's. */
export function runCcusage(bin: string, configDir: string, home: string): CcusageRun {
  const env = { PATH: process.env["PATH"] ?? "", HOME: home, CLAUDE_CONFIG_DIR: configDir, LOG_LEVEL: "0", NO_COLOR: "1" };
  const t0 = process.hrtime.bigint();
  const child = spawnSync(bin, Args, { cwd: home, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (child.status !== 0) throw new Error(`ccusage failed (${child.status}): ${child.stderr}`);
  const sessions = (JSON.parse(child.stdout) as { sessions: unknown[] }).sessions.length;
  return { ms, peakKb: peakKb(bin, env, home), sessions };
}

/** The same run again under GNU time, for its peak RSS (kept apart so time's own start is not in the wall time). */
function peakKb(bin: string, env: Record<string, string>, home: string): number | undefined {
  if (!fs.existsSync("/usr/bin/time")) return undefined;
  const out = path.join(home, "ccusage-time.txt");
  const child = spawnSync("/usr/bin/time", ["-f", "%M", "-o", out, bin, ...Args], { cwd: home, env, stdio: "ignore" });
  if (child.status !== 0 || !fs.existsSync(out)) return undefined;
  const kb = Number(fs.readFileSync(out, "utf8").trim().split("\n").at(-1));
  return Number.isFinite(kb) && kb > 0 ? kb : undefined;
}
