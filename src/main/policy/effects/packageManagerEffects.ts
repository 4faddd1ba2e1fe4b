// commandEffects.ts's table for pnpm, bun and uv, and their launchers pnpx, bunx and uvx. Besides
// the installs outside the project (installEffects.ts):
// * the programs they launch: `pnpm exec x`, `pnpm dlx x`, `pnpm x` when x is no pnpm command
//   (pnpm runs a script or a program of that name), the commands pnpm passes on to npm (`pnpm
//   view`), `bun x`, `bunx`, `bun exec` (a shell script), `bun x.ts`, `uv run x`, `uv tool run`,
//   `uvx`. Each is a command of its own, judged by the refused list (so npm reached this way is
//   npm); a computed one is unknowable;
// * the folders they work in or write: `pnpm --dir`/`-C`/`--prefix` and its store, modules and
//   cache folders, `bun --cwd`, `bun build --outdir`/`--outfile`, `uv --directory`, `--project`,
//   `--cache-dir`, `uv venv d`, `uv init d`, `uv export -o`, `uv build -o`, `uv python install`;
// * code Baton cannot read: `bun --eval` and `--print`.

import { CWD, has, installsOutside, literal, optionValues, rebased, type EffectSink, type ProgramSpec } from "./effectSpec.js";
import { bunInstalls, BunSyntax, PNPM_ENVIRONMENT, pnpmInstalls, PnpmSyntax, UV_ENVIRONMENT, UvGlobals, uvInstalls, UvSyntax } from "./installEffects.js";
import { scanOptions, type Syntax } from "./optionScan.js";
import type { ShellWord } from "../shell/shellWords.js";

/** A launcher's own options: which take a value, and which are known to take none. */
interface LauncherOptions {
  readonly valuedShort: string;
  readonly valuedLong: ReadonlySet<string>;
  readonly flagsShort: string;
  readonly flagsLong: ReadonlySet<string>;
}

const options = (valuedShort: string, valuedLong: readonly string[], flagsShort: string, flagsLong: readonly string[]): LauncherOptions => ({
  valuedShort,
  valuedLong: new Set(valuedLong),
  flagsShort,
  flagsLong: new Set(flagsLong),
});

/**
 * Where the program a launcher runs starts in `args`, past the launcher's own options. An option
 * Baton does not know may take the next word as its value, so both places are given then.
 */
function launchedAt(args: readonly ShellWord[], known: LauncherOptions): number[] {
  const maybe: number[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const v = word.value;
    if (word.dynamic || v === "-" || !v.startsWith("-")) return [i, ...maybe];
    if (v === "--") return [i + 1, ...maybe];
    if (v.startsWith("--")) {
      const long = v.slice(2).split("=")[0]!;
      if (v.includes("=") || known.flagsLong.has(long)) continue;
      if (known.valuedLong.has(long)) i++;
      else maybe.push(i + 2);
      continue;
    }
    const valuedAt = [...v.slice(1)].findIndex((c) => known.valuedShort.includes(c));
    if (valuedAt >= 0) {
      if (valuedAt === v.length - 2) i++;
      continue;
    }
    if (![...v.slice(1)].every((c) => known.flagsShort.includes(c))) maybe.push(i + 2);
  }
  return [args.length, ...maybe];
}

/** Launches what `args` runs past `known` options (each place it may start). */
function launchAfter(args: readonly ShellWord[], known: LauncherOptions, via: string, sink: EffectSink, script = false): void {
  for (const at of launchedAt(args, known)) if (at < args.length) sink.launch(args.slice(at), via, { script });
}

// ---- pnpm ----

// pnpm's own commands (pnpm --help, and the aliases of its command table).
const PnpmCommands = new Set([
  ...["add", "approve-builds", "audit", "bin", "cache", "cat-file", "cat-index", "c", "config", "create", "dedupe", "deploy", "dlx", "doctor", "env", "exec", "fetch", "find-hash", "help"],
  ...["i", "install", "import", "ignored-builds", "init", "install-test", "it", "licenses", "link", "ln", "list", "ls", "ll", "la", "outdated", "pack", "patch", "patch-commit", "patch-remove"],
  ...["prune", "publish", "rb", "rebuild", "recursive", "multi", "m", "remove", "rm", "uninstall", "un", "uni", "restart", "root", "run", "run-script", "server", "setup", "self-update"],
  ...["start", "stop", "store", "t", "test", "tst", "unlink", "update", "up", "upgrade", "why", "completion", "completion-server", "sbom", "runtime", "with"],
]);
// Commands pnpm hands to npm itself (pnpm's passThruToNpm).
const NpmPassThrough = new Set([
  ...["access", "adduser", "bugs", "deprecate", "dist-tag", "docs", "edit", "find", "home", "info", "issues", "login", "logout", "owner", "ping", "prefix", "profile", "pkg"],
  ...["repo", "s", "se", "search", "set-script", "show", "star", "stars", "team", "token", "unpublish", "unstar", "v", "version", "view", "whoami", "xmas"],
]);
// Options naming a folder pnpm writes.
const PnpmFolders = ["--store-dir", "--virtual-store-dir", "--modules-dir", "--global-dir", "--global-bin-dir", "--lockfile-dir", "--cache-dir", "--state-dir"];
const PnpmWorkIn = ["-C", "--dir", "--prefix"];
// Commands whose later words are the command's own, not pnpm's options.
const PnpmPassesOn = new Set(["exec", "dlx", "run", "run-script", "test", "t", "tst", "start", "stop", "restart", "create", "with"]);
const DlxOptions = options("p", ["package", "allow-build"], "cs", ["shell-mode", "silent"]);

