// A Bash line read into what it would run: every simple command, wherever it sits (lists,
// pipelines, subshells, groups, `$(…)`, backticks, `<(…)`, function bodies, control structures,
// heredoc bodies that expand), with wrappers looked through (commandWrappers.ts) and the scripts of
// `bash -c`, `eval`, `trap` and `let` read again; and every write its redirections, `tee` and `dd
// of=` would make, with the folder change it may come after. What a command's options do
// (commandEffects.ts) adds writes (`sort -o f`), commands of their own (`find -exec rm {} ;`, `pnpm
// exec npm`) and a reason a command cannot be known (`git -c …`: `opaque`). Where bash runs data as
// code (shellEvaluation.ts, shellBuiltins.ts) the line is read as bash would or refused.
// Whatever cannot be read for certain is `{ ok: false }`: the exec policy denies it. Reading is
// bounded by a work budget (shellBudget.ts): past it, the line is "too complex to check".

import { commandEffects } from "../effects/commandEffects.js";
import { unwrapCommand } from "./commandWrappers.js";
import { within } from "../effects/effectSpec.js";
import { harmlessAssignment } from "./runtimeVariables.js";
import { backtickScript, heredocBacktickScripts } from "./shellBackticks.js";
import { COMMAND_COST, NODE_COST, ShellBudget, WORK_BUDGET } from "./shellBudget.js";
import { readBuiltin, type BuiltinScript } from "./shellBuiltins.js";
import { assignedName, readDeclaration, readUnset } from "./shellDeclarations.js";
import { checkArithmetic, checkExpansion, checkSubscript, checkTest, loopVariable, readAssignment, shown } from "./shellEvaluation.js";
import { parseShell, type ShellNode } from "./shellParser.js";
import type { CommandLineReading, Reader, SimpleCommand } from "./shellReading.js";
import { checkComments, checkGaps, checkHeredocEnd, droppedDash, EndsCommandHere, isReservedWord, textOf, Unreadable } from "./shellTreeChecks.js";
import { A_NUMBER, assignVariable, LineFacts, ShellScope } from "./shellVariables.js";
import { addWrite, commandWrites, readRedirect, redirectExtras, settledWrites } from "./shellWrites.js";
import { literalWord, readWord, type ShellWord } from "./shellWords.js";

export type { ShellWord } from "./shellWords.js";
export type { CommandLineReading, ShellWrite, SimpleCommand, WriteOperator } from "./shellReading.js";

/** Longer lines are not read (a pathological input must not stall the hook). */
export const MAX_LINE_LENGTH = 200_000;
/** `bash -c "bash -c '…'"` is read this many levels deep, no deeper. */
export const MAX_SCRIPT_DEPTH = 4;
const MAX_NESTING = 250;
/** Places per script where a `;` is put back for the grammar (EndsCommandHere). */
const MAX_REPAIRS = 64;

export function readCommandLine(line: string): CommandLineReading {
  if (line.length > MAX_LINE_LENGTH) return { ok: false, reason: `the command is longer than ${MAX_LINE_LENGTH} characters`, work: 0 };
  const budget = new ShellBudget(WORK_BUDGET);
  const reader: Reader = {
    source: line,
    depth: 0,
    wrappers: [],
    assigns: [],
    commands: [],
    writes: [],
    assigned: [],
    placedTokens: new Set(),
    extraWords: new Map(),
    budget,
    shell: ShellScope.fresh(),
    facts: new LineFacts(),
  };
  try {
    const read = readScript(reader, line);
    if (read !== undefined) return { ok: false, reason: read, work: budget.used };
  } catch (error) {
    if (error instanceof Unreadable) return { ok: false, reason: error.message, work: budget.used };
    if (error instanceof RangeError) return { ok: false, reason: "the command is nested too deeply to read", work: budget.used };
    throw error;
  }
  const afterAll = reader.facts.verify();
  if (afterAll !== undefined) return { ok: false, reason: afterAll, work: budget.used };
  return { ok: true, commands: reader.commands, writes: settledWrites(reader.writes, reader.facts.firstMove), assigned: reader.assigned, work: budget.used };
}

