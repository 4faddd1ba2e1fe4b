// The writes a line would make: redirections, `tee`, `dd of=`, and what commands' options write
// (commandEffects.ts), each with the folder change the shell may have made before it is opened.

import { programName } from "./commandWrappers.js";
import { within } from "../effects/effectSpec.js";
import { WRITE_COST } from "./shellBudget.js";
import type { ShellNode } from "./shellParser.js";
import type { PendingWrite, Reader, ShellWrite, WriteOperator } from "./shellReading.js";
import { textOf } from "./shellTreeChecks.js";
import { literalWord, readWord, type ShellWord } from "./shellWords.js";

const WRITE_OPERATORS: ReadonlySet<string> = new Set([">", ">>", ">|", "&>", "&>>", ">&", "<>"]);
const NOT_FILES = /^\/dev\/(?:null|stdout|stderr|tty|fd\/\d+)$/;

/** The destinations after the first: words of the command (see readRedirected). */
export function redirectExtras(redirect: ShellNode, r: Reader): ShellWord[] {
  return redirect.children
    .filter((c) => c.field === "destination")
    .slice(1)
    .map((c) => readWord(c, r.source));
}

export function readRedirect(node: ShellNode, r: Reader): void {
  const operator = node.children.find((c) => !c.named)?.type ?? "";
  const destination = node.children.find((c) => c.field === "destination");
  if (!WRITE_OPERATORS.has(operator) || destination === undefined) return;
  const target = readWord(destination, r.source);
  // `>&2` and `2>&1` duplicate a descriptor; `>& file` writes the file.
  if (operator === ">&" && !target.dynamic && /^(?:\d+|-)$/.test(target.value)) return;
  addWrite(operator as WriteOperator, target, textOf(node, r.source), r);
}

export function addWrite(operator: WriteOperator, target: ShellWord, written: string, r: Reader): void {
  if (!target.dynamic && NOT_FILES.test(target.value)) return;
  r.budget.charge(WRITE_COST, "too many writes");
  r.writes.push({ write: { operator, target: within(r.base, target), text: written }, movedBy: r.shell.movedBy, deferred: r.shell.deferred });
}

const TEE_FLAGS = /^-(?:[aip]+|-append|-ignore-interrupts|-output-error(?:=.*)?)$/;

export function commandWrites(written: string, words: readonly ShellWord[], r: Reader): void {
  const name = words[0] === undefined ? undefined : programName(words[0]);
  if (name === "tee") {
    let options = true;
    for (const word of words.slice(1)) {
      if (options && !word.dynamic && word.value === "--") {
        options = false;
        continue;
      }
      if (options && !word.dynamic && TEE_FLAGS.test(word.value)) continue;
      addWrite("tee", word, written, r);
    }
  } else if (name === "dd") {
    for (const word of words.slice(1)) {
      if (!word.dynamic && word.value.startsWith("of=")) addWrite("dd", literalWord(word.value.slice(3)), written, r);
      else if (word.dynamic && /^["']?of=/.test(word.value)) addWrite("dd", word, written, r);
    }
  }
}

/** The writes once the whole line is read: one in a loop, function or trap body comes after any folder change of the line. */
export function settledWrites(writes: readonly PendingWrite[], firstMove: string | undefined): ShellWrite[] {
  return writes.map(({ write, movedBy, deferred }) => {
    const afterCd = movedBy ?? (deferred ? firstMove : undefined);
    return afterCd === undefined ? write : { ...write, afterCd };
  });
}
