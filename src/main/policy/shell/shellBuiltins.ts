// Builtins that set variables, change the folder, or run text as code, read from their words once
// wrappers are looked through (`builtin export PATH=x` exports as much as `export PATH=x` does):
// `declare` and its kin, `unset`, `printf -v`, `read`, `mapfile`, `getopts`, `wait -p`, `cd`,
// `let` and `trap` (whose arguments are code: handed back to be read as scripts), `test -v`, and
// `source` (a file of commands Baton cannot see: unreadable). tree-sitter's own
// declaration_command and unset_command come here through declarationArgs too.

import { checkVariableName } from "./shellEvaluation.js";
import { Unreadable } from "./shellTreeChecks.js";
import {
  assignedValue,
  assignVariable,
  changeDirectory,
  declareInteger,
  NOT_A_NUMBER,
  unsetVariable,
  type AssignedValue,
  type Variables,
} from "./shellVariables.js";
import type { ShellWord } from "./shellWords.js";

/** Text a builtin runs as code: `trap`'s handler (later, when the signal comes), `let`'s expressions. */
export interface BuiltinScript {
  readonly script: ShellWord;
  readonly via: string;
  /** It runs at another time than where it stands (a trap). */
  readonly later: boolean;
}

export type DeclarationArg =
  | { readonly kind: "options"; readonly letters: string; readonly on: boolean }
  | { readonly kind: "name"; readonly name: string }
  | { readonly kind: "assign"; readonly name: string; readonly element: boolean; readonly value: AssignedValue; readonly compound: boolean; readonly dynamic: boolean };

const DECLARATIONS: ReadonlySet<string> = new Set(["declare", "typeset", "local", "export", "readonly"]);
const DIRECTORY_CHANGES: ReadonlySet<string> = new Set(["cd", "pushd", "popd"]);

/** What the builtin `words` (command word first, literal) does to the shell; the code it runs. */
export function readBuiltin(words: readonly ShellWord[], where: string, r: Variables): readonly BuiltinScript[] {
  const head = words[0];
  if (head === undefined || head.dynamic) return [];
  const args = words.slice(1);
  const name = head.value;
  if (DECLARATIONS.has(name)) applyDeclaration(name, args.map((w) => wordArg(unquotedName(w), name, where, r)), r, where);
  else if (name === "unset") applyUnset(args, r, where);
  else if (DIRECTORY_CHANGES.has(name)) changeDirectory(r, where);
  else if (name === "printf") printfTarget(args, r, where);
  else if (name === "read") readTargets(args, r, where);
  else if (name === "mapfile" || name === "readarray") mapfileTarget(name, args, r, where);
  else if (name === "getopts" && args[1] !== undefined) assignVariable(r, checkVariableName(args[1], r, where, "getopts"), NOT_A_NUMBER, where);
  else if (name === "wait") waitTarget(args, r, where);
  else if (name === "test") testNames(args, r, where);
  else if (name === "source" || name === ".") throw new Unreadable(`\`${where}\` runs the commands of a file, which Baton cannot read`);
  else if (name === "let") return args.map((arg) => letScript(arg, where));
  else if (name === "trap") return trapScript(args);
  return [];
}

/** A word given to a declaration builtin, as an option, a name or an assignment. */
export function wordArg(word: ShellWord, builtin: string, where: string, r: Variables): DeclarationArg {
  if (!word.dynamic && /^[-+][A-Za-z]+$/.test(word.value)) return { kind: "options", letters: word.value.slice(1), on: word.value.startsWith("-") };
  if (!word.dynamic && word.value === "--") return { kind: "options", letters: "", on: true };
  if (!word.dynamic) {
    const assignment = /^([A-Za-z_][A-Za-z0-9_]*)(\[.*\])?\+?=(.*)$/s.exec(word.value);
    if (assignment !== null) {
      const [, name, subscript, value] = assignment;
      if (subscript !== undefined) checkVariableName({ value: `${name}${subscript}`, dynamic: false }, r, where, builtin);
      return { kind: "assign", name: name!, element: subscript !== undefined, value: assignedValue(value), compound: false, dynamic: false };
    }
    return { kind: "name", name: checkVariableName(word, r, where, builtin) };
  }
  // `export FOO="$x"`: the name is literal, the value is not.
  const named = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/.exec(word.value);
  if (named !== null) return { kind: "assign", name: named[1]!, element: false, value: NOT_A_NUMBER, compound: false, dynamic: true };
  throw new Unreadable(`\`${where}\`: \`${word.value}\` gives ${builtin} a variable only known when the shell runs, which could be PATH or one that makes programs run other code`);
}

