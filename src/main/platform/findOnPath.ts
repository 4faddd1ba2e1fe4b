// A program's file found on PATH as a shell would find it (no implicit current folder; on Windows
// with PATHEXT's .exe and .com only: a .bat or .cmd would run through cmd.exe's parser). Used to
// start the person's desktop programs, git, and to see whether the OS sandbox's programs are there.
import { constants } from "node:fs";
import { access } from "node:fs/promises";
import path from "node:path";

/** The environment a program is looked up in (PATH, PATHEXT). */
export type Env = Readonly<Record<string, string | undefined>>;

async function executable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Names to try for `command` in one PATH folder; on Windows, with PATHEXT's extensions. */
function candidateNames(command: string, platform: NodeJS.Platform, env: Env): string[] {
  if (platform !== "win32") return [command];
  // A .bat or .cmd would run through cmd.exe's parser, which is what this module never uses.
  const extensions: readonly string[] = (env["PATHEXT"] ?? ".COM;.EXE")
    .split(";")
    .map((e) => e.toLowerCase())
    .filter((e) => e === ".exe" || e === ".com");
  const own = path.win32.extname(command).toLowerCase();
  if (own !== "") return extensions.includes(own) ? [command] : [];
  return extensions.map((e) => command + e);
}

/** The file `command` names, searched on PATH like a shell would (no implicit current folder). */
export async function findOnPath(command: string, platform: NodeJS.Platform, env: Env): Promise<string | undefined> {
  const p = platform === "win32" ? path.win32 : path.posix;
  if (p.isAbsolute(command)) return (await executable(command)) ? command : undefined;
  // A relative path with a separator would resolve against Baton's own cwd: never meant.
  if (command.includes("/") || (platform === "win32" && command.includes("\\"))) return undefined;
  const pathVar = (platform === "win32" ? (env["PATH"] ?? env["Path"]) : env["PATH"]) ?? "";
  for (const folder of pathVar.split(platform === "win32" ? ";" : ":")) {
    if (folder === "" || !p.isAbsolute(folder)) continue;
    for (const name of candidateNames(command, platform, env)) {
      const file = p.join(folder, name);
      if (await executable(file)) return file;
    }
  }
  return undefined;
}
