// npm in a project (issue 31). npm was refused for every preset because an install in a git
// worktree gives it a whole node_modules; checking one's own work needs only a few of its
// commands. A preset gets the npm twins of its pnpm patterns, derived whenever a line is judged
// (so a presets file's presets get them too): `pnpm test` → `npm test`, `pnpm run <scripts>` and
// `pnpm <script>` → `npm run <scripts>`, `pnpm exec` → `npm exec` and `npx`, `pnpm start` →
// `npm start`. pnpm's commands that install or fetch (`add`, `install`, `dlx`, …) have none.
// What keeps npm inside the project, for every preset whatever its allowlist (npmRefusal):
// * `npx` and `npm exec` run only a program the project already has, an executable
//   `node_modules/.bin/<name>` in the working folder whose real file is inside the project;
//   anything else (`pkg@1`, `@scope/pkg`, `--package`, `--yes`) npm would fetch and install;
// * options that point npm at another folder, settings, cache or shell (`--prefix`, `-g`,
//   `--workspace`, `--userconfig`, `--script-shell`, `--node-options`, …), and any prefix of
//   them, since npm takes an unambiguous prefix of a long option;
// * a script, test or exec takes only a few harmless options of npm's own before `--` (npm reads
//   any other as a setting); the script's own go after `--`. Words the shell computes there, or
//   that xargs appends, could be options, so they are refused too;
// * after a `cd`, a script runs only if every folder the line changes to is inside the project,
//   and `npx`/`npm exec` not at all (Baton checks the working folder's node_modules/.bin).
// Installs (`npm install`, `ci`, `update`, …) are in the presets' refused list (builtinPresets.ts).
// Pure: the file system is reached only through the WritePathFs given.

import path from "node:path";
import type { CommandPattern } from "../../../shared/policy.js";
import type { SimpleCommand } from "../shell/shellCommands.js";
import type { ShellWord } from "../shell/shellWords.js";
import { checkWritePath, type WritePathFs } from "../writeRoot.js";

const posix = path.posix;

