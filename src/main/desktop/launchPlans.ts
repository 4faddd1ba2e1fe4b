// What to run to show a folder in the file manager or open a terminal in it, per platform: an
// ordered list of candidates, first found on PATH wins (openInDesktop.ts). Pure: no I/O.
//
// No shell anywhere. The folder is a worktree path, and a worktree can be named by an agent or by
// whoever made the branch: through `sh -c`, `cmd /c start` or an `osascript` string, a name holding
// `$(…)`, `&`, `%VAR%` or a quote would run as a command. So every candidate is a program and an
// argument array, the folder goes in as one whole argument or as the child's cwd, and $TERMINAL
// is a program name, never a command line to split. The folder must be absolute, which also means
// it can never start with `-` and be read as an option.
import path from "node:path";
import type { Env } from "../platform/findOnPath.js";

export type DesktopTarget = "folder" | "terminal";

export interface Launch {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
}

/**
 * Terminals tried on Linux and other Unixes after $TERMINAL, with the flag naming the folder where
 * the program may hand the window to an already running instance (whose cwd is not ours). The
 * others start a shell in their own cwd.
 */
const UnixTerminals: readonly (readonly [string, (dir: string) => readonly string[]])[] = [
  ["x-terminal-emulator", () => []],
  ["gnome-terminal", (dir) => [`--working-directory=${dir}`]],
  ["konsole", (dir) => ["--workdir", dir]],
  ["xfce4-terminal", (dir) => [`--working-directory=${dir}`]],
  ["kitty", () => []],
  ["alacritty", () => []],
  ["wezterm", () => []],
  ["xterm", () => []],
];

const WindowsAbsolute = /^(?:[A-Za-z]:[\\/]|[\\/]{2}[^\\/]+[\\/][^\\/]+)/;

/** Throws unless `dir` is an absolute folder path for `platform` with no NUL or line break. */
export function checkFolder(dir: string, platform: NodeJS.Platform): void {
  if (/[\0\r\n]/.test(dir)) throw new Error(`Refusing to open ${JSON.stringify(dir)}: the path holds a NUL or line break`);
  // `\dir` (current drive) and `C:dir` (drive's cwd) pass path.win32.isAbsolute but depend on state.
  const absolute = platform === "win32" ? WindowsAbsolute.test(dir) : path.posix.isAbsolute(dir);
  if (!absolute) throw new Error(`Refusing to open ${JSON.stringify(dir)}: not an absolute path`);
}

function folderPlans(dir: string, platform: NodeJS.Platform): Launch[] {
  if (platform === "win32") return [{ command: "explorer.exe", args: [dir], cwd: dir }];
  if (platform === "darwin") return [{ command: "open", args: [dir], cwd: dir }];
  return [{ command: "xdg-open", args: [dir], cwd: dir }];
}

function unixTerminalPlans(dir: string, env: Env): Launch[] {
  const plans: Launch[] = [];
  const chosen = env["TERMINAL"];
  if (chosen !== undefined && chosen !== "" && !chosen.includes("\0")) {
    // A known terminal named in $TERMINAL still gets its folder flag.
    const known = UnixTerminals.find(([name]) => name === path.posix.basename(chosen));
    plans.push({ command: chosen, args: known?.[1](dir) ?? [], cwd: dir });
  }
  for (const [command, args] of UnixTerminals) {
    if (command !== chosen) plans.push({ command, args: args(dir), cwd: dir });
  }
  return plans;
}

function terminalPlans(dir: string, platform: NodeJS.Platform, env: Env): Launch[] {
  if (platform === "darwin") return [{ command: "open", args: ["-a", "Terminal", dir], cwd: dir }];
  if (platform === "win32") {
    // Windows Terminal only. wt.exe reads `;` in its command line as "next subcommand", even
    // inside a path. A console program (cmd.exe) started detached by Node gets no console window
    // and no input, so it would exit unseen: no fallback beats a silent one.
    return dir.includes(";") ? [] : [{ command: "wt.exe", args: ["-d", dir], cwd: dir }];
  }
  return unixTerminalPlans(dir, env);
}

/** The candidates for opening `dir`, best first. Throws on a path that is not absolute or holds a NUL or line break. */
export function launchPlans(target: DesktopTarget, dir: string, platform: NodeJS.Platform, env: Env): readonly Launch[] {
  checkFolder(dir, platform);
  return target === "folder" ? folderPlans(dir, platform) : terminalPlans(dir, platform, env);
}