/** The words' values, for callers that match argv lists (the person's rules). */
export function argvOf(command: SimpleCommand): readonly string[] {
  return command.words.map((w) => w.value);
}

/** Reads `script` into `into` (its commands, writes, assigned, shell state); a reason when it cannot be read. */
function readScript(into: Reader, script: string): string | undefined {
  let source = script;
  for (let repairs = 0; repairs <= MAX_REPAIRS; repairs++) {
    // A repair reads the script again from the state it started in.
    into.budget.charge(into.shell.numbers.size + into.facts.notNumbers.size + into.facts.trusted.size, "too many variables");
    const attempt: Reader = { ...into, source, commands: [], writes: [], assigned: [], placedTokens: new Set(), extraWords: new Map(), shell: into.shell.copy(), facts: into.facts.copy() };
    let endsAt: number | undefined;
    const tree = parseShell(source, into.budget);
    if (tree === undefined) return "the shell parser is not loaded";
    if (!tree.ok) return tree.reason;
    try {
      visit(tree.root, attempt, 0);
    } catch (error) {
      if (!(error instanceof EndsCommandHere)) throw error;
      endsAt = error.at;
    }
    if (endsAt !== undefined) {
      source = `${source.slice(0, endsAt)};${source.slice(endsAt)}`;
      continue;
    }
    for (const command of attempt.commands) into.commands.push(command);
    for (const write of attempt.writes) into.writes.push(write);
    for (const name of attempt.assigned) into.assigned.push(name);
    into.shell.adopt(attempt.shell);
    into.facts.adopt(attempt.facts);
    return undefined;
  }
  return "cannot tell where its commands end";
}

const named = (node: ShellNode): ShellNode[] => node.children.filter((c) => c.named);
const text = (node: ShellNode, r: Reader): string => textOf(node, r.source);
/** A copy of `r` for a subshell: what it changes in its shell stays inside. */
const subshell = (r: Reader): Reader => ({ ...r, shell: r.shell.copy() });

type Owner = "command" | "declaration" | undefined;

function visit(node: ShellNode, r: Reader, nesting: number, owner?: Owner): void {
  if (nesting > MAX_NESTING) throw new Unreadable("the command is nested too deeply to read");
  r.budget.charge(NODE_COST, "too many parts");
  checkComments(node);
  if (node.type !== "redirected_statement") checkGaps(node, r.source, r.placedTokens);
  switch (node.type) {
    case "comment":
      return;
    case "list":
    case "pipeline":
      visitChain(node, r, nesting);
      return;
    case "redirected_statement":
      readRedirected(node, r, nesting);
      return;
    case "command":
      readCommand(node, r, r.extraWords.get(node) ?? []);
      break;
    case "declaration_command":
      readDeclaration(node, r);
      break;
    case "unset_command":
      readUnset(node, r);
      break;
    case "variable_assignment":
      // A declaration reads its own assignments.
      if (owner !== "declaration") readAssignment(node, r, shown(node, r.source), owner === "command");
      break;
    case "file_redirect":
      readRedirect(node, r);
      break;
    case "heredoc_redirect":
      checkHeredocEnd(node, r.source);
      for (const script of heredocBacktickScripts(node, r.source)) readSubstitution(script, node, r);
      break;
    case "command_substitution": {
      const escaped = backtickScript(node, r.source);
      if (escaped !== undefined) readSubstitution(escaped, node, r);
      else visitChildren(node, subshell(r), nesting);
      return;
    }
    case "subshell":
    case "process_substitution":
      visitChildren(node, subshell(r), nesting);
      return;
    case "arithmetic_expansion":
      for (const child of named(node)) checkArithmetic(child, r, shown(node, r.source));
      break;
    case "compound_statement":
      if (node.children[0]?.type === "((") for (const child of named(node)) checkArithmetic(child, r, shown(node, r.source));
      break;
    case "c_style_for_statement":
      readArithmeticFor(node, r);
      visitLater(node, r, nesting, false);
      return;
    case "for_statement":
      loopVariable(node, r, shown(node, r.source));
      visitLater(node, r, nesting, false);
      return;
    case "while_statement":
      visitLater(node, r, nesting, false);
      return;
    case "function_definition":
      visitLater(node, r, nesting, true);
      return;
    case "subscript":
      checkSubscript(node, r, shown(node, r.source));
      break;
    case "expansion":
      checkExpansion(node, r, shown(node, r.source));
      break;
    case "test_command":
      checkTest(node, r, shown(node, r.source));
      break;
    default:
      break;
  }
  const owns: Owner = node.type === "command" ? "command" : node.type === "declaration_command" ? "declaration" : undefined;
  for (const child of node.children) if (child.named) visit(child, r, nesting + 1, owns);
}

