// Opens a folder in the file manager or a terminal: the first candidate of launchPlans.ts found on
// PATH is started detached, without a shell, and left running. Resolves once it has started; it
// never waits for the program to exit (a terminal lives as long as the person keeps it open).
import { spawn as nodeSpawn } from "node:child_process";
import { findOnPath, type Env } from "../platform/findOnPath.js";
import { launchPlans, type DesktopTarget, type Launch } from "./launchPlans.js";

export interface OpenInDesktopOptions {
  readonly platform?: NodeJS.Platform;
  /** Where PATH, PATHEXT and TERMINAL are read; also the started program's environment. */
  readonly env?: Env;
  readonly spawn?: typeof nodeSpawn;
}

export interface Opened {
  /** The program's full path as found on PATH. */
  readonly command: string;
  readonly args: readonly string[];
}

/** Nothing could be started; `tried` says what, and why each failed. */
export class DesktopLaunchError extends Error {
  constructor(
    message: string,
    readonly tried: readonly string[],
  ) {
    super(message);
    this.name = "DesktopLaunchError";
  }
}

function start(file: string, launch: Launch, env: Env, spawn: typeof nodeSpawn): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, [...launch.args], { cwd: launch.cwd, env: { ...env }, detached: true, stdio: "ignore", shell: false, windowsHide: false });
    child.once("error", reject);
    child.once("spawn", () => {
      // A later error (e.g. on kill) must not crash the main process for a window it no longer owns.
      child.removeListener("error", reject);
      child.on("error", () => undefined);
      child.unref();
      resolve();
    });
  });
}

function failureMessage(target: DesktopTarget, platform: NodeJS.Platform, tried: readonly string[]): string {
  const what = target === "folder" ? "the file manager" : "a terminal";
  const hint =
    target !== "terminal" || platform === "darwin"
      ? ""
      : platform === "win32"
        ? " Install Windows Terminal (wt.exe), which opens any folder whose path holds no \";\"."
        : " Set TERMINAL to your terminal's program name or path.";
  return `Could not open ${what}: ${tried.length === 0 ? "nothing to try" : `tried ${tried.join(", ")}`}.${hint}`;
}

/** Opens `dir` in the file manager or a terminal; rejects with DesktopLaunchError when nothing could start. */
export async function openInDesktop(target: DesktopTarget, dir: string, options: OpenInDesktopOptions = {}): Promise<Opened> {
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  const spawn = options.spawn ?? nodeSpawn;
  const tried: string[] = [];
  for (const launch of launchPlans(target, dir, platform, env)) {
    const file = await findOnPath(launch.command, platform, env);
    if (file === undefined) {
      tried.push(`${launch.command} (not found on PATH)`);
      continue;
    }
    try {
      await start(file, launch, env, spawn);
      return { command: file, args: launch.args };
    } catch (error) {
      tried.push(`${file} (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  throw new DesktopLaunchError(failureMessage(target, platform, tried), tried);
}
