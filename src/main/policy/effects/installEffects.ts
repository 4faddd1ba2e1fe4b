// commandEffects.ts's table for the package managers the presets allow that install outside the
// project when told to: pnpm and bun (`-g`, `--global`), pip (`--user`), uv (`uv pip install
// --system`, `uv tool`). Such an install is an `install` write, which no write root holds; an
// option naming the folder to install into (`pip install --target d`) is a write to that folder.
// `go install` and `cargo install` are in toolchainEffects.ts. What a project's own configuration
// says (an `.npmrc` with `global=true`, a `pip.conf`) is not on the line and not counted.
//
// A plain `pip install x` (or `uv pip install x`) is not counted: it installs into whichever
// interpreter runs it, a virtualenv inside the project or the system's, and which one depends on
// the environment (an activated virtualenv, PATH), not on the line.

import { applySpec, has, installsOutside, optionValues, rebased, unknownWord, type EffectSink, type ProgramSpec } from "./effectSpec.js";
import { scanOptions, type Syntax } from "./optionScan.js";
import type { ShellWord } from "../shell/shellWords.js";

const word = (w: ShellWord | undefined): string | undefined => (w === undefined || w.dynamic ? undefined : w.value);

/**
 * `pnpm` or `bun`: `global` marks a global install for the subcommands in `installs` (wherever
 * the flag stands, before or after the subcommand); the subcommands in `always` change what is
 * installed for the user whatever their options. Other subcommands (`run`, `test`) pass their
 * words on to a script, so a `-g` there is the script's.
 */
export function nodeInstaller(name: string, syntax: Syntax, installs: ReadonlySet<string>, always: ReadonlySet<string>, where: string): (args: readonly ShellWord[], sink: EffectSink) => void {
  return (args, sink) => {
    const globals = scanOptions(args, { ...syntax, stopAtOperand: true });
    const sub = word(globals.rest[0]);
    if (sub === undefined || !(installs.has(sub) || always.has(sub))) return;
    if (globals.unknown !== undefined) sink.refuse(unknownWord(globals.unknown, name));
    const scan = scanOptions(globals.rest.slice(1), syntax);
    if (scan.unknown !== undefined) sink.refuse(unknownWord(scan.unknown, `${name} ${sub}`));
    if (always.has(sub) || has(globals, "-g", "--global") || has(scan, "-g", "--global")) installsOutside(sink, where);
  };
}

// pnpm reads its options with nopt, which takes any unambiguous prefix of a long name: the names
// of every option that writes are listed, so that a prefix of one counts as it.
export const PnpmSyntax: Syntax = {
  style: "gnu",
  valued: "CF",
  longValued: ["dir", "prefix", "filter", "filter-prod", "reporter", "loglevel", "store-dir", "virtual-store-dir", "modules-dir", "global-dir", "global-bin-dir", "lockfile-dir", "cache-dir", "state-dir", "workspace-concurrency", "test-pattern", "changed-files-ignore-pattern", "node-linker", "package-import-method", "network-concurrency", "child-concurrency", "registry", "allow-build", "cpu", "os", "libc", "resume-from", "package"],
  abbreviates: ["global", "dir", "prefix", "store-dir", "virtual-store-dir", "modules-dir", "global-dir", "global-bin-dir", "lockfile-dir", "cache-dir", "state-dir", "shell-mode"],
};
const PnpmInstalls = new Set(["add", "install", "i", "update", "up", "upgrade", "remove", "rm", "uninstall", "un", "link", "ln", "unlink", "env"]);
// `pnpm setup` edits the shell's startup files; `self-update` replaces pnpm itself.
const PnpmAlways = new Set(["setup", "self-update"]);
// PNPM_HOME: ~/.local/share/pnpm on Linux, ~/Library/pnpm on macOS.
const PnpmGlobal = "(pnpm's global folder)";
export const pnpmInstalls = nodeInstaller("pnpm", PnpmSyntax, PnpmInstalls, PnpmAlways, PnpmGlobal);

export const BunSyntax: Syntax = {
  style: "gnu",
  valued: "cF",
  longValued: ["cwd", "config", "backend", "registry", "cache-dir", "ca", "cafile", "network-concurrency", "concurrent-scripts", "omit", "linker", "filter", "eval", "print", "preload", "env-file", "install", "conditions", "main-fields", "tsconfig-override", "port", "define", "loader", "jsx-factory", "jsx-fragment", "jsx-import-source", "jsx-runtime", "extension-order", "inspect", "inspect-wait", "inspect-brk", "elide-lines", "console-depth", "user-agent"],
};
const BunInstalls = new Set(["add", "a", "install", "i", "remove", "rm", "update", "link", "unlink"]);
// `bun upgrade` replaces bun itself, in ~/.bun/bin.
const BunAlways = new Set(["upgrade"]);
// bunfig's `install.globalDir` defaults to ~/.bun/install/global.
const BunGlobal = "~/.bun/install/global";
export const bunInstalls = nodeInstaller("bun", BunSyntax, BunInstalls, BunAlways, BunGlobal);

// ---- pip ----

