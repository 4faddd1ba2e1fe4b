// commandEffects.ts's table for git and the language toolchains the presets allow: go, gofmt,
// goimports, cargo, prettier, eslint, black, ruff. Formatters and fixers write the files they are
// given; build tools write their outputs; config files and plugins are code or options Baton
// cannot see, so naming one makes the command opaque.

import { applySpec, CWD, globbed, has, installsOutside, literal, operandsOr, optionValues, rebased, within, type EffectSink, type ProgramSpec } from "./effectSpec.js";
import { scanOptions, type Scan, type Syntax } from "./optionScan.js";
import type { ShellWord } from "../shell/shellWords.js";

const CONFIG = "reads a configuration file Baton cannot see, and it can name files to write or code to load";
const LOADS_CODE = "loads code Baton cannot judge";

// ---- git ----

const GitGlobal: Syntax = { style: "gnu", valued: "Cc", longValued: ["git-dir", "work-tree", "namespace", "config-env", "super-prefix", "list-cmds", "attr-source"], stopAtOperand: true };
// Settings that only change how output looks; every other key may name a program git runs
// (core.pager, diff.external, core.fsmonitor, alias.*).
const HarmlessGitConfig = /^(?:color\.[\w.-]+|core\.quotepath)=/i;

const gitDiffLike: ProgramSpec = {
  syntax: { style: "gnu", valued: "nSGO", longValued: ["output", "author", "committer", "grep", "max-count", "skip", "since", "until", "after", "before"], abbreviates: ["output"] },
  writes: ["--output"],
};

const gitGrep: ProgramSpec = {
  syntax: { style: "gnu", valued: "efABCm", longValued: ["max-depth", "threads", "context", "after-context", "before-context", "max-count"], abbreviates: ["open-files-in-pager"] },
  opaque: { "-O": "opens the files in a pager program", "--open-files-in-pager": "opens the files in a pager program" },
};

const GitSubcommands: ReadonlyMap<string, ProgramSpec> = new Map([
  ...["log", "show", "diff", "whatchanged", "diff-tree", "diff-index", "diff-files"].map((s) => [s, gitDiffLike] as const),
  ["grep", gitGrep],
]);

function git(args: readonly ShellWord[], sink: EffectSink): void {
  const globals = scanOptions(args, GitGlobal);
  if (globals.unknown !== undefined) sink.refuse(`\`${globals.unknown.value}\` is only known when the shell runs, and before git's subcommand it could be \`-c\``);
  for (const setting of optionValues(globals, "-c")) {
    if (setting.dynamic || !HarmlessGitConfig.test(setting.value)) sink.refuse(`git -c \`${setting.value}\` sets configuration, which can name programs git runs (core.pager, diff.external, aliases)`);
  }
  if (has(globals, "--config-env")) sink.refuse("git --config-env sets configuration, which can name programs git runs");
  if (optionValues(globals, "--exec-path").length > 0) sink.refuse("git --exec-path=… runs git's commands from another folder");
  // `-C a -C b` works in a/b; the subcommand's relative writes land there.
  const base = optionValues(globals, "-C").reduce<ShellWord | undefined>((dir, next) => within(dir, next), undefined);
  const sub = globals.rest[0];
  const spec = sub === undefined || sub.dynamic ? undefined : GitSubcommands.get(sub.value);
  if (spec !== undefined) applySpec(`git ${sub!.value}`, spec, globals.rest.slice(1), rebased(sink, base));
}

// ---- go ----

const withTestPrefix = (names: readonly string[]): string[] => names.flatMap((n) => [n, `test.${n}`]);
const GoProfiles = ["coverprofile", "cpuprofile", "memprofile", "blockprofile", "mutexprofile", "trace", "outputdir"];
const GoSyntax: Syntax = {
  style: "go",
  longValued: [
    ...["C", "o", "p", "asmflags", "buildmode", "compiler", "gccgoflags", "gcflags", "installsuffix", "ldflags", "mod", "modfile", "overlay", "pgo", "pkgdir", "tags", "toolexec", "exec", "vettool", "coverpkg", "covermode"],
    // `go mod edit` and `go work edit`.
    ...["module", "go", "toolchain", "godebug", "dropgodebug", "require", "droprequire", "exclude", "dropexclude", "replace", "dropreplace", "retract", "dropretract", "use", "dropuse", "tool", "droptool", "ignore", "dropignore"],
    ...withTestPrefix([...GoProfiles, "memprofilerate", "blockprofilerate", "mutexprofilefraction", "run", "skip", "bench", "benchtime", "count", "cpu", "parallel", "timeout", "fuzz", "fuzztime", "fuzzminimizetime", "list", "shuffle", "vet"]),
  ],
};
const GoRuns = ["-toolexec", "-exec", "-vettool"];

