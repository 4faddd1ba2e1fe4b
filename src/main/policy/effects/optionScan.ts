// A program's arguments read the way its own option parser would: which words are options (and
// their values) and which are operands. Only as much as commandEffects.ts needs to find the
// options that write files or run programs, so every doubt is resolved towards seeing more:
// * an abbreviated long option (`--outp`, getopt_long) counts as every listed option it could
//   stand for, and its possible value is also read as a word of its own;
// * a word the shell computes that could begin with `-` (`"$x"`, `*.txt`, `$(…)`) is `unknown`:
//   it may be any option at all.

import type { ShellWord } from "../shell/shellWords.js";

export interface Syntax {
  /**
   * gnu: `-abc` clusters, a valued letter takes the rest of its cluster or the next word,
   * `--name=v` or `--name v`. go: `-name` or `--name`, `=v` or the next word, no clusters.
   * next-word: like gnu, but each valued letter of a cluster takes the next word (`tree -oL f 2`).
   */
  readonly style: "gnu" | "go" | "next-word";
  /** Short letters that take a value. */
  readonly valued?: string;
  /** Long names that take a value. */
  readonly longValued?: readonly string[];
  /** Long names a prefix may stand for (getopt_long accepts any unambiguous prefix). */
  readonly abbreviates?: readonly string[];
  /** Options end at the first operand (a program's global options before its subcommand). */
  readonly stopAtOperand?: boolean;
}

export interface ScannedOption {
  /** `-o` for a short letter, `--output` (or go's `-output`) for a long one, unabbreviated. */
  readonly name: string;
  readonly value?: ShellWord;
}

export interface Scan {
  readonly options: readonly ScannedOption[];
  /** Operands before `--`, and after it. */
  readonly operands: readonly ShellWord[];
  readonly afterDashes: readonly ShellWord[];
  /** Every word from the first operand on, when `stopAtOperand`. */
  readonly rest: readonly ShellWord[];
  /** A word that may be an option but is only known at run time. */
  readonly unknown?: ShellWord;
}

/** Whether the shell could turn `word` into something that begins with `-`. */
export function mayBeOption(word: ShellWord): boolean {
  if (!word.dynamic) return word.value.startsWith("-") && word.value !== "-";
  const text = word.value.replace(/^["']+/, "");
  const first = text[0];
  if (first === undefined) return true;
  if (first === "{") return text[1] !== "}";
  if ("!@+".includes(first)) return text[1] === "(";
  return "-$`*?[\\".includes(first);
}

/** `--name=` or `-name=` spelled literally before a value the shell computes. */
const LITERAL_NAME = /^(-{1,2}[A-Za-z0-9][\w.-]*)=/;

export function scanOptions(args: readonly ShellWord[], syntax: Syntax): Scan {
  const options: ScannedOption[] = [];
  const operands: ShellWord[] = [];
  const afterDashes: ShellWord[] = [];
  let unknown: ShellWord | undefined;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (!word.dynamic && word.value === "--") {
      afterDashes.push(...args.slice(i + 1));
      break;
    }
    if (!mayBeOption(word)) {
      if (syntax.stopAtOperand === true) return { options, operands, afterDashes, rest: args.slice(i), ...(unknown ? { unknown } : {}) };
      operands.push(word);
      continue;
    }
    if (word.dynamic) {
      const named = LITERAL_NAME.exec(word.value);
      const long = named !== null && (named[1]!.startsWith("--") || syntax.style === "go");
      const value = { value: word.value.slice(named?.[0].length ?? 0), dynamic: true };
      if (long) options.push(...longNames(named[1]!.replace(/^-+/, ""), syntax).map((name) => ({ name: dashes(syntax, name), value })));
      else unknown ??= word;
      continue;
    }
    i += syntax.style === "go" || word.value.startsWith("--") ? readLong(args, i, syntax, options) : readCluster(args, i, syntax, options);
  }
  return { options, operands, afterDashes, rest: [], ...(unknown ? { unknown } : {}) };
}

const valuedSets = new WeakMap<Syntax, ReadonlySet<string>>();
/** `syntax.longValued` as a set, made once per syntax (curl's list is long). */
function takesValue(syntax: Syntax, name: string): boolean {
  let set = valuedSets.get(syntax);
  if (set === undefined) {
    set = new Set(syntax.longValued);
    valuedSets.set(syntax, set);
  }
  return set.has(name);
}

const dashes = (syntax: Syntax, name: string): string => (syntax.style === "go" ? `-${name}` : `--${name}`);

/** Reads `--name[=v]` (go: `-name[=v]`) at `args[i]`; how many more words it took. */
function readLong(args: readonly ShellWord[], i: number, syntax: Syntax, options: ScannedOption[]): number {
  const body = args[i]!.value.replace(/^--?/, "");
  const eq = body.indexOf("=");
  const given = eq < 0 ? body : body.slice(0, eq);
  const names = longNames(given, syntax);
  if (eq >= 0) {
    const value = { value: body.slice(eq + 1), dynamic: false };
    for (const name of names) options.push({ name: dashes(syntax, name), value });
    return 0;
  }
  const exact = names.length === 1 && names[0] === given;
  const valued = names.some((n) => takesValue(syntax, n));
  const next = args[i + 1];
  if (!valued || next === undefined) {
    for (const name of names) options.push({ name: dashes(syntax, name) });
    return 0;
  }
  for (const name of names) options.push({ name: dashes(syntax, name), value: next });
  // A guessed abbreviation may not take the next word after all: read it as a word too.
  return exact ? 1 : 0;
}

/** The long names `given` stands for: itself when listed exactly, else every listed name it begins. */
function longNames(given: string, syntax: Syntax): readonly string[] {
  const listed = syntax.abbreviates;
  if (listed === undefined || given === "" || listed.includes(given) || takesValue(syntax, given)) return [given];
  const candidates = listed.filter((n) => n.startsWith(given));
  return candidates.length > 0 ? candidates : [given];
}

/** Reads the short cluster at `args[i]`; how many more words it took. */
function readCluster(args: readonly ShellWord[], i: number, syntax: Syntax, options: ScannedOption[]): number {
  const letters = args[i]!.value.slice(1);
  const valued = syntax.valued ?? "";
  let taken = 0;
  for (let j = 0; j < letters.length; j++) {
    const letter = letters[j]!;
    if (!valued.includes(letter)) {
      options.push({ name: `-${letter}` });
      continue;
    }
    if (syntax.style === "next-word") {
      const digits = /^\d+/.exec(letters.slice(j + 1));
      if (digits !== null) {
        options.push({ name: `-${letter}`, value: { value: digits[0], dynamic: false } });
        j += digits[0].length;
        continue;
      }
      const next = args[i + 1 + taken];
      if (next !== undefined) taken++;
      options.push({ name: `-${letter}`, ...(next !== undefined ? { value: next } : {}) });
      continue;
    }
    const attached = letters.slice(j + 1);
    if (attached !== "") {
      options.push({ name: `-${letter}`, value: { value: attached, dynamic: false } });
      return 0;
    }
    const next = args[i + 1];
    options.push({ name: `-${letter}`, ...(next !== undefined ? { value: next } : {}) });
    return next === undefined ? 0 : 1;
  }
  return taken;
}
