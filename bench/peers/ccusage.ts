// ccusage over the archive, both builds, as a person runs them: the native binary
// (`ccusage claude session --json --offline`, 20.x) and the JavaScript one
// (`node dist/index.js session --json --offline`, 18.0.11). Each reads every line of every file to
// sum token usage per session. Run with a HOME of the benchmark's and CLAUDE_CONFIG_DIR set to the
// archive's parent, so neither reads the person's ~/.claude.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { InstalledPeer } from "./install.js";

export interface PeerCommand {
  readonly command: string;
  readonly args: readonly string[];
}

interface Launcher {
  resolveNativeBinary(): string | undefined;
  ensureNativeBinaryExecutable(options: { readonly binaryPath: string }): string | undefined;
}

/** The native binary through the package's own launcher (it resolves the platform package next to itself). */
export async function ccusageNative(installed: InstalledPeer): Promise<PeerCommand> {
  const launcher = (await import(pathToFileURL(path.join(installed.packageDir, "src", "cli.js")).href)) as Launcher;
  const bin = launcher.resolveNativeBinary();
  if (bin === undefined) throw new Error(`ccusage ${installed.peer.version} has no native build installed for ${process.platform}-${process.arch}`);
  // --ignore-scripts and registry tarballs may leave it without its executable bit; the launcher sets it so too.
  const failed = launcher.ensureNativeBinaryExecutable({ binaryPath: bin });
  if (failed !== undefined) throw new Error(`ccusage ${installed.peer.version}'s native build cannot be made executable: ${failed}`);
  return { command: bin, args: ["claude", "session", "--json", "--offline"] };
}

/** The JavaScript build: the package's bin entry, run with this Node. */
export function ccusageJs(installed: InstalledPeer): PeerCommand {
  const manifest = JSON.parse(fs.readFileSync(path.join(installed.packageDir, "package.json"), "utf8")) as { bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.["ccusage"];
  if (bin === undefined || !bin.endsWith(".js")) throw new Error(`ccusage ${installed.peer.version} has no JavaScript bin entry (${JSON.stringify(manifest.bin)})`);
  return { command: process.execPath, args: [path.join(installed.packageDir, bin), "session", "--json", "--offline"] };
}

/** The environment each ccusage run gets: the archive as its Claude config folder, nothing of the person's. */
export function ccusageEnv(configDir: string, home: string): NodeJS.ProcessEnv {
  return { PATH: process.env["PATH"] ?? "", HOME: home, CLAUDE_CONFIG_DIR: configDir, LOG_LEVEL: "0", NO_COLOR: "1" };
}

/**
 * How many sessions ccusage reported: its `--json` output's `sessions` array. 20.x counts each
 * transcript; 18.x groups by the folder a file is in (a session's subagents make one more).
 */
export function ccusageSessions(stdout: string): number {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    throw new Error(`ccusage printed no JSON: ${JSON.stringify(stdout.slice(0, 200))}`);
  }
  const sessions = (parsed as { sessions?: unknown }).sessions;
  if (!Array.isArray(sessions)) throw new Error(`ccusage's JSON has no sessions array: ${JSON.stringify(stdout.slice(0, 200))}`);
  return sessions.length;
}