const goSpecs = new Map<string, ProgramSpec>();
/** The spec of `go <sub>`, made once per subcommand name (the hook judges many go lines). */
function goSubcommand(sub: string): ProgramSpec {
  let spec = goSpecs.get(sub);
  if (spec === undefined) {
    spec = makeGoSubcommand(sub);
    if (goSpecs.size < 64) goSpecs.set(sub, spec);
  }
  return spec;
}

const GoWrites = ["-o", "-pkgdir", "-modfile", ...withTestPrefix(GoProfiles).map((n) => `-${n}`)];

const makeGoSubcommand = (sub: string): ProgramSpec => ({
  syntax: GoSyntax,
  writes: GoWrites,
  then: (scan, sink) => {
    // `-toolexec 'prog args'`: go splits the value into a program and its arguments.
    for (const option of scan.options) {
      if (GoRuns.includes(option.name) && option.value !== undefined) sink.run(splitCommand(option.value), `go ${sub} ${option.name}`);
      if (option.name === "-ldflags" && option.value !== undefined && (option.value.dynamic || option.value.value.includes("extld"))) sink.refuse(`go ${sub} -ldflags \`${option.value.value}\` can name a linker program`);
    }
    const packages = operandsOr(scan, CWD);
    if (sub === "build" && !has(scan, "-o")) sink.write("implicit", CWD);
    if (sub === "test" && has(scan, "-c") && !has(scan, "-o")) sink.write("implicit", CWD);
    // Fuzzing saves failing inputs under each package's testdata/.
    if (sub === "test" && has(scan, "-fuzz", "-test.fuzz")) for (const p of packages) sink.write("implicit", p);
    if (sub === "fmt" && !has(scan, "-n")) for (const p of packages) sink.write("operand", p);
    // Into $GOBIN, else $GOPATH/bin, else ~/go/bin (`go help install`); GOBIN and GOPATH on the line are opaque.
    if (sub === "install" && !has(scan, "-n")) installsOutside(sink, "~/go/bin");
    if (sub === "env" && has(scan, "-w", "-u")) sink.refuse("go env -w changes go's settings for every later go command (GOFLAGS can name programs go runs)");
    // `-modfile f.mod` reads and updates f.mod and its f.sum instead of go.mod and go.sum.
    const modfile = optionValues(scan, "-modfile")[0];
    if (modfile !== undefined) sink.write("implicit", modfile.dynamic ? modfile : literal(modfile.value.replace(/(?:\.mod)?$/, ".sum")));
    if (sub === "mod" || sub === "work") moduleFiles(sub, scan, sink, modfile !== undefined);
  },
});

/** `go mod …` and `go work …`: the go.mod, go.sum and go.work files they write, in the cwd unless named. */
function moduleFiles(sub: "mod" | "work", scan: Scan, sink: EffectSink, modfile: boolean): void {
  const [action, ...files] = [...scan.operands, ...scan.afterDashes];
  const name = action === undefined || action.dynamic ? "" : action.value;
  const own = sub === "mod" ? "go.mod" : "go.work";
  if (name === "edit") {
    if (files.length > 0) for (const file of files) sink.write("operand", file);
    else if (!modfile) sink.write("implicit", literal(own));
  } else if (name === "init" || (sub === "work" && name === "use")) sink.write("implicit", literal(own));
  else if (sub === "mod" && name === "tidy" && !modfile) for (const file of ["go.mod", "go.sum"]) sink.write("implicit", literal(file));
  else if (name === "vendor" && !has(scan, "-o")) sink.write("implicit", literal("vendor"));
  else if (sub === "work" && name === "sync") sink.refuse("go work sync writes the go.mod of every module go.work names, which can be outside the project");
}

function splitCommand(value: ShellWord): readonly ShellWord[] {
  if (value.dynamic) return [value];
  return value.value
    .split(/\s+/)
    .filter((w) => w !== "")
    .map(literal);
}

function go(args: readonly ShellWord[], sink: EffectSink): void {
  // `go -C dir build`: -C must come first, and moves everything that follows.
  const first = args[0];
  const moved = first !== undefined && !first.dynamic && /^--?C(?:=|$)/.test(first.value);
  const base = !moved ? undefined : first.value.includes("=") ? literal(first.value.slice(first.value.indexOf("=") + 1)) : args[1];
  const rest = !moved ? args : first.value.includes("=") ? args.slice(1) : args.slice(2);
  const sub = rest[0];
  if (sub === undefined) return;
  const name = sub.dynamic ? "" : sub.value;
  applySpec(`go ${name}`, goSubcommand(name), rest.slice(1), rebased(sink, base));
}