function pnpm(args: readonly ShellWord[], sink: EffectSink): void {
  const globals = scanOptions(args, { ...PnpmSyntax, stopAtOperand: true });
  const [sub, ...rest] = globals.rest;
  const passesOn = sub !== undefined && !sub.dynamic && PnpmPassesOn.has(sub.value);
  const own = passesOn ? globals : scanOptions(args, PnpmSyntax);
  // `pnpm --dir d …` works in d: what it installs and runs writes there.
  const dirs = optionValues(own, ...PnpmWorkIn);
  for (const dir of dirs) sink.write("option", dir);
  const inDir = rebased(sink, dirs.at(-1));
  for (const folder of optionValues(own, ...PnpmFolders)) inDir.write("option", folder);
  pnpmInstalls(args, inDir);
  if (sub === undefined) return;
  const shell = has(globals, "-c", "--shell-mode");
  if (sub.dynamic) inDir.launch(globals.rest, "pnpm");
  else if (sub.value === "exec") inDir.launch(rest, "pnpm exec", { script: shell });
  else if (sub.value === "dlx") dlx(rest, "pnpm dlx", inDir, shell);
  else if (NpmPassThrough.has(sub.value)) inDir.launch([literal("npm"), ...globals.rest], "pnpm");
  else if (!PnpmCommands.has(sub.value)) inDir.launch(globals.rest, "pnpm");
}

/** `pnpm dlx [options] program …` (pnpx): `-c` hands the words to a shell. */
function dlx(args: readonly ShellWord[], via: string, sink: EffectSink, shell = false): void {
  const own = scanOptions(args, { style: "gnu", valued: "p", longValued: ["package", "allow-build"], stopAtOperand: true });
  launchAfter(args, DlxOptions, via, sink, shell || has(own, "-c", "--shell-mode"));
}

// ---- bun ----

const BunGlobalSyntax: Syntax = { ...BunSyntax, valued: "cFepr", stopAtOperand: true };
const BunCommands = new Set([
  ...["run", "test", "x", "repl", "exec", "init", "create", "c", "install", "i", "add", "a", "remove", "rm", "update", "outdated", "link", "unlink", "patch", "patch-commit", "pm"],
  ...["build", "upgrade", "publish", "audit", "info", "why", "feedback", "completions", "help", "discord", "getcompletes"],
]);
const BunxOptions = options("p", ["package"], "b", ["bun", "silent", "verbose", "no-install"]);
const BunBuild: ProgramSpec = {
  syntax: {
    style: "gnu",
    valued: "e",
    longValued: ["outdir", "outfile", "metafile", "root", "target", "format", "external", "entry-naming", "chunk-naming", "asset-naming", "public-path", "define", "loader", "banner", "footer", "env", "packages", "conditions", "jsx-factory", "jsx-fragment", "jsx-import-source", "jsx-runtime", "drop", "tsconfig-override"],
  },
  writes: ["--outdir", "--outfile", "--metafile"],
};

function bun(args: readonly ShellWord[], sink: EffectSink): void {
  const globals = scanOptions(args, BunGlobalSyntax);
  if (has(globals, "-e", "--eval", "-p", "--print")) sink.refuse("--eval and --print (bun -e, -p) run JavaScript Baton cannot read");
  const cwd = optionValues(globals, "--cwd").at(-1);
  if (cwd !== undefined) sink.write("option", cwd);
  const inDir = rebased(sink, cwd);
  bunInstalls(args, inDir);
  const [sub, ...rest] = globals.rest;
  if (sub === undefined) return;
  if (sub.dynamic) inDir.launch(globals.rest, "bun");
  else if (sub.value === "x") launchAfter(rest, BunxOptions, "bun x", inDir);
  else if (sub.value === "exec") inDir.launch(rest, "bun exec", { script: true });
  else if (sub.value === "build") bunBuild(rest, inDir);
  else if (!BunCommands.has(sub.value)) inDir.launch(globals.rest, "bun");
}

function bunBuild(args: readonly ShellWord[], sink: EffectSink): void {
  const scan = scanOptions(args, BunBuild.syntax);
  for (const name of BunBuild.writes!) for (const target of optionValues(scan, name)) sink.write("option", target);
  // `--compile` without `--outfile` writes the executable into the cwd.
  if (has(scan, "--compile") && optionValues(scan, "--outfile", "--outdir").length === 0) sink.write("implicit", CWD);
}