/** A command substitution bash reads from text the tree does not show (shellBackticks.ts). */
function readSubstitution(script: string, node: ShellNode, r: Reader): void {
  if (r.depth + 1 > MAX_SCRIPT_DEPTH) throw new Unreadable(`substitutions inside substitutions deeper than ${MAX_SCRIPT_DEPTH} levels: \`${shown(node, r.source)}\``);
  const failed = readScript({ ...subshell(r), depth: r.depth + 1 }, script);
  if (failed !== undefined) throw new Unreadable(`cannot read \`${shown(node, r.source)}\`: ${failed}`);
}

function visitChildren(node: ShellNode, r: Reader, nesting: number): void {
  for (const child of node.children) if (child.named) visit(child, r, nesting + 1);
}

/**
 * A loop's or a function's body runs when the text does not say: its writes may come after any
 * folder change of the line. A function body knows nothing of the variables it will meet, and a
 * folder change in it moves its caller's shell from then on.
 */
function visitLater(node: ShellNode, r: Reader, nesting: number, isFunction: boolean): void {
  const inner: Reader = isFunction ? { ...r, shell: r.shell.later() } : r;
  const wasDeferred = inner.shell.deferred;
  inner.shell.deferred = true;
  try {
    visitChildren(node, inner, nesting);
  } finally {
    inner.shell.deferred = wasDeferred;
  }
  if (isFunction && inner.shell.movedBy !== r.shell.movedBy) r.shell.movedBy = inner.shell.movedBy;
}

/** `for ((i = 0; i < n; i++))`: each part is arithmetic; the initializer's assignments give numbers. */
function readArithmeticFor(node: ShellNode, r: Reader): void {
  const where = shown(node, r.source);
  for (const part of node.children) {
    if (part.field !== "initializer" && part.field !== "condition" && part.field !== "update") continue;
    if (part.type !== "variable_assignment") {
      checkArithmetic(part, r, where);
      continue;
    }
    const value = part.children.find((c) => c.field === "value");
    if (value !== undefined) checkArithmetic(value, r, where);
    assignVariable(r, assignedName(part, r), A_NUMBER, where);
  }
}

/**
 * `a && b || c …` is a left-leaning chain as deep as it is long; walked down its spine so a long
 * line is not mistaken for a deeply nested one. Each command of a pipeline runs in a subshell.
 */
function visitChain(node: ShellNode, r: Reader, nesting: number): void {
  const pipeline = node.type === "pipeline";
  const spine = [node];
  for (let first = node.children.find((c) => c.named); first?.type === node.type; first = first.children.find((c) => c.named)) {
    checkGaps(first, r.source, r.placedTokens);
    spine.push(first);
  }
  for (let i = spine.length - 1; i >= 0; i--) {
    const inner = spine[i + 1];
    for (const child of spine[i]!.children) {
      if (child.named && child !== inner) visit(child, pipeline ? subshell(r) : r, nesting + 1);
    }
  }
}