const goFormatter = (valued: readonly string[], writes: readonly string[]): ProgramSpec => ({
  syntax: { style: "go", longValued: valued },
  writes,
  then: (scan, sink) => {
    const w = scan.options.filter((o) => o.name === "-w");
    if (w.length > 0 && !w.every((o) => o.value !== undefined && !o.value.dynamic && /^(?:0|f|false)$/i.test(o.value.value))) {
      for (const operand of operandsOr(scan)) sink.write("operand", operand);
    }
  },
});

// ---- cargo ----

const CargoBuilds = new Set(["build", "b", "check", "c", "test", "t", "bench", "run", "r", "doc", "d", "clippy", "rustc", "rustdoc", "fix"]);

const cargoSpec: ProgramSpec = {
  syntax: {
    style: "gnu",
    valued: "pjZFC",
    longValued: ["target-dir", "manifest-path", "config", "package", "jobs", "features", "target", "color", "profile", "bin", "example", "test", "bench", "exclude", "message-format", "lockfile-path", "artifact-dir", "out-dir", "explain", "root", "vcs", "name", "edition", "registry"],
  },
  writes: ["--target-dir", "--artifact-dir", "--out-dir", "--root"],
  opaque: { "--config": "sets cargo configuration, which can name programs cargo runs (build.rustc-wrapper, target runners)" },
  environment: /^(?:CARGO_TARGET_DIR|CARGO_HOME|CARGO_INSTALL_ROOT|CARGO_BUILD_\w+|CARGO_TARGET_\w+|CARGO_ENCODED_RUSTFLAGS|CARGO_ENCODED_RUSTDOCFLAGS|RUSTC|RUSTC_WRAPPER|RUSTC_WORKSPACE_WRAPPER|RUSTDOC|RUSTFLAGS|RUSTDOCFLAGS|CC|CXX|AR)$/,
  then: (scan, sink) => {
    // `cargo +nightly test`: a toolchain before the subcommand.
    const sub = scan.operands.find((o) => o.dynamic || !o.value.startsWith("+"));
    const name = sub === undefined || sub.dynamic ? "" : sub.value;
    const manifest = optionValues(scan, "--manifest-path")[0];
    const crate = manifest === undefined ? undefined : manifest.dynamic ? manifest : literal(manifest.value.includes("/") ? manifest.value.slice(0, manifest.value.lastIndexOf("/")) : ".");
    if (CargoBuilds.has(name) && !has(scan, "--target-dir")) sink.write("implicit", within(crate, literal("target")));
    const checks = has(scan, "--check") || scan.afterDashes.some((w) => w.value === "--check");
    // `cargo install` and `uninstall` change ~/.cargo/bin unless `--root` names the folder (counted above).
    if ((name === "install" || name === "uninstall") && !has(scan, "--root", "--list")) installsOutside(sink, "~/.cargo/bin");
    if ((name === "fmt" && !checks) || name === "fix" || (name === "clippy" && has(scan, "--fix"))) sink.write("implicit", crate ?? CWD);
    // `cargo new PATH` and `cargo init [PATH]` make a crate in that folder.
    if (name === "new" || name === "init") {
      const path = scan.operands[scan.operands.indexOf(sub!) + 1] ?? scan.afterDashes[0];
      sink.write("operand", path ?? (name === "init" ? CWD : undefined));
    }
  },
};

function cargo(args: readonly ShellWord[], sink: EffectSink): void {
  const base = optionValues(scanOptions(args, cargoSpec.syntax), "-C").at(-1);
  applySpec("cargo", cargoSpec, args, rebased(sink, base));
}

// ---- JavaScript and Python formatters and linters ----

const prettier: ProgramSpec = {
  syntax: {
    style: "gnu",
    longValued: ["config", "plugin", "cache-location", "cache-strategy", "ignore-path", "log-level", "loglevel", "stdin-filepath", "parser", "print-width", "tab-width", "trailing-comma", "end-of-line", "arrow-parens", "prose-wrap", "html-whitespace-sensitivity", "embedded-language-formatting", "quote-props", "object-wrap", "experimental-operator-position", "cursor-offset", "range-start", "range-end", "config-precedence", "plugin-search-dir", "find-config-path", "file-info"],
  },
  writes: ["--cache-location"],
  opaque: { "--config": CONFIG, "--plugin": LOADS_CODE, "--plugin-search-dir": LOADS_CODE },
  then: (scan, sink) => {
    // prettier expands its operands as globs itself.
    if (has(scan, "-w", "--write")) for (const operand of operandsOr(scan)) sink.write("operand", globbed(operand));
  },
};

const EslintFormatters = new Set(["stylish", "json", "json-with-metadata", "html", "compact", "unix", "visualstudio", "tap", "junit", "checkstyle", "jslint-xml", "table", "codeframe"]);

