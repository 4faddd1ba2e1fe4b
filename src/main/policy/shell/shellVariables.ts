// What the reader knows of a line's shell state as it reads the line in order (shellCommands.ts):
// * which folder change, if any, the shell has made before a write is opened, so that a relative
//   write is judged against the right folder (`(cd src && ls) > f` writes f in the cwd, `cd src
//   && ls > f` in src);
// * which variables hold a number. Bash evaluates a variable's value as an expression in
//   arithmetic (`$((x))`, `(( ))`, `let`, `$[ ]`, subscripts, `[[ x -eq y ]]`), and a value like
//   `a[$(cmd)]` runs cmd there, so arithmetic may only read variables the line itself set to a
//   number first, and never sets to anything else (a loop can run the other assignment first);
// * which names the line assigns at all (PATH, GIT_EXTERNAL_DIFF, …) whatever the means:
//   `x=`, `export`, `declare`, `printf -v`, `read`, `mapfile`, `for`, `${x:=…}`, `unset`.
// A subshell (`( )`, `$( )`, a pipeline's commands, `bash -c`) gets a copy of its shell's state;
// what it changes stays inside. Loops, functions and traps run their bodies when the text does
// not say: their writes count as after any folder change of the line.

import { harmlessAssignment } from "./runtimeVariables.js";
import { Unreadable } from "./shellTreeChecks.js";

/** Variables whose value is a number whatever the line does, unless it assigns them (RANDOM, `$#`). */
const ALWAYS_NUMBERS = ["#", "?", "$", "!", "-"];
const SPECIAL_NUMBERS = ["RANDOM", "SRANDOM", "SECONDS", "LINENO", "BASHPID", "PPID", "UID", "EUID", "EPOCHSECONDS", "OPTIND", "BASH_SUBSHELL"];

/** Variables whose value the shell expands (`PS4='$(cmd)'; set -x`) or runs as a command. */
const EXPANDED_VARIABLES = /^PS[0-4]$/;
const COMMAND_VARIABLES = /^PROMPT_COMMAND$/;

export class ShellScope {
  private constructor(
    /** The folder change (as written) that moved this shell, if any. */
    public movedBy: string | undefined,
    /** Reading a body that runs when the text does not say (loop, function, trap). */
    public deferred: boolean,
    /** Variables known to hold a number here. */
    readonly numbers: Set<string>,
    /** Associative arrays declared here: their subscripts are strings, not arithmetic. */
    readonly assoc: Set<string>,
  ) {}

  /** A new shell (the line's, or a `bash -c`'s: it inherits the folder, not the variables it can trust). */
  static fresh(movedBy?: string, deferred = false): ShellScope {
    return new ShellScope(movedBy, deferred, new Set(SPECIAL_NUMBERS), new Set());
  }

  copy(): ShellScope {
    return new ShellScope(this.movedBy, this.deferred, new Set(this.numbers), new Set(this.assoc));
  }

  /** A copy for a body that runs later, when nothing is known of its variables. */
  later(): ShellScope {
    return new ShellScope(this.movedBy, true, new Set(SPECIAL_NUMBERS), new Set(this.assoc));
  }

  adopt(other: ShellScope): void {
    this.movedBy = other.movedBy;
    this.deferred = other.deferred;
    replace(this.numbers, other.numbers);
    replace(this.assoc, other.assoc);
  }
}

/** Facts about the whole line, checked once it is read (LineFacts.verify). */
export class LineFacts {
  /** Names set somewhere to a value that may not be a number, with where. */
  readonly notNumbers = new Map<string, string>();
  /** Names arithmetic read as numbers, with where. */
  readonly trusted = new Map<string, string>();
  /** Names declared integer (`declare -i`): what is assigned to them is evaluated. */
  readonly integers = new Map<string, string>();
  /** The first folder change anywhere in the line. */
  firstMove: string | undefined;

  copy(): LineFacts {
    const facts = new LineFacts();
    facts.adopt(this);
    return facts;
  }

  adopt(other: LineFacts): void {
    replaceMap(this.notNumbers, other.notNumbers);
    replaceMap(this.trusted, other.trusted);
    replaceMap(this.integers, other.integers);
    this.firstMove = other.firstMove;
  }

