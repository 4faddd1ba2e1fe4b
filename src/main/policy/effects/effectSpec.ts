// The vocabulary of commandEffects.ts's table: what a program's entry says, the sink its effects
// go to, and the small helpers entries share (reading option values, joining paths).

import { scanOptions, type Scan, type ScannedOption, type Syntax } from "./optionScan.js";
import type { ShellWord } from "../shell/shellWords.js";

/**
 * `option`: an option's value; `operand`: an operand; `implicit`: where the program writes unasked;
 * `install`: a global or user install, which lands outside every project (the target names where,
 * for the message: `~/.cargo/bin`, or a description where the place depends on the platform).
 */
export type EffectWriteKind = "option" | "operand" | "implicit" | "install";

export interface EffectWrite {
  readonly kind: EffectWriteKind;
  readonly target: ShellWord;
}

export interface EffectRun {
  /** The program and its arguments, as a simple command of their own. */
  readonly words: readonly ShellWord[];
  /** What runs it, for the record: `find -exec`, `rg --pre`. */
  readonly via: string;
  /** The folder it runs in when not the cwd (`find -execdir`): its relative writes land there. */
  readonly base?: ShellWord;
  /**
   * Run by a launcher whose whole command the allowlist judged (`pnpm exec`, `bun x`, `uv run`):
   * judged by the refused list (SimpleCommand.launchedBy).
   */
  readonly launched?: boolean;
  /** The words, joined, are a script for a shell (`pnpm -c exec 'npm i'`). */
  readonly script?: boolean;
}

export interface LaunchOptions {
  readonly script?: boolean;
  readonly base?: ShellWord;
}

export interface CommandEffects {
  readonly writes: readonly EffectWrite[];
  readonly runs: readonly EffectRun[];
  /** Why Baton cannot know what the command would do; undefined when it can. */
  readonly opaque?: string;
}

/** Collects one command's effects. */
export interface EffectSink {
  write(kind: EffectWriteKind, target: ShellWord | undefined): void;
  run(words: readonly ShellWord[], via: string, base?: ShellWord): void;
  /** A launcher runs `words` (EffectRun.launched). */
  launch(words: readonly ShellWord[], via: string, options?: LaunchOptions): void;
  refuse(reason: string): void;
}

/** A program's entry in the table. */
export interface ProgramSpec {
  readonly syntax: Syntax;
  /** Options whose value is a file or folder it writes (`-o`, `--output`). */
  readonly writes?: readonly string[];
  /** Options whose value is a program it runs. */
  readonly runs?: readonly string[];
  /** Options after which Baton cannot know what it does, with the reason. */
  readonly opaque?: Readonly<Record<string, string>>;
  /** Variables that change what it runs or where it writes (`GIT_EXTERNAL_DIFF`, `CARGO_TARGET_DIR`). */
  readonly environment?: RegExp;
  /** The rest, once its options are read: writes of operands, of the cwd, subcommands. */
  readonly then?: (scan: Scan, sink: EffectSink, args: readonly ShellWord[]) => void;
  /** A program with its own reading of its words (find, git): replaces the scan. */
  readonly custom?: (args: readonly ShellWord[], sink: EffectSink) => void;
}

export function applySpec(name: string, spec: ProgramSpec, args: readonly ShellWord[], sink: EffectSink): void {
  if (spec.custom !== undefined) {
    spec.custom(args, sink);
    return;
  }
  const scan = scanOptions(args, spec.syntax);
  // Every program in the table has options that write or run: a word that may be any option is opaque.
  if (scan.unknown !== undefined) sink.refuse(unknownWord(scan.unknown, name));
  for (const option of scan.options) {
    const why = spec.opaque?.[option.name];
    if (why !== undefined) sink.refuse(`${name} ${option.name} ${why}`);
    if (spec.writes?.includes(option.name)) sink.write("option", option.value);
    if (spec.runs?.includes(option.name) && option.value !== undefined) sink.run([option.value], `${name} ${option.name}`);
  }
  spec.then?.(scan, sink, args);
}

export function unknownWord(word: ShellWord, name: string): string {
  return `\`${word.value}\` is only known when the shell runs, and as an option of ${name} it could write files or run programs (spell it so it cannot begin with \`-\`, e.g. \`./*.txt\`, or put it after \`--\`)`;
}

export const has = (scan: Scan, ...names: string[]): boolean => scan.options.some((o) => names.includes(o.name));

export function optionValues(scan: Scan, ...names: string[]): readonly ShellWord[] {
  return scan.options.filter((o): o is ScannedOption & { value: ShellWord } => names.includes(o.name) && o.value !== undefined).map((o) => o.value);
}

/** `base/target` for a relative target; absolute targets stay; a computed part makes it computed. */
export function within(base: ShellWord | undefined, target: ShellWord): ShellWord {
  if (base === undefined || (!target.dynamic && target.value.startsWith("/"))) return target;
  const value = `${base.value.replace(/\/+$/, "")}/${target.value}`;
  return { value, dynamic: base.dynamic || target.dynamic };
}

export const literal = (value: string): ShellWord => ({ value, dynamic: false });
/** A global or user install into `where` (see EffectWriteKind). */
export const installsOutside = (sink: EffectSink, where: string): void => sink.write("install", literal(where));
export const READS_OPTIONS = "reads more options from a file Baton cannot see, and they can name files to write or programs to run";

/** Every operand, before and after `--`; `fallback` when there is none. */
export function operandsOr(scan: Scan, fallback?: ShellWord): readonly ShellWord[] {
  const all = [...scan.operands, ...scan.afterDashes];
  return all.length > 0 || fallback === undefined ? all : [fallback];
}

/** `sink` with relative writes landing in `base` (`git -C d`, `cargo -C d`); itself without a base. */
export function rebased(sink: EffectSink, base: ShellWord | undefined): EffectSink {
  if (base === undefined) return sink;
  return {
    // An install's target is where it lands whatever the folder.
    write: (kind, target) => sink.write(kind, target === undefined || kind === "install" ? target : within(base, target)),
    run: (words, via, runBase) => sink.run(words, via, runBase === undefined ? base : within(base, runBase)),
    launch: (words, via, options) => sink.launch(words, via, { ...options, base: options?.base === undefined ? base : within(base, options.base) }),
    refuse: (reason) => sink.refuse(reason),
  };
}
export const CWD = literal(".");

/**
 * A path the program expands as a glob itself (prettier, eslint): where it could land is only
 * known when a `..` follows a glob segment (`src/**\/../../x` may climb out of `src`).
 */
export function globbed(target: ShellWord): ShellWord {
  if (target.dynamic) return target;
  const parts = target.value.split("/");
  const firstGlob = parts.findIndex((p) => /[*?[{]/.test(p));
  if (firstGlob >= 0 && parts.slice(firstGlob + 1).includes("..")) return { value: target.value, dynamic: true };
  return target;
}