// ---- uv ----

const UvRunValued = [
  ...["with", "with-editable", "with-requirements", "env-file", "extra", "group", "only-group", "no-group", "package", "index", "default-index", "index-url", "extra-index-url", "find-links"],
  ...["upgrade-package", "reinstall-package", "index-strategy", "keyring-provider", "resolution", "prerelease", "fork-strategy", "exclude-newer", "exclude-newer-package", "link-mode"],
  ...["config-setting", "config-settings-package", "no-build-isolation-package", "no-build-package", "no-binary-package", "only-binary-package", "python-platform", "refresh-package"],
  ...["no-install-package", "no-extra", "from", "max-recursion", "build-constraints", "constraints", "overrides"],
];
const UvRunFlags = [
  ...["frozen", "locked", "no-sync", "isolated", "no-project", "active", "no-active", "all-extras", "all-packages", "no-dev", "dev", "only-dev", "no-default-groups", "all-groups", "exact"],
  ...["no-editable", "offline", "no-cache", "refresh", "reinstall", "upgrade", "compile-bytecode", "no-build-isolation", "no-build", "no-binary", "no-sources", "native-tls", "quiet"],
  ...["verbose", "no-progress", "no-config", "managed-python", "no-managed-python", "no-python-downloads", "no-env-file", "preview", "script", "gui-script", "module", "no-install-project"],
  ...["no-install-workspace", "no-install-local", "isolated", "help", "version"],
];
const UvRunOptions = options("pfPCio", [...UvGlobals, ...UvRunValued], "qvnUms", UvRunFlags);
const UvOwnSyntax: Syntax = {
  style: "gnu",
  valued: "pfPCio",
  longValued: [...UvGlobals, ...UvRunValued, "output-file", "out-dir", "install-dir", "target", "prefix", "python-version", "requirements", "requirement", "editable"],
};

function uv(args: readonly ShellWord[], sink: EffectSink): void {
  const globals = scanOptions(args, { ...UvSyntax, stopAtOperand: true });
  const [sub, action] = [word(globals.rest[0]), word(globals.rest[1])];
  const before = args.length - globals.rest.length;
  // `uv run …` and `uv tool run …` launch a program: the words from it on are the program's.
  const runFrom = sub === "run" ? before + 1 : sub === "tool" && action === "run" ? before + 2 : undefined;
  const starts = runFrom === undefined ? [] : launchedAt(args.slice(runFrom), UvRunOptions).map((at) => runFrom + at);
  const own = scanOptions(args.slice(0, starts[0] ?? args.length), UvOwnSyntax);
  const dir = optionValues(own, "--directory").at(-1);
  if (dir !== undefined) sink.write("option", dir);
  const inDir = rebased(sink, dir);
  for (const folder of optionValues(own, "--project", "--cache-dir")) inDir.write("option", folder);
  uvInstalls(args, sink);
  for (const at of starts) if (at < args.length) inDir.launch(args.slice(at), sub === "run" ? "uv run" : "uv tool run");
  const operand = own.operands.slice(sub === "pip" || sub === "python" ? 2 : 1)[0];
  if ((sub === "venv" || sub === "init") && operand !== undefined) inDir.write("operand", operand);
  if (sub === "export" || (sub === "pip" && action === "compile")) for (const out of optionValues(own, "-o", "--output-file")) inDir.write("option", out);
  if (sub === "build") for (const out of optionValues(own, "-o", "--out-dir")) inDir.write("option", out);
  if (sub === "python" && action === "install") {
    const into = optionValues(own, "-i", "--install-dir");
    if (into.length > 0) for (const folder of into) inDir.write("option", folder);
    else installsOutside(sink, "(uv's Python folder)");
  }
  if (sub === "self" && action === "update") installsOutside(sink, "(uv itself)");
}

const word = (w: ShellWord | undefined): string | undefined => (w === undefined || w.dynamic ? undefined : w.value);

export const PACKAGE_MANAGERS: readonly (readonly [string, ProgramSpec])[] = [
  ["pnpm", { syntax: PnpmSyntax, custom: pnpm, environment: PNPM_ENVIRONMENT }],
  ["pnpx", { syntax: PnpmSyntax, custom: (args, sink) => dlx(args, "pnpx", sink), environment: PNPM_ENVIRONMENT }],
  ["bun", { syntax: BunSyntax, custom: bun }],
  ["bunx", { syntax: BunSyntax, custom: (args, sink) => launchAfter(args, BunxOptions, "bunx", sink) }],
  ["uv", { syntax: UvSyntax, custom: uv, environment: UV_ENVIRONMENT }],
  ["uvx", { syntax: UvSyntax, custom: (args, sink) => launchAfter(args, UvRunOptions, "uvx", sink), environment: UV_ENVIRONMENT }],
];
