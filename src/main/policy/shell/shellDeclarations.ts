// tree-sitter's declaration_command (`export`, `declare`, `local`, `typeset`, `readonly`) and
// unset_command, read into a command and what they do to the shell's variables (shellBuiltins.ts).

import { applyDeclaration, applyUnset, wordArg, type DeclarationArg } from "./shellBuiltins.js";
import { nameWord, shown, valueOf } from "./shellEvaluation.js";
import type { ShellNode } from "./shellParser.js";
import type { Reader } from "./shellReading.js";
import { textOf } from "./shellTreeChecks.js";
import { assignedValue } from "./shellVariables.js";
import { literalWord, readWord, type ShellWord } from "./shellWords.js";

const text = (node: ShellNode, r: Reader): string => textOf(node, r.source);
const named = (node: ShellNode): ShellNode[] => node.children.filter((c) => c.named);

/** `export PATH=… X`, `local x=$(…)`, `declare -n r`: a builtin with words; what it assigns lasts. */
export function readDeclaration(node: ShellNode, r: Reader): void {
  const builtin = node.children.find((c) => !c.named)?.type ?? "declare";
  const where = shown(node, r.source);
  const words: ShellWord[] = [literalWord(builtin)];
  const args: DeclarationArg[] = [];
  const options = node.children.filter((c) => c.type === "word" && /^[-+][A-Za-z]+$/.test(text(c, r)));
  const assoc = options.some((o) => text(o, r).startsWith("-") && text(o, r).includes("A"));
  for (const child of node.children) {
    if (!child.named || child.type === "comment") continue;
    if (child.type === "variable_assignment") {
      const name = assignedName(child, r);
      if (assoc) r.shell.assoc.add(name);
      const valueNode = child.children.find((c) => c.field === "value");
      const read = valueNode === undefined ? literalWord("") : readWord(valueNode, r.source);
      const value = valueNode === undefined ? assignedValue("") : valueOf(valueNode, r, assoc);
      const element = child.children.find((c) => c.field === "name")?.type === "subscript";
      args.push({ kind: "assign", name, element, value, compound: valueNode?.type === "array", dynamic: read.dynamic });
      words.push({ value: `${text(child.children.find((c) => c.field === "name") ?? child, r)}=${read.value}`, dynamic: read.dynamic });
      continue;
    }
    const word = child.type === "variable_name" ? literalWord(text(child, r)) : nameWord(child, r.source);
    words.push(word);
    args.push(wordArg(word, builtin, where, r));
  }
  applyDeclaration(builtin, args, r, where);
  r.commands.push({ text: text(node, r), words, assigns: [...r.assigns], wrappers: [...r.wrappers], ...(r.launchedBy !== undefined ? { launchedBy: r.launchedBy } : {}) });
}

/** `unset PATH x 'a[1]'`. */
export function readUnset(node: ShellNode, r: Reader): void {
  const where = shown(node, r.source);
  const words = named(node)
    .filter((c) => c.type !== "comment")
    .map((c) => (c.type === "variable_name" ? literalWord(text(c, r)) : nameWord(c, r.source)));
  applyUnset(words, r, where);
  r.commands.push({ text: text(node, r), words: [literalWord("unset"), ...words], assigns: [...r.assigns], wrappers: [...r.wrappers], ...(r.launchedBy !== undefined ? { launchedBy: r.launchedBy } : {}) });
}

/** The variable an assignment node sets (`a` for `a[1]=x`). */
export function assignedName(assignment: ShellNode, r: Reader): string {
  const nameNode = assignment.children.find((c) => c.field === "name");
  const name = text(nameNode ?? assignment, r);
  const bracket = name.indexOf("[");
  return bracket < 0 ? name : name.slice(0, bracket);
}