/**
 * `cmd > a b` runs `cmd b`: tree-sitter files `b` under the redirect, bash passes it to the
 * command. tree-sitter also hangs the redirects of `a && b > f` on the whole list; bash gives them
 * (and those words) to the last command, `b`. A redirection is opened before its command or
 * compound runs, so a `cd` inside that does not move where it writes.
 */
function readRedirected(node: ShellNode, r: Reader, nesting: number): void {
  const bodyAt = node.children.findIndex((c) => c.field === "body");
  const body = node.children[bodyAt];
  const target = lastCommand(body);
  const dash = droppedDash(target, node.children[bodyAt + 1], r.source, r.placedTokens);
  checkGaps(node, r.source, r.placedTokens, dash);
  const extras: ShellWord[] = dash === undefined ? [] : [literalWord("-")];
  for (const redirect of node.children) {
    if (redirect.field === "redirect" && redirect.type === "file_redirect") extras.push(...redirectExtras(redirect, r));
  }
  if (extras.length > 0) {
    if (target === undefined) throw new Unreadable(`cannot tell what runs in \`${shown(node, r.source)}\``);
    r.extraWords.set(target, extras);
  }
  // The redirections of a command or compound are opened before it runs: in the folder the shell
  // was in then. (Those tree-sitter hangs on a list belong to its last command: after the rest.)
  const opensBefore = body !== undefined && body.type !== "list" && body.type !== "pipeline";
  const movedBefore = r.shell.movedBy;
  for (const child of named(node)) {
    if (child === body || !opensBefore) {
      visit(child, r, nesting + 1);
      continue;
    }
    const movedAfterBody = r.shell.movedBy;
    r.shell.movedBy = movedBefore;
    visit(child, r, nesting + 1);
    r.shell.movedBy = movedAfterBody;
  }
}

function lastCommand(node: ShellNode | undefined): ShellNode | undefined {
  if (node === undefined || node.type === "command") return node;
  if (node.type !== "list" && node.type !== "pipeline") return undefined;
  const operands = named(node).filter((c) => c.type !== "comment");
  return lastCommand(operands[operands.length - 1]);
}

function readCommand(node: ShellNode, r: Reader, trailing: readonly ShellWord[]): void {
  const assigns: string[] = [];
  const words: ShellWord[] = [];
  const reserved = new Set<number>();
  for (const child of node.children) {
    if (child.type === "variable_assignment") {
      if (!harmlessPrefix(child, r)) assigns.push(assignedName(child, r));
    } else if (child.field === "name" || child.field === "argument") {
      if (isReservedWord(child, r.source)) reserved.add(words.length);
      words.push(readWord(child, r.source));
    } else if (child.type === "file_redirect") words.push(...redirectExtras(child, r));
    else if (child.named && !/_redirect$/.test(child.type) && child.type !== "comment") {
      throw new Unreadable(`cannot read \`${text(child, r)}\` in \`${shown(node, r.source)}\``);
    }
  }
  words.push(...trailing);
  addCommand(text(node, r), words, assigns, r, reserved);
}

/** `GIT_PAGER=cat git log`: a value known to change nothing is no assignment worth judging. */
function harmlessPrefix(assignment: ShellNode, r: Reader): boolean {
  const value = assignment.children.find((c) => c.field === "value");
  const word = value === undefined ? literalWord("") : readWord(value, r.source);
  return !word.dynamic && harmlessAssignment(assignedName(assignment, r), word.value);
}