/** `declare`, `typeset`, `local`, `export`, `readonly` with their arguments. */
export function applyDeclaration(builtin: string, args: readonly DeclarationArg[], r: Variables, where: string): void {
  const letters = args.filter((a): a is Extract<DeclarationArg, { kind: "options" }> => a.kind === "options" && a.on).map((a) => a.letters).join("");
  // `export -n` takes the export away; for the others `-n` makes a nameref.
  if (letters.includes("n") && builtin !== "export") {
    throw new Unreadable(`\`${where}\` makes a nameref (\`${builtin} -n\`): assigning to it sets the variable its value names, which could be PATH or any other`);
  }
  // Functions (`-f`) and printing (`-p`) set no variable.
  if (/[fFp]/.test(letters)) return;
  const integer = letters.includes("i");
  const array = /[aA]/.test(letters);
  for (const arg of args) {
    if (arg.kind === "options") continue;
    if (letters.includes("A")) r.shell.assoc.add(arg.name);
    if (integer) declareInteger(r, arg.name, where);
    // `local PATH` (and `declare PATH` in a function) is a new, empty variable: PATH unset makes bash search the cwd.
    if (arg.kind === "name") {
      if (!(builtin === "export" || builtin === "readonly")) unsetVariable(r, arg.name);
      continue;
    }
    if (integer && !arg.value.number) {
      throw new Unreadable(`\`${where}\` assigns to an integer variable, so bash evaluates the value as an arithmetic expression, and a value like \`a[$(cmd)]\` runs cmd`);
    }
    if (array && !arg.compound && (arg.dynamic || arg.value.literal?.trimStart().startsWith("(") === true)) {
      throw new Unreadable(`\`${where}\` gives an array a string to read as a compound assignment, whose subscripts bash evaluates (\`[$(cmd)]=x\` runs cmd); write the array as \`${arg.name}=(…)\``);
    }
    if (arg.element && arg.value.number) r.assigned.push(arg.name);
    else assignVariable(r, arg.name, arg.value, where);
  }
}

/** `unset [-fvn] name…`: the variables are changed (PATH unset makes bash search the cwd). */
export function applyUnset(args: readonly ShellWord[], r: Variables, where: string): void {
  let functions = false;
  for (const arg of args) {
    if (!arg.dynamic && /^-[fvn]+$/.test(arg.value)) {
      functions ||= arg.value.includes("f");
      continue;
    }
    if (functions) continue;
    unsetVariable(r, checkVariableName(unquotedName(arg), r, where, "unset"));
  }
}