const eslint: ProgramSpec = {
  syntax: {
    style: "gnu",
    valued: "cfo",
    longValued: ["config", "ext", "global", "parser", "parser-options", "resolve-plugins-relative-to", "plugin", "rule", "rulesdir", "ignore-path", "ignore-pattern", "fix-type", "format", "output-file", "max-warnings", "cache-location", "cache-strategy", "stdin-filename", "env"],
  },
  writes: ["-o", "--output-file", "--cache-location"],
  opaque: { "-c": CONFIG, "--config": CONFIG, "--plugin": LOADS_CODE, "--rulesdir": LOADS_CODE, "--parser": LOADS_CODE, "--resolve-plugins-relative-to": LOADS_CODE },
  then: (scan, sink) => {
    if (has(scan, "--fix")) for (const operand of operandsOr(scan, CWD)) sink.write("operand", globbed(operand));
    // `eslint --init` runs `npm init @eslint/config`.
    if (has(scan, "--init")) sink.run(["npm", "init", "@eslint/config"].map(literal), "eslint --init");
    for (const format of optionValues(scan, "-f", "--format")) {
      if (format.dynamic || !EslintFormatters.has(format.value)) sink.refuse(`eslint --format \`${format.value}\` ${LOADS_CODE} (a formatter module)`);
    }
  },
};

const black: ProgramSpec = {
  syntax: {
    style: "gnu",
    valued: "ltWc",
    longValued: ["line-length", "target-version", "include", "exclude", "extend-exclude", "force-exclude", "stdin-filename", "workers", "config", "python-cell-magics", "required-version", "code", "enable-unstable-feature", "line-ranges"],
  },
  opaque: { "--config": CONFIG },
  then: (scan, sink) => {
    if (has(scan, "--check", "--diff", "-c", "--code")) return;
    for (const operand of operandsOr(scan)) if (operand.dynamic || operand.value !== "-") sink.write("operand", operand);
  },
};

const RuffSubcommands = new Set(["check", "format", "rule", "config", "linter", "clean", "version", "help", "server", "analyze"]);

const ruff: ProgramSpec = {
  syntax: {
    style: "gnu",
    valued: "o",
    longValued: ["config", "output-file", "output-format", "cache-dir", "select", "extend-select", "ignore", "per-file-ignores", "extend-per-file-ignores", "exclude", "extend-exclude", "fixable", "unfixable", "extend-fixable", "line-length", "target-version", "stdin-filename", "range"],
  },
  writes: ["-o", "--output-file", "--cache-dir"],
  opaque: { "--config": CONFIG },
  then: (scan, sink) => {
    const [first, ...rest] = operandsOr(scan);
    const named = first !== undefined && !first.dynamic && RuffSubcommands.has(first.value);
    const sub = named ? first.value : "check";
    const paths = named ? rest : operandsOr(scan);
    const targets = paths.length > 0 ? paths : [CWD];
    // A project's configuration may say `fix = true`: `ruff check` may fix unless told not to.
    const writes =
      (sub === "check" && (has(scan, "--add-noqa") || !has(scan, "--no-fix", "--diff"))) || (sub === "format" && !has(scan, "--check", "--diff"));
    if (writes) for (const path of targets) sink.write("operand", path);
    if (sub === "clean") sink.write("implicit", CWD);
  },
};

export const TOOLCHAINS: readonly (readonly [string, ProgramSpec])[] = [
  ["git", { syntax: GitGlobal, custom: git, environment: /^(?:GIT_(?:CONFIG\w*|EXTERNAL_DIFF|EXEC_PATH|DIR|SSH\w*|ASKPASS|EDITOR|SEQUENCE_EDITOR|PROXY_COMMAND|TRACE\w*|TEMPLATE_DIR|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES)|HOME|XDG_CONFIG_HOME)$/ }],
  ["go", { syntax: GoSyntax, custom: go, environment: /^(?:GOFLAGS|GOTOOLCHAIN|GOENV|GOROOT|GOBIN|GOCACHE|GOTMPDIR|GOPATH|GOMODCACHE|GOCOVERDIR|GOWORK|CC|CXX|FC|AR|PKG_CONFIG|CGO_\w+)$/ }],
  ["gofmt", goFormatter(["r", "cpuprofile"], ["-cpuprofile"])],
  ["goimports", goFormatter(["local", "srcdir", "cpuprofile", "memprofile", "memrate", "trace"], ["-cpuprofile", "-memprofile", "-trace"])],
  ["cargo", { syntax: cargoSpec.syntax, custom: cargo, environment: cargoSpec.environment! }],
  ["prettier", prettier],
  ["eslint", eslint],
  ["black", black],
  ["ruff", ruff],
];

