// Places in a Bash line where bash evaluates text as code although no reader of the line sees a
// command there (issue 31), read from the tree (shellCommands.ts calls these as it walks):
// * arithmetic: `$(( ))`, `$[ ]`, `(( ))`, `for (( ; ; ))`, array subscripts, `${x:off:len}`,
//   `[[ a -eq b ]]`. A variable's value is evaluated as an expression there, and `a[$(cmd)]`
//   in it runs cmd; shellVariables.ts decides which variables are known to hold numbers;
// * `-v name` in a test, whose subscript is evaluated the same way;
// * `${!x}` (x's value names the variable, and `a[$(cmd)]` runs cmd) and `${x@P}` (the value is
//   expanded as a prompt: `$(cmd)` in it runs);
// * assignments that no `=` shows: `${x:=…}`, `for x in …`.
// Each is read as bash would, or refused as unreadable with a reason that names it.

import type { ShellNode } from "./shellParser.js";
import { textOf, Unreadable } from "./shellTreeChecks.js";
import {
  A_NUMBER,
  assignedValue,
  assignVariable,
  NOT_A_NUMBER,
  readInArithmetic,
  type AssignedValue,
  type Variables,
} from "./shellVariables.js";
import { readWord } from "./shellWords.js";

export interface EvaluationReader extends Variables {
  readonly source: string;
}

const ASSIGNING: ReadonlySet<string> = new Set(["=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|=", "**="]);
const ARITHMETIC_TESTS: ReadonlySet<string> = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]);
/** `${x@Q}` and the others that only quote or change case; `@P` expands the value as a prompt. */
const HARMLESS_TRANSFORMS = "QEAKakULu";