/** `printf -v name …`. */
function printfTarget(args: readonly ShellWord[], r: Variables, where: string): void {
  const first = args[0];
  if (first === undefined) return;
  if (first.dynamic) {
    if (/^["']?-/.test(first.value)) throw new Unreadable(`\`${where}\`: \`${first.value}\` is only known when the shell runs, and it could be printf's -v, which names a variable to set`);
    return;
  }
  if (!first.value.startsWith("-v")) return;
  const target = first.value === "-v" ? args[1] : { value: first.value.slice(2), dynamic: false };
  if (target === undefined) return;
  assignVariable(r, checkVariableName(unquotedName(target), r, where, "printf -v"), NOT_A_NUMBER, where);
}

/** Options of `read`, `mapfile`, `wait` (bash's internal_getopt): the values of `valued` letters, and the operands. */
function getopt(args: readonly ShellWord[], valued: string, where: string): { readonly values: Map<string, ShellWord>; readonly operands: readonly ShellWord[] } {
  const values = new Map<string, ShellWord>();
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i]!;
    if (word.dynamic) {
      if (/^["']?-/.test(word.value)) throw new Unreadable(`\`${where}\`: \`${word.value}\` is only known when the shell runs, and it could be an option naming a variable`);
      break;
    }
    if (word.value === "--") {
      i++;
      break;
    }
    if (!/^-./.test(word.value)) break;
    for (let j = 1; j < word.value.length; j++) {
      const letter = word.value[j]!;
      if (!valued.includes(letter)) continue;
      const attached = word.value.slice(j + 1);
      const value = attached !== "" ? { value: attached, dynamic: false } : args[++i];
      if (value !== undefined) values.set(letter, value);
      break;
    }
  }
  return { values, operands: args.slice(i) };
}

/** `read [-a array] [name…]` (REPLY when none). */
function readTargets(args: readonly ShellWord[], r: Variables, where: string): void {
  const { values, operands } = getopt(args, "adinNptu", where);
  const array = values.get("a");
  const names = [...(array !== undefined ? [array] : []), ...operands];
  if (names.length === 0) names.push({ value: "REPLY", dynamic: false });
  for (const name of names) assignVariable(r, checkVariableName(unquotedName(name), r, where, "read"), NOT_A_NUMBER, where);
}

/** `mapfile [-C callback] [name]` (MAPFILE when none): the callback is code. */
function mapfileTarget(builtin: string, args: readonly ShellWord[], r: Variables, where: string): void {
  const { values, operands } = getopt(args, "dunOCcs", where);
  if (values.has("C")) throw new Unreadable(`\`${where}\`: ${builtin} -C runs a callback, code Baton does not read`);
  const name = operands[0] ?? { value: "MAPFILE", dynamic: false };
  assignVariable(r, checkVariableName(unquotedName(name), r, where, builtin), NOT_A_NUMBER, where);
}

/** `wait -p name`. */
function waitTarget(args: readonly ShellWord[], r: Variables, where: string): void {
  const name = getopt(args, "p", where).values.get("p");
  if (name !== undefined) assignVariable(r, checkVariableName(unquotedName(name), r, where, "wait -p"), NOT_A_NUMBER, where);
}

/** `test -v name`. */
function testNames(args: readonly ShellWord[], r: Variables, where: string): void {
  for (let i = 0; i + 1 < args.length; i++) {
    if (!args[i]!.dynamic && args[i]!.value === "-v") checkVariableName(unquotedName(args[i + 1]!), r, where, "test -v");
  }
}

/** `a[1]` in a command's words reads as a glob to the word reader; as a name it is literal text. */
function unquotedName(word: ShellWord): ShellWord {
  return word.dynamic && !/[$`'"\\]/.test(word.value) ? { value: word.value, dynamic: false } : word;
}

/** Each argument of `let` is an arithmetic expression, read as `(( … ))`. */
function letScript(arg: ShellWord, where: string): BuiltinScript {
  if (arg.dynamic) throw new Unreadable(`\`${where}\`: let evaluates \`${arg.value}\` as an arithmetic expression, and it is only known when the shell runs`);
  return { script: { value: `(( ${arg.value} ))`, dynamic: false }, via: "let", later: false };
}

/** `trap [-lpP] [handler] signal…`: the handler runs later, as code. */
function trapScript(args: readonly ShellWord[]): readonly BuiltinScript[] {
  let i = 0;
  while (i < args.length && !args[i]!.dynamic && /^-[lpP]+$/.test(args[i]!.value)) i++;
  if (!args[i]?.dynamic && args[i]?.value === "--") i++;
  const operands = args.slice(i);
  // One operand is a signal to reset; `-` and '' reset or ignore.
  if (operands.length < 2) return [];
  const handler = operands[0]!;
  if (!handler.dynamic && (handler.value === "-" || handler.value === "")) return [];
  return [{ script: handler, via: "trap", later: true }];
}