  /** Why the line cannot be read after all, once all of it is read. */
  verify(): string | undefined {
    for (const [name, where] of this.trusted) {
      const set = this.notNumbers.get(name);
      if (set !== undefined) return `${arithmeticOn(name, where)}; the line also sets it in \`${set}\` to a value that may not be a number, and a loop or function can run that first`;
    }
    for (const [name, where] of this.integers) {
      const set = this.notNumbers.get(name);
      if (set !== undefined) return `\`${name}\` is an integer variable (\`${where}\`), so bash evaluates what \`${set}\` assigns to it as an expression, and a value like \`a[$(cmd)]\` runs cmd`;
    }
    return undefined;
  }
}

/** A reader's view of the state above. */
export interface Variables {
  readonly shell: ShellScope;
  readonly facts: LineFacts;
  /** Names the line sets for what follows (the reading's `assigned`). */
  readonly assigned: string[];
}

export interface AssignedValue {
  /** The value as bash would store it, when known. */
  readonly literal?: string;
  /** It is a number (a literal integer, or an arithmetic expansion's result). */
  readonly number: boolean;
}

export const NOT_A_NUMBER: AssignedValue = { number: false };
export const A_NUMBER: AssignedValue = { number: true };

/** `value` as an AssignedValue, for a literal (or computed: undefined) value. */
export function assignedValue(literal: string | undefined): AssignedValue {
  // An empty value is 0 to arithmetic.
  return literal === undefined ? NOT_A_NUMBER : { literal, number: /^\s*(?:[+-]?\d+)?\s*$/.test(literal) };
}

/**
 * Records that `where` sets `name` to `value`. `temporary`: for one command only (`x=1 cmd`): what
 * it holds afterwards is not known from it, and it is not in the line's `assigned`.
 */
export function assignVariable(v: Variables, name: string, value: AssignedValue, where: string, temporary = false): void {
  if (!temporary && !(value.literal !== undefined && harmlessAssignment(name, value.literal))) v.assigned.push(name);
  const code = COMMAND_VARIABLES.test(name) ? value.literal !== "" : EXPANDED_VARIABLES.test(name) && (value.literal === undefined || /[$`\\]/.test(value.literal));
  if (code) {
    throw new Unreadable(`\`${where}\` sets ${name}, whose value the shell runs as code (\`set -x\` expands PS4, a prompt the others)`);
  }
  if (value.number) {
    if (!temporary) v.shell.numbers.add(name);
    return;
  }
  v.shell.numbers.delete(name);
  if (!v.facts.notNumbers.has(name)) v.facts.notNumbers.set(name, where);
}

/** `unset name`: the variable is gone (arithmetic reads it as 0), and the line has changed it. */
export function unsetVariable(v: Variables, name: string): void {
  v.assigned.push(name);
  v.shell.numbers.add(name);
}

/** Arithmetic in `where` reads `name`'s value as an expression: only a number is safe. */
export function readInArithmetic(v: Variables, name: string, where: string): void {
  if (ALWAYS_NUMBERS.includes(name)) return;
  if (v.shell.numbers.has(name) && !/^\d/.test(name)) {
    if (!v.facts.trusted.has(name)) v.facts.trusted.set(name, where);
    return;
  }
  throw new Unreadable(`${arithmeticOn(name, where)}, and Baton knows its value only when the line sets it to a number first; compare with \`[ … -gt … ]\` (test), which does not evaluate`);
}

function arithmeticOn(name: string, where: string): string {
  const shown = /^\d+$|^[@*]$/.test(name) ? `$${name}` : name;
  return `arithmetic on \`${shown}\` in \`${where}\`: bash evaluates a variable's value as an expression there, and a value like \`a[$(cmd)]\` runs cmd`;
}

/** `declare -i name` (at `where`). */
export function declareInteger(v: Variables, name: string, where: string): void {
  if (!v.facts.integers.has(name)) v.facts.integers.set(name, where);
}

/** The line changes folder (`cd`, `pushd`, `popd`), as written. */
export function changeDirectory(v: Variables, text: string): void {
  v.shell.movedBy = text;
  v.facts.firstMove ??= text;
}

function replace<T>(target: Set<T>, source: ReadonlySet<T>): void {
  target.clear();
  for (const item of source) target.add(item);
}

function replaceMap<V>(target: Map<string, V>, source: ReadonlyMap<string, V>): void {
  target.clear();
  for (const [key, value] of source) target.set(key, value);
}