// pip reads its options with optparse, which takes any unambiguous prefix of a long name: the
// names that share a prefix with the ones that write are listed so that each stays exact.
const PipSyntax: Syntax = {
  style: "gnu",
  valued: "rcetifC",
  longValued: ["requirement", "constraint", "editable", "target", "index-url", "extra-index-url", "find-links", "config-settings", "platform", "python-version", "implementation", "abi", "root", "prefix", "src", "upgrade-strategy", "no-binary", "only-binary", "progress-bar", "root-user-action", "report", "global-option", "group", "log", "log-file", "local-log", "proxy", "retries", "resume-retries", "timeout", "exists-action", "trusted-host", "cert", "client-cert", "cache-dir", "python", "keyring-provider", "use-feature", "use-deprecated"],
  abbreviates: ["user", "target", "prefix", "pre", "prefer-binary", "progress-bar", "root", "root-user-action", "report", "src", "log", "log-file", "local-log", "cache-dir"],
};

// General options (`--log`, `--cache-dir`) may also come before the subcommand.
const pipGeneral: ProgramSpec = { syntax: PipSyntax, writes: ["--log", "--log-file", "--local-log", "--cache-dir"] };

const pipInstall: ProgramSpec = {
  syntax: PipSyntax,
  writes: ["-t", "--target", "--prefix", "--root", "--src", ...pipGeneral.writes!],
  then: (scan, sink) => {
    for (const report of optionValues(scan, "--report")) if (report.dynamic || report.value !== "-") sink.write("option", report);
    // ~/.local on Linux, ~/Library/Python/X.Y on a macOS framework build, %APPDATA%\Python on Windows.
    if (has(scan, "--user")) installsOutside(sink, "(the user's site-packages)");
  },
};

function pip(args: readonly ShellWord[], sink: EffectSink): void {
  const globals = scanOptions(args, { ...PipSyntax, stopAtOperand: true });
  if (word(globals.rest[0]) !== "install") return;
  applySpec("pip", pipGeneral, args.slice(0, args.length - globals.rest.length), sink);
  applySpec("pip install", pipInstall, globals.rest.slice(1), sink);
}

// ---- uv ----

export const UvGlobals = ["directory", "project", "cache-dir", "config-file", "python", "color", "allow-insecure-host", "python-preference"];
export const UvSyntax: Syntax = { style: "gnu", valued: "p", longValued: UvGlobals };

const uvPipInstall: ProgramSpec = {
  syntax: {
    style: "gnu",
    valued: "rcePifCpb",
    longValued: [
      ...UvGlobals,
      ...["requirements", "requirement", "editable", "constraints", "overrides", "excludes", "build-constraints", "extra", "group", "index", "default-index", "index-url", "extra-index-url", "find-links", "upgrade-package", "reinstall-package", "index-strategy", "keyring-provider", "config-setting", "config-settings-package", "no-build-isolation-package", "exclude-newer", "exclude-newer-package", "link-mode", "resolution", "prerelease", "fork-strategy", "no-binary", "only-binary", "target", "prefix", "python-version", "python-platform", "torch-backend", "no-build-package", "no-binary-package", "only-binary-package", "refresh-package"],
    ],
  },
  // `--cache-dir` is uv's own option, counted with the others (packageManagerEffects.ts).
  writes: ["--target", "--prefix"],
  opaque: { "--config-file": "reads a configuration file Baton cannot see, and it can say where uv installs (`system = true`)" },
  then: (scan, sink) => {
    if (has(scan, "--system")) installsOutside(sink, "(the system Python's site-packages)");
  },
};

// `uv tool install|upgrade|uninstall`: ~/.local/share/uv/tools and ~/.local/bin, unless XDG's variables move them.
const UvToolChanges = new Set(["install", "upgrade", "uninstall"]);

/** `uv pip install` and `uv tool install|upgrade|uninstall`: installs outside the project. */
export function uvInstalls(args: readonly ShellWord[], sink: EffectSink): void {
  const globals = scanOptions(args, { ...UvSyntax, stopAtOperand: true });
  const [sub, action] = [word(globals.rest[0]), word(globals.rest[1])];
  const installs = sub === "pip" && action === "install";
  if (!installs && !(sub === "tool" && action !== undefined && UvToolChanges.has(action))) return;
  if (globals.unknown !== undefined) sink.refuse(unknownWord(globals.unknown, "uv"));
  if (optionValues(globals, "--config-file").length > 0) sink.refuse(`uv --config-file ${uvPipInstall.opaque!["--config-file"]}`);
  if (!installs) {
    installsOutside(sink, "(uv's tool folder)");
    return;
  }
  // `--directory d` runs uv in d: relative folders land there.
  const rest = globals.rest.slice(2);
  const base = [...optionValues(globals, "--directory"), ...optionValues(scanOptions(rest, uvPipInstall.syntax), "--directory")].at(-1);
  applySpec("uv pip install", uvPipInstall, rest, rebased(sink, base));
}

export const UV_ENVIRONMENT = /^(?:UV_SYSTEM_PYTHON|UV_TOOL_DIR|UV_TOOL_BIN_DIR|UV_CONFIG_FILE)$/;
export const PNPM_ENVIRONMENT = /^(?:npm|pnpm)_config_global\w*$/i;

// pnpm, bun and uv are in packageManagerEffects.ts, which uses the install rules above.
export const INSTALLERS: readonly (readonly [string, ProgramSpec])[] = [
  ...["pip", "pip3"].map((name) => [name, { syntax: PipSyntax, custom: pip, environment: /^(?:PIP_(?:USER|TARGET|PREFIX|ROOT|SRC|LOG|LOG_FILE|CACHE_DIR|REPORT|CONFIG_FILE)|PYTHONUSERBASE)$/ }] as const),
];