/** npm's commands that install, remove or rebuild packages, then their aliases (lib/utils/cmd-list.js). */
export const NpmInstallCommands: readonly string[] = [
  // `npm init <x>` runs `npm exec create-<x>`.
  ...["install", "ci", "install-test", "install-ci-test", "update", "uninstall", "link", "rebuild", "dedupe", "prune", "init"],
  ...["i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "isntall", "add"],
  ...["clean-install", "ic", "install-clean", "isntall-clean", "it", "cit", "clean-install-test", "sit"],
  ...["up", "upgrade", "udpate", "unlink", "remove", "rm", "r", "un", "ln", "rb", "ddp", "create", "innit"],
];

export const NpmInstallReason =
  "npm is refused for every preset when it installs or changes packages: in a git worktree it would create a whole node_modules (a flood of files); use pnpm or bun, which link packages from their store";

export const NpxReason =
  "npx and npm exec run only a program the project already has (an executable in its node_modules/.bin): any other would be fetched and installed through npm, a whole node_modules in a git worktree; use pnpm or bun to add it";

/** The rules above, for the Rules view and `baton policy --list`. */
export const NpmRules: readonly { readonly what: string; readonly reason: string }[] = [
  { what: "npx or npm exec of a package the project does not have", reason: NpxReason },
  {
    what: "npm --prefix, -g, --workspace, --userconfig, --script-shell, …, or npm after a cd out of the project",
    reason: "npm runs only in the project's own folder, with its own settings: these point it at another folder, the global one, other settings or another shell",
  },
];

const TestForms = ["test", "t", "tst"];
const RunForms = ["run", "run-script", "rum", "urn"];
const ExecForms = ["exec", "x"];
const Lifecycle = ["start", "stop", "restart"];

/** pnpm's own commands: those without a twin install, fetch, publish or configure. Any other word is a script pnpm runs. */
const PnpmOwn: ReadonlySet<string> = new Set([
  ...["add", "install", "i", "install-test", "it", "update", "up", "upgrade", "remove", "rm", "uninstall", "un", "link", "ln", "unlink", "import", "fetch"],
  ...["rebuild", "rb", "prune", "dedupe", "patch", "patch-commit", "patch-remove", "approve-builds", "ignored-builds", "dlx", "create", "init", "deploy"],
  ...["audit", "licenses", "list", "ls", "ll", "la", "outdated", "why", "root", "bin", "store", "config", "c", "get", "set", "env", "setup", "self-update"],
  ...["server", "doctor", "publish", "pack", "recursive", "multi", "m", "cat-file", "cat-index", "find-hash", "help", "completion", "version", "login", "logout"],
  ...["whoami", "search", "view", "info", "docs", "repo", "ping", "token", "owner", "dist-tag", "sbom", "clean", "catalog", "cache", "ci"],
  ...[...TestForms, "run", "run-script", "exec", ...Lifecycle],
]);

/** The npm patterns `exec`'s pnpm patterns give, npm's aliases included: what the allowlist matches. */
export function npmTwins(exec: readonly CommandPattern[]): readonly CommandPattern[] {
  let twins = twinCache.get(exec);
  if (twins === undefined) {
    twins = derive(exec, true);
    twinCache.set(exec, twins);
  }
  return twins;
}

const twinCache = new WeakMap<readonly CommandPattern[], readonly CommandPattern[]>();

/** The same in npm's own words (`npm test`, `npm run lint|format`, `npx`), for people and prompts. */
export function npmTwinsShown(exec: readonly CommandPattern[]): readonly CommandPattern[] {
  return derive(exec, false);
}

/** Whether a shown twin runs a program (`npx`, `npm exec`): then only one the project already has. */
export function runsProgram(pattern: CommandPattern): boolean {
  return pattern === "npx" || pattern.startsWith("npx ") || pattern.startsWith("npm exec");
}

function derive(exec: readonly CommandPattern[], aliases: boolean): readonly CommandPattern[] {
  const forms = (all: readonly string[]): string => (aliases ? all.join("|") : all[0]!);
  const out: string[] = [];
  for (const pattern of exec) {
    const [head, sub, ...rest] = pattern.trim().split(/\s+/);
    if (head === undefined || !head.split("|").includes("pnpm")) continue;
    const tail = rest.length > 0 ? ` ${rest.join(" ")}` : "";
    const [scripts, lifecycle]: [string[], string[]] = [[], []];
    for (const alt of sub === undefined ? ["test", "run", "exec", ...Lifecycle] : sub.split("|")) {
      if (TestForms.includes(alt)) out.push(`npm ${forms(TestForms)}${tail}`);
      else if (alt === "run" || alt === "run-script") out.push(`npm ${forms(RunForms)}${tail}`);
      else if (alt === "exec") out.push(`npm ${forms(ExecForms)}${tail}`, `npx${tail}`);
      else if (Lifecycle.includes(alt)) lifecycle.push(alt);
      else if (!PnpmOwn.has(alt)) scripts.push(alt);
    }
    if (lifecycle.length > 0) out.push(`npm ${lifecycle.join("|")}${tail}`);
    if (scripts.length > 0) out.push(`npm ${forms(RunForms)} ${scripts.join("|")}${tail}`);
  }
  const unique = [...new Set(out)];
  return unique.filter((p) => !unique.some((q) => q !== p && covers(q, p)));
}

/** Whether pattern `q` allows everything `p` does: a word prefix of it, each word's alternatives a superset. */
function covers(q: CommandPattern, p: CommandPattern): boolean {
  const [qs, ps] = [q.split(" "), p.split(" ")];
  return qs.length <= ps.length && qs.every((word, i) => ps[i]!.split("|").every((alt) => word.split("|").includes(alt)));
}

// ---- what npm may not do, whatever the allowlist ----

/** The working folder, as npm's rules need it. */
export interface NpmProject {
  /** Whether `name` is a program of the project's own: an executable node_modules/.bin/<name> whose real file is inside it. */
  hasProgram(name: string): boolean;
  /** Whether the folder `dir` (relative to the working folder, or absolute) is inside the project. */
  holds(dir: string): boolean;
}

/** The project in `cwd`, whose write roots are `roots` (the cwd first), seen through `fsView`. */
export function npmProject(cwd: string, roots: readonly string[], fsView: WritePathFs): NpmProject {
  return {
    hasProgram(name) {
      if (!PlainName.test(name) || fsView.isExecutable === undefined) return false;
      try {
        const real = fsView.realPath(posix.join(cwd, "node_modules", ".bin", name));
        const root = fsView.realPath(cwd);
        return real !== undefined && root !== undefined && real.startsWith(`${root}/`) && fsView.isExecutable(real);
      } catch {
        return false;
      }
    },
    holds: (dir) => checkWritePath(dir, roots, fsView).verdict === "inside",
  };
}

/** A program's name as npm puts it in node_modules/.bin: no path, scope or version. */
const PlainName = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

export interface NpmRefusal {
  readonly command: SimpleCommand;
  readonly reason: string;
}

type Kind = "script" | "exec";

/** The first npm or npx command of a line that npm's rules refuse, with why; undefined when none. */
export function npmRefusal(commands: readonly SimpleCommand[], project: NpmProject): NpmRefusal | undefined {
  let runs: { readonly command: SimpleCommand; readonly kind: Kind } | undefined;
  for (const command of commands) {
    const read = readNpm(command.words, project);
    if (read === undefined) continue;
    if ("refused" in read) return { command, reason: read.refused };
    if (command.wrappers.includes("xargs")) return { command, reason: "xargs gives npm words only known when it runs, and npm could read them as options" };
    runs ??= { command, kind: read.runs };
  }
  if (runs === undefined) return undefined;
  const moved = directoryChange(commands, runs.kind, project);
  return moved === undefined ? undefined : { command: runs.command, reason: moved };
}

type NpmReading = { readonly refused: string } | { readonly runs: Kind };

const refused = (reason: string): NpmReading => ({ refused: reason });

/** Why npm's rules refuse `words`, or the kind of run they let through; undefined when npm's rules have nothing to say. */
function readNpm(words: readonly ShellWord[], project: NpmProject): NpmReading | undefined {
  const name = programOf(words[0]);
  if (name === "npx") return readExec(words.slice(1), project, true);
  return name === "npm" ? readNpmArgs(words.slice(1), project) : undefined;
}

function readNpmArgs(args: readonly ShellWord[], project: NpmProject): NpmReading | undefined {
  const end = endOfOptions(args);
  for (const word of args.slice(0, end)) {
    const moved = movingOption(word);
    if (moved !== undefined) return refused(moved);
  }
  let at = 0;
  while (at < end && !args[at]!.dynamic && args[at]!.value.startsWith("-")) {
    const word = args[at]!;
    if (!Harmless.has(word.value)) return refused(`\`${word.value}\` before npm's command: Baton reads npm's command only when it comes first (\`npm test --silent\`)`);
    at += 1;
  }
  const sub = args[at];
  if (sub === undefined) return undefined;
  if (sub.dynamic) return refused(`npm's command \`${sub.value}\` is only known when the shell runs`);
  if (ExecForms.includes(sub.value)) return readExec(args.slice(at + 1), project, false);
  // Installs are the refused list's; any other command is the allowlist's.
  if (![...TestForms, ...RunForms, ...Lifecycle].includes(sub.value)) return undefined;
  const problem = optionProblem(args.slice(at + 1, end), false);
  return problem !== undefined ? refused(problem) : { runs: "script" };
}

/**
 * `npm exec …` (npm reads options up to `--`, the program is the first other word) or `npx …`
 * (npx-cli.js: a first word that is not an option is the program, and all after it is the
 * program's; options before it npx guesses about, so only `--no-install` is taken there).
 */
function readExec(args: readonly ShellWord[], project: NpmProject, npx: boolean): NpmReading {
  const end = endOfOptions(args);
  let at = 0;
  if (npx) {
    while (at < end && !args[at]!.dynamic && args[at]!.value === "--no-install") at += 1;
    const word = args[at];
    if (at < end && word !== undefined && isOptionLike(word)) {
      return refused(optionProblem([word], true) ?? `npx reads \`${word.value}\` by guesswork; write the program first (\`npx jest ${word.value}\`)`);
    }
  } else {
    while (at < end && isOptionLike(args[at]!)) at += 1;
  }
  // `npm exec -- jest`: the program is the first word after `--`.
  const programAt = at < end ? at : end + 1;
  const program = args[programAt];
  const options = npx ? [] : programAt > end ? args.slice(0, end) : [...args.slice(0, programAt), ...args.slice(programAt + 1, end)];
  const problem = optionProblem(options, true);
  if (problem !== undefined) return refused(problem);
  if (program === undefined) return refused(`${npx ? "npx" : "npm exec"} names no program`);
  if (program.dynamic) return refused(`the program \`${program.value}\` is only known when the shell runs; ${NpxReason}`);
  if (!project.hasProgram(program.value)) return refused(`\`${program.value}\` is not a program of the project's own; ${NpxReason}`);
  return { runs: "exec" };
}

/** Why options npm would read as its own may not be given (an unknown one, or a word the shell computes); `exec`: npx or npm exec's. */
function optionProblem(words: readonly ShellWord[], exec: boolean): string | undefined {
  for (const word of words) {
    if (word.dynamic) return computed(word);
    if (!word.value.startsWith("-") || Harmless.has(word.value)) continue;
    if (exec && fetches(word.value)) return `\`${word.value}\` fetches a package; ${NpxReason}`;
    const moved = movingOption(word);
    if (moved !== undefined) return moved;
    return `npm reads \`${word.value}\` as a setting of its own; give the script's or program's options after \`--\` (\`npm test -- ${word.value}\`)`;
  }
  return undefined;
}

/** `--package`, `--yes` (or a prefix of either: `--pack`, `--y`), `-p`, `-y`: npx and npm exec fetch what is missing. */
function fetches(option: string): boolean {
  if (!option.startsWith("--")) return /^-[A-Za-z]*[py]/.test(option);
  const name = optionName(option);
  return name !== "" && ["package", "yes"].some((n) => n.startsWith(name));
}

function computed(word: ShellWord): string {
  return `\`${word.value}\` is only known when the shell runs, and npm could read it as an option; put it after \`--\``;
}

/** npm's options that change only what it prints, or whether it runs a script's pre/post hooks. */
// Each is a shorthand or a plain boolean to npm's option parser, so none takes the next word as its value.
const Harmless: ReadonlySet<string> = new Set([
  ...["-s", "--silent", "-q", "--quiet", "-d", "-dd", "-ddd", "--verbose", "--no-color", "--no-progress", "--no-update-notifier"],
  ...["--no-fund", "--no-audit", "--offline", "--prefer-offline", "--if-present", "--ignore-scripts", "--foreground-scripts"],
  ...["-v", "--version", "-h", "--help", "-l", "--json"],
  ...["silent", "error", "warn", "notice", "http", "info", "verbose", "silly"].map((level) => `--loglevel=${level}`),
]);

const Folder = "points npm at another folder than the project, or at the global one";
const Workspace = "runs npm in workspaces the project's package.json may place anywhere; cd into the workspace's folder instead";
const Settings = "makes npm read its settings, or write its cache, somewhere other than the project";
const Code = "names a program or code npm runs";

/** npm's options that move it out of the project, by long name (npm's config definitions). */
const Moving: ReadonlyMap<string, string> = new Map([
  ...["prefix", "global", "location"].map((n) => [n, Folder] as const),
  ...["workspace", "workspaces", "include-workspace-root"].map((n) => [n, Workspace] as const),
  ...["userconfig", "globalconfig", "cache"].map((n) => [n, Settings] as const),
  ...["script-shell", "shell", "node-options", "call", "editor", "browser", "viewer", "git", "node-gyp", "init-module"].map((n) => [n, Code] as const),
]);

/** npm's one-letter options for the above (`-g`, `-C` prefix, `-w`, `-c` call), alone or run together. */
const MovingLetters: ReadonlyMap<string, string> = new Map([
  ["g", "global"],
  ["C", "prefix"],
  ["w", "workspace"],
  ["c", "call"],
]);

function movingOption(word: ShellWord): string | undefined {
  if (word.dynamic || Harmless.has(word.value)) return undefined;
  if (word.value.startsWith("--")) {
    const name = optionName(word.value);
    if (name === "") return undefined;
    // nopt takes any unambiguous prefix of a long name: `--pre` may be `--prefix`.
    const long = [...Moving.keys()].find((n) => n.startsWith(name) || n.startsWith(name.replace(/^no-/, "")));
    return long === undefined ? undefined : `\`${word.value}\` ${Moving.get(long)}`;
  }
  if (!word.value.startsWith("-")) return undefined;
  const letter = [...word.value.slice(1)].find((c) => MovingLetters.has(c));
  return letter === undefined ? undefined : `\`${word.value}\` ${Moving.get(MovingLetters.get(letter)!)}`;
}

/** `--prefix=/x` → `prefix`; `-p` → `p`. */
function optionName(option: string): string {
  return option.replace(/^--?/, "").replace(/=.*$/s, "");
}

function isOptionLike(word: ShellWord): boolean {
  return word.dynamic || word.value.startsWith("-");
}

/** Where npm stops reading options: a literal `--`, or the end. */
function endOfOptions(args: readonly ShellWord[]): number {
  const at = args.findIndex((w) => !w.dynamic && w.value === "--");
  return at === -1 ? args.length : at;
}

/** `npm` for `npm` and `/usr/bin/npm` alike (a path's last segment, as the refused list reads it). */
function programOf(word: ShellWord | undefined): string | undefined {
  if (word === undefined || word.dynamic) return undefined;
  return word.value.slice(word.value.lastIndexOf("/") + 1);
}

const DirectoryChanges: ReadonlySet<string> = new Set(["cd", "pushd", "popd"]);

/** Why a folder change in the line would make npm run another folder's package.json or programs. */
function directoryChange(commands: readonly SimpleCommand[], kind: Kind, project: NpmProject): string | undefined {
  let folder = "";
  for (const command of commands) {
    const [head, ...args] = command.words;
    if (head === undefined || head.dynamic || !DirectoryChanges.has(head.value)) continue;
    const where = `\`${command.text.trim()}\``;
    if (kind === "exec") return `npx and npm exec run only from the working folder (Baton checks its node_modules/.bin), not after ${where}`;
    const targets = args.filter((w) => w.dynamic || !/^-[LPe@]+$/.test(w.value));
    const target = targets[0];
    if (targets.length !== 1 || target!.dynamic || target!.value === "-" || /^[+-]\d/.test(target!.value)) {
      return `after ${where} Baton cannot tell which folder's package.json npm would run; run npm from the working folder or cd to a folder named plainly`;
    }
    folder = posix.isAbsolute(target!.value) ? target!.value : posix.join(folder, target!.value);
    if (!project.holds(folder === "" ? "." : folder)) return `after ${where} npm would run the package.json of a folder outside the project`;
  }
  return undefined;
}
