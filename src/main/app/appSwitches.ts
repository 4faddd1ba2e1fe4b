// The desktop app's own command-line switches (`npm start -- --projects-dir D`, or the packaged
// app's `--projects-dir D`). Electron's argv also holds the executable, the app's path in
// development and Chromium's switches, so unknown arguments are passed over, not refused. Pure.

export interface AppSwitches {
  /** `--projects-dir <dir>` or `--projects-dir=<dir>`: the history folder, over any setting. */
  readonly projectsDir?: string;
  /** `--orchestration`: presets and their sandboxes for this run, whatever the setting says. */
  readonly orchestration?: boolean;
  /** What could not be read (a switch without its value); the app says so and goes on. */
  readonly problems: readonly string[];
}

const ProjectsDir = "--projects-dir";
const Orchestration = "--orchestration";

/** Reads the switches from `argv` (all of it: the executable never looks like a switch). The last one given wins. */
export function parseAppSwitches(argv: readonly string[]): AppSwitches {
  let projectsDir: string | undefined;
  let orchestration: boolean | undefined;
  const problems: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === Orchestration) {
      orchestration = true;
      continue;
    }
    let value: string | undefined;
    if (arg.startsWith(`${ProjectsDir}=`)) value = arg.slice(ProjectsDir.length + 1);
    else if (arg === ProjectsDir) {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith("--")) {
        value = next;
        i++;
      } else value = "";
    } else continue;
    if (value === "") problems.push(`${ProjectsDir} needs a folder (--projects-dir <dir>); it was ignored`);
    else projectsDir = value;
  }
  return { ...(projectsDir !== undefined ? { projectsDir } : {}), ...(orchestration !== undefined ? { orchestration } : {}), problems };
}