function addCommand(written: string, words: readonly ShellWord[], assigns: readonly string[], r: Reader, reserved: ReadonlySet<number>): void {
  r.budget.charge(COMMAND_COST + words.length, "too many commands");
  const unwrapped = unwrapCommand(words, [...r.assigns, ...assigns]);
  const wrappers = [...r.wrappers, ...unwrapped.wrappers];
  const where = brief(written);
  if (unwrapped.kind === "run") {
    if (unwrapped.words.length === 0) return;
    // Wrappers only drop leading words, so the command word's place in `words` is known.
    if (reserved.has(words.length - unwrapped.words.length)) throw new Unreadable(`cannot read \`${where}\`: a reserved word where a command should be`);
    const effects = commandEffects(unwrapped.words, unwrapped.wrappers.includes("xargs"));
    r.commands.push({
      text: written,
      words: unwrapped.words,
      assigns: unwrapped.assigns,
      wrappers,
      ...(effects.opaque !== undefined ? { opaque: effects.opaque } : {}),
      ...(r.launchedBy !== undefined ? { launchedBy: r.launchedBy } : {}),
    });
    for (const script of readBuiltin(unwrapped.words, where, r)) readBuiltinScript(script, written, r);
    commandWrites(written, unwrapped.words, r);
    for (const write of effects.writes) addWrite(write.kind, write.target, written, r);
    for (const run of effects.runs) {
      const base = run.base === undefined ? r.base : within(r.base, run.base);
      const launched = run.launched === true ? { launchedBy: run.via } : r.launchedBy !== undefined ? { launchedBy: r.launchedBy } : {};
      const inner: Reader = { ...r, wrappers: [...wrappers, run.via], assigns: unwrapped.assigns, ...(base !== undefined ? { base } : {}), ...launched };
      if (run.script === true) readInnerScript(inner, written, literalOrDynamic(run.words), run.via, false);
      else addCommand(written, run.words, [], inner, new Set());
    }
    return;
  }
  readInnerScript({ ...r, wrappers, assigns: unwrapped.assigns }, written, unwrapped.script, unwrapped.wrappers.at(-1) ?? "", unwrapped.wrappers.at(-1) === "eval", unwrapped.why);
}

/** The words of a shell-mode launcher (`pnpm -c exec …`) joined into the script it runs. */
function literalOrDynamic(words: readonly ShellWord[]): ShellWord {
  return { value: words.map((w) => w.value).join(" "), dynamic: words.some((w) => w.dynamic) };
}

/**
 * A script a command hands to a shell (`bash -c S`, `eval S`): read again, in the same shell for
 * `eval`, in a new one (that starts in this one's folder) otherwise. Baton cannot know a script
 * the shell computes: its first word is what the policy judges, and it is dynamic.
 */
function readInnerScript(r: Reader, written: string, script: ShellWord, via: string, sameShell: boolean, why?: string): void {
  if (script.dynamic) {
    const opaque = why ?? `${via === "" ? "the shell" : via} runs a script only known when the shell runs it`;
    r.commands.push({ text: written, words: [script], assigns: r.assigns, wrappers: r.wrappers, opaque, ...(r.launchedBy !== undefined ? { launchedBy: r.launchedBy } : {}) });
    return;
  }
  if (r.depth + 1 > MAX_SCRIPT_DEPTH) throw new Unreadable(`shells inside shells deeper than ${MAX_SCRIPT_DEPTH} levels: \`${brief(written)}\``);
  const shell = sameShell ? r.shell : ShellScope.fresh(r.shell.movedBy, r.shell.deferred);
  const inner: Reader = { ...r, depth: r.depth + 1, shell };
  const failed = readScript(inner, script.value);
  if (failed !== undefined) throw new Unreadable(`cannot read the script of \`${brief(written)}\`: ${failed}`);
}

/** Code a builtin runs: `let`'s expressions now, `trap`'s handler later (its folder change moves the shell then). */
function readBuiltinScript(script: BuiltinScript, written: string, r: Reader): void {
  const inner: Reader = { ...r, wrappers: [...r.wrappers, script.via], shell: script.later ? r.shell.later() : r.shell };
  readInnerScript(inner, written, script.script, script.via, true, `${script.via} runs code only known when the shell runs it`);
  if (script.later && inner.shell.movedBy !== r.shell.movedBy) r.shell.movedBy = inner.shell.movedBy;
}

/** A command for a message: its first line, cut. */
function brief(written: string): string {
  const line = written.trim().split("\n")[0] ?? "";
  return line.length > 80 ? `${line.slice(0, 77)}…` : line;
}