/** The source of `node`, cut for a message. */
export function shown(node: ShellNode, source: string): string {
  const text = textOf(node, source);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

const operatorOf = (node: ShellNode): ShellNode | undefined => node.children.find((c) => c.field === "operator" || (!c.named && c.type !== "(" && c.type !== ")"));
const fieldOf = (node: ShellNode, field: string): ShellNode | undefined => node.children.find((c) => c.field === field);
const namedOf = (node: ShellNode): ShellNode[] => node.children.filter((c) => c.named);

/** An arithmetic expression `node`, in `where`: what it reads and what it assigns. */
export function checkArithmetic(node: ShellNode, r: EvaluationReader, where: string): void {
  const text = textOf(node, r.source);
  switch (node.type) {
    case "number":
    case "arithmetic_expansion":
      // A nested expansion is a context of its own; its result is a number.
      return;
    case "variable_name":
      readInArithmetic(r, text, where);
      return;
    case "word":
      for (const name of identifiers(text)) readInArithmetic(r, name, where);
      return;
    case "subscript": {
      // The element's value is evaluated; the index is checked where the walk meets the subscript.
      const name = fieldOf(node, "name");
      if (name !== undefined) readInArithmetic(r, textOf(name, r.source), where);
      return;
    }
    case "simple_expansion":
    case "expansion": {
      const name = expandedName(node, r.source);
      if (name !== undefined) readInArithmetic(r, name, where);
      for (const child of namedOf(node).slice(1)) checkArithmetic(child, r, where);
      return;
    }
    case "command_substitution":
    case "process_substitution":
      throw new Unreadable(`\`${shown(node, r.source)}\` in \`${where}\`: bash evaluates its output as an arithmetic expression, and an output like \`a[$(cmd)]\` runs cmd; compare with \`[ … -gt … ]\` (test), which does not evaluate`);
    case "raw_string":
    case "ansi_c_string":
    case "string_content":
      if (/[[$`]/.test(text)) throw new Unreadable(`\`${text}\` in \`${where}\`: bash evaluates quoted text in arithmetic as an expression`);
      for (const name of identifiers(text)) readInArithmetic(r, name, where);
      return;
    case "binary_expression": {
      const operator = operatorOf(node);
      const op = operator === undefined ? "" : textOf(operator, r.source);
      const [left, right] = [fieldOf(node, "left"), fieldOf(node, "right")];
      if (ASSIGNING.has(op) && left !== undefined) {
        assignArithmetic(left, r, where, op !== "=");
        if (right !== undefined) checkArithmetic(right, r, where);
        return;
      }
      break;
    }
    case "postfix_expression":
    case "unary_expression": {
      const operator = operatorOf(node);
      const operand = namedOf(node)[0];
      if (operator !== undefined && /^(?:\+\+|--)$/.test(textOf(operator, r.source)) && operand !== undefined) {
        assignArithmetic(operand, r, where, true);
        return;
      }
      break;
    }
    default:
      break;
  }
  for (const child of namedOf(node)) checkArithmetic(child, r, where);
}

/** `x = …`, `x += …`, `x++` in arithmetic: the result is a number; `reads` when the old value is evaluated too. */
function assignArithmetic(target: ShellNode, r: EvaluationReader, where: string, reads: boolean): void {
  if (target.type === "subscript") {
    const name = fieldOf(target, "name");
    if (name === undefined) return;
    if (reads) readInArithmetic(r, textOf(name, r.source), where);
    // One element is a number now; what the others hold is as unknown as before.
    r.assigned.push(textOf(name, r.source));
    return;
  }
  const names = target.type === "variable_name" ? [textOf(target, r.source)] : identifiers(textOf(target, r.source));
  for (const name of names) {
    if (reads) readInArithmetic(r, name, where);
    assignVariable(r, name, A_NUMBER, where);
  }
}

/** Names in an arithmetic word (`i`, `n+1`, `a[j]`), numbers (`0x1F`, `8#17`) left out. */
function identifiers(text: string): string[] {
  const words = text.replace(/\b\d+#[0-9A-Za-z@_]+|\b0[xX][0-9A-Fa-f]+|\b\d+/g, " ");
  return words.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [];
}

/** The variable `$x`, `${x…}` or `${a[i]…}` expands; undefined for `${#x}` (a length, a number). */
function expandedName(node: ShellNode, source: string): string | undefined {
  const children = node.children;
  const first = children.find((c) => c.type !== "$" && c.type !== "${");
  if (first !== undefined && !first.named && first.type === "#") return undefined;
  const name = children.find((c) => c.type === "variable_name" || c.type === "special_variable_name" || c.type === "subscript");
  if (name === undefined) return undefined;
  if (name.type === "subscript") {
    const inner = fieldOf(name, "name");
    return inner === undefined ? undefined : textOf(inner, source);
  }
  return textOf(name, source);
}

/** `a[i]`: for an indexed array the index is arithmetic; an associative array's is a string. */
export function checkSubscript(node: ShellNode, r: EvaluationReader, where: string): void {
  const name = fieldOf(node, "name");
  const index = fieldOf(node, "index");
  if (name === undefined || index === undefined || r.shell.assoc.has(textOf(name, r.source))) return;
  const text = textOf(index, r.source);
  if (index.type === "number" || /^\s*(?:\d+|[@*])\s*$/.test(text)) return;
  checkArithmetic(index, r, where);
}

/** `${…}`: indirect expansion, prompt expansion, substring offsets, `:=` assignments. */
export function checkExpansion(node: ShellNode, r: EvaluationReader, where: string): void {
  const parts = node.children.filter((c) => c.type !== "${" && c.type !== "}");
  const first = parts[0];
  if (first !== undefined && !first.named && first.type === "!") {
    const target = parts[1];
    const listing = parts[2] !== undefined && !parts[2].named && (parts[2].type === "*" || parts[2].type === "@");
    const keys = target?.type === "subscript" && /^[@*]$/.test(textOf(fieldOf(target, "index") ?? target, r.source));
    if (!listing && !keys) {
      throw new Unreadable(`\`${shown(node, r.source)}\` is indirect expansion: the value of a variable names the one expanded, and a name like \`a[$(cmd)]\` runs cmd`);
    }
    return;
  }
  const name = expandedName(node, r.source);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.named) continue;
    const op = part.type;
    if (op === "@") {
      const letter = parts[i + 1];
      const transform = letter === undefined ? "" : textOf(letter, r.source);
      if (!HARMLESS_TRANSFORMS.includes(transform) || transform.length !== 1) {
        throw new Unreadable(`\`${shown(node, r.source)}\`: the \`@${transform}\` transformation expands the value as a prompt, and \`$(cmd)\` in it runs`);
      }
      return;
    }
    if (op === ":") {
      // `${x:offset:length}`: both are arithmetic.
      for (let j = i + 1; j < parts.length && parts[j]!.named; j++) checkArithmetic(parts[j]!, r, where);
    }
    if ((op === ":=" || op === "=") && name !== undefined) {
      const value = parts.slice(i + 1).find((p) => p.named);
      assignVariable(r, name, value === undefined ? assignedValue("") : valueOf(value, r), where);
      return;
    }
  }
}

/** `[[ … ]]` and `[ … ]`: `-v name[sub]`, and in `[[ ]]` the arithmetic comparisons. */
export function checkTest(node: ShellNode, r: EvaluationReader, where: string): void {
  const double = node.children[0]?.type === "[[";
  const walk = (n: ShellNode): void => {
    if (n.type === "unary_expression") {
      const operator = n.children.find((c) => c.type === "test_operator");
      const operand = namedOf(n).find((c) => c !== operator);
      if (operator !== undefined && textOf(operator, r.source) === "-v" && operand !== undefined) {
        checkVariableName(nameWord(operand, r.source), r, where, "-v");
        return;
      }
    }
    if (double && n.type === "binary_expression") {
      const operator = n.children.find((c) => c.type === "test_operator");
      if (operator !== undefined && ARITHMETIC_TESTS.has(textOf(operator, r.source))) {
        for (const side of [fieldOf(n, "left"), fieldOf(n, "right")]) if (side !== undefined) checkArithmetic(side, r, where);
        return;
      }
    }
    for (const child of namedOf(n)) walk(child);
  };
  walk(node);
}

const EXPANDING = /^(?:simple_expansion|expansion|command_substitution|process_substitution|arithmetic_expansion)$/;

function expands(node: ShellNode): boolean {
  return EXPANDING.test(node.type) || node.children.some(expands);
}

/** A word that names a variable: `a[1]` is a name here, not a glob (`[[ ]]` does not glob). */
export function nameWord(node: ShellNode, source: string): { value: string; dynamic: boolean } {
  if (expands(node)) return { value: textOf(node, source), dynamic: true };
  const word = readWord(node, source);
  return word.dynamic ? { value: textOf(node, source), dynamic: false } : word;
}

/**
 * A word that names a variable to a builtin (`-v`, `printf -v`, `read`, `unset`): a plain name, or
 * an element whose subscript is a number; anything else is evaluated or only known at run time.
 */
export function checkVariableName(word: { readonly value: string; readonly dynamic: boolean }, r: Variables, where: string, what: string): string {
  if (word.dynamic) throw new Unreadable(`\`${where}\`: ${what} names a variable only known when the shell runs, which could be any variable or an element like \`a[$(cmd)]\``);
  const element = /^([A-Za-z_][A-Za-z0-9_]*)\[(.*)\]$/s.exec(word.value);
  if (element !== null) {
    const [, name, index] = element;
    if (/^\s*(?:\d+|[@*])\s*$/.test(index!) || r.shell.assoc.has(name!)) return name!;
    if (/^\s*[A-Za-z_][A-Za-z0-9_]*\s*$/.test(index!)) {
      readInArithmetic(r, index!.trim(), where);
      return name!;
    }
    throw new Unreadable(`\`${where}\`: ${what} names the element \`${word.value}\`, whose subscript bash evaluates as an arithmetic expression (\`$(cmd)\` in it runs)`);
  }
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(word.value)) throw new Unreadable(`\`${where}\`: ${what} names \`${word.value}\`, which is not a variable Baton can read`);
  return word.value;
}

/** `for x in …` and `select x in …`: x is assigned each value. */
export function loopVariable(node: ShellNode, r: EvaluationReader, where: string): void {
  const variable = fieldOf(node, "variable");
  if (variable === undefined) return;
  const values = node.children.filter((c) => c.field === "value").map((c) => readWord(c, r.source));
  const numbers = node.children[0]?.type === "for" && values.length > 0 && values.every((w) => !w.dynamic && /^[+-]?\d+$/.test(w.value));
  assignVariable(r, textOf(variable, r.source), numbers ? A_NUMBER : NOT_A_NUMBER, where);
}

/** A variable_assignment node (`x=1`, `a[i]=v`, `x+=1`, `a=(1 2)`); `temporary` for `x=1 cmd`. */
export function readAssignment(node: ShellNode, r: EvaluationReader, where: string, temporary: boolean): string {
  const target = fieldOf(node, "name") ?? node;
  const element = target.type === "subscript";
  const name = textOf(element ? (fieldOf(target, "name") ?? target) : target, r.source);
  const appends = node.children.some((c) => !c.named && c.type === "+=");
  const valueNode = fieldOf(node, "value");
  let value = valueNode === undefined ? assignedValue("") : valueOf(valueNode, r, r.shell.assoc.has(name));
  if (appends && !(value.number && r.shell.numbers.has(name))) value = NOT_A_NUMBER;
  // One element set to a number says nothing of the others.
  if (element && value.number) {
    if (!temporary) r.assigned.push(name);
    return name;
  }
  assignVariable(r, name, value, where, temporary);
  return name;
}

/** What an assignment's value node stores (`assoc`: to an associative array). */
export function valueOf(node: ShellNode, r: EvaluationReader, assoc = false): AssignedValue {
  if (node.type === "number" || node.type === "arithmetic_expansion") return A_NUMBER;
  if (node.type === "string") {
    const inner = namedOf(node);
    if (inner.length === 1 && inner[0]!.type === "arithmetic_expansion") return A_NUMBER;
  }
  if (node.type === "array") return arrayValue(node, r, assoc);
  const word = readWord(node, r.source);
  return assignedValue(word.dynamic ? undefined : word.value);
}

/** `(1 2 [5]=3)`: numbers when every element is; `[k]=` subscripts are arithmetic for an indexed array. */
function arrayValue(node: ShellNode, r: EvaluationReader, assoc: boolean): AssignedValue {
  let numbers = true;
  for (const element of namedOf(node)) {
    if (element.type === "number") continue;
    const keyed = element.type === "concatenation" && element.children[0]?.type === "word" && textOf(element.children[0], r.source) === "[";
    if (keyed && assoc) numbers = false;
    else if (keyed) {
      const close = element.children.findIndex((c) => c.type === "word" && textOf(c, r.source).startsWith("]"));
      for (const part of element.children.slice(1, close < 0 ? undefined : close)) {
        if (!/^\s*\d+\s*$/.test(textOf(part, r.source))) checkArithmetic(part, r, textOf(node, r.source));
      }
      const after = textOf(element, r.source).replace(/^.*?\]=/s, "");
      if (!/^[+-]?\d+$/.test(after)) numbers = false;
    }
    if (keyed) continue;
    const word = readWord(element, r.source);
    if (word.dynamic || !/^[+-]?\d+$/.test(word.value)) numbers = false;
  }
  return numbers ? A_NUMBER : NOT_A_NUMBER;
}
