// A Bash line read into what it would run: every simple command, wherever it sits (lists,
// pipelines, subshells, groups, `$(…)`, backticks, `<(…)`, function bodies, control structures,
// heredoc bodies that expand), with wrappers looked through (commandWrappers.ts) and the scripts of
// `bash -c` / `eval` read again; and every write its redirections, `tee` and `dd of=` would make.
// What a command's options do (commandEffects.ts) adds writes (`sort -o f`), commands of their own
// (`find -exec rm {} ;`) and a reason a command cannot be known (`git -c …`: `opaque`).
// Whatever cannot be read for certain is `{ ok: false }`: the exec policy denies it.

import { commandEffects, type EffectWriteKind } from "./commandEffects.js";
import { programName, unwrapCommand } from "./commandWrappers.js";
import { within } from "./effectSpec.js";
import { parseShell, type ShellNode } from "./shellParser.js";
import { checkComments, checkGaps, droppedDash, EndsCommandHere, isReservedWord, textOf, Unreadable } from "./shellTreeChecks.js";
import { literalWord, readWord, type ShellWord } from "./shellWords.js";

export type { ShellWord } from "./shellWords.js";

export interface SimpleCommand {
  /** The command as written (the innermost source that holds it, e.g. inside a `bash -c` string). */
  readonly text: string;
  /** What runs: the command word first, after wrappers and assignment prefixes are removed. */
  readonly words: readonly ShellWord[];
  /** Variables set for this command only (`FOO=1 go test`, `env FOO=1 …`, and outer ones of `bash -c`). */
  readonly assigns: readonly string[];
  /** The wrappers looked through, outermost first: `["sudo", "env"]`, `["bash -c"]`. */
  readonly wrappers: readonly string[];
  /** Why Baton cannot know what it would do, although its words are known (`git -c k=v log`). */
  readonly opaque?: string;
}

/** A redirection, `tee`, `dd`, or what a command's options do (commandEffects.ts). */
export type WriteOperator = ">" | ">>" | ">|" | "&>" | "&>>" | ">&" | "<>" | "tee" | "dd" | EffectWriteKind;

export interface ShellWrite {
  readonly operator: WriteOperator;
  /** The file written; dynamic when the shell would compute it (`> "$out"`). */
  readonly target: ShellWord;
  /** The redirection or the command that writes, as written. */
  readonly text: string;
}

export type CommandLineReading =
  | {
      readonly ok: true;
      readonly commands: readonly SimpleCommand[];
      readonly writes: readonly ShellWrite[];
      /** Variables the line sets for what follows (`PATH=…`, `export PATH=…`, `declare`, `local`). */
      readonly assigned: readonly string[];
    }
  | { readonly ok: false; readonly reason: string };

/** Longer lines are not read (a pathological input must not stall the hook). */
export const MAX_LINE_LENGTH = 200_000;
/** `bash -c "bash -c '…'"` is read this many levels deep, no deeper. */
export const MAX_SCRIPT_DEPTH = 4;
const MAX_NESTING = 250;
/** Places per script where a `;` is put back for the grammar (EndsCommandHere). */
const MAX_REPAIRS = 64;

const WRITE_OPERATORS: ReadonlySet<string> = new Set([">", ">>", ">|", "&>", "&>>", ">&", "<>"]);
const NOT_FILES = /^\/dev\/(?:null|stdout|stderr|tty|fd\/\d+)$/;

interface Reader {
  readonly source: string;
  readonly depth: number;
  /** Outer wrappers and assignments of the `bash -c` this script came from. */
  readonly wrappers: readonly string[];
  readonly assigns: readonly string[];
  readonly commands: SimpleCommand[];
  readonly writes: ShellWrite[];
  readonly assigned: string[];
  /** Where `-<<` tokens start whose dash readRedirected placed as an argument. */
  readonly placedTokens: Set<number>;
  /** Words tree-sitter filed outside the command they belong to (readRedirected). */
  readonly extraWords: Map<ShellNode, readonly ShellWord[]>;
  /** Where relative writes land when not the cwd (a command `find -execdir` runs). */
  readonly base?: ShellWord;
}

export function readCommandLine(line: string): CommandLineReading {
  if (line.length > MAX_LINE_LENGTH) return { ok: false, reason: `the command is longer than ${MAX_LINE_LENGTH} characters` };
  const reader: Reader = { source: line, depth: 0, wrappers: [], assigns: [], commands: [], writes: [], assigned: [], placedTokens: new Set(), extraWords: new Map() };
  try {
    const read = readScript(reader, line);
    if (read !== undefined) return { ok: false, reason: read };
  } catch (error) {
    if (error instanceof Unreadable) return { ok: false, reason: error.message };
    if (error instanceof RangeError) return { ok: false, reason: "the command is nested too deeply to read" };
    throw error;
  }
  return { ok: true, commands: reader.commands, writes: reader.writes, assigned: reader.assigned };
}

/** The words' values, for callers that match argv lists (the person's rules). */
export function argvOf(command: SimpleCommand): readonly string[] {
  return command.words.map((w) => w.value);
}

/** Reads `script` into `into` (its commands, writes, assigned); a reason when it cannot be read. */
function readScript(into: Reader, script: string): string | undefined {
  let source = script;
  for (let repairs = 0; repairs <= MAX_REPAIRS; repairs++) {
    const attempt: Reader = { ...into, source, commands: [], writes: [], assigned: [], placedTokens: new Set(), extraWords: new Map() };
    let endsAt: number | undefined;
    const tree = parseShell(source);
    if (tree === undefined) return "the shell parser is not loaded";
    if (!tree.ok) return tree.reason;
    try {
      visit(tree.root, attempt, 0, false);
    } catch (error) {
      if (!(error instanceof EndsCommandHere)) throw error;
      endsAt = error.at;
    }
    if (endsAt !== undefined) {
      source = `${source.slice(0, endsAt)};${source.slice(endsAt)}`;
      continue;
    }
    into.commands.push(...attempt.commands);
    into.writes.push(...attempt.writes);
    into.assigned.push(...attempt.assigned);
    return undefined;
  }
  return "cannot tell where its commands end";
}

const named = (node: ShellNode): ShellNode[] => node.children.filter((c) => c.named);
const text = (node: ShellNode, r: Reader): string => textOf(node, r.source);

function visit(node: ShellNode, r: Reader, nesting: number, inCommand: boolean): void {
  if (nesting > MAX_NESTING) throw new Unreadable("the command is nested too deeply to read");
  checkComments(node);
  if (node.type !== "redirected_statement") checkGaps(node, r.source, r.placedTokens);
  switch (node.type) {
    case "comment":
      return;
    case "list":
    case "pipeline":
      visitChain(node, r, nesting);
      return;
    case "command":
      readCommand(node, r, r.extraWords.get(node) ?? []);
      break;
    case "redirected_statement":
      readRedirected(node, r, nesting);
      return;
    case "declaration_command":
    case "unset_command":
      readDeclaration(node, r);
      break;
    case "variable_assignment":
      if (!inCommand) r.assigned.push(assignedName(node, r));
      break;
    case "file_redirect":
      readRedirect(node, r);
      break;
    default:
      break;
  }
  const own = node.type === "command" || node.type === "declaration_command";
  for (const child of node.children) if (child.named) visit(child, r, nesting + 1, own);
}

/**
 * `a && b || c …` is a left-leaning chain as deep as it is long; walked down its spine so a long
 * line is not mistaken for a deeply nested one.
 */
function visitChain(node: ShellNode, r: Reader, nesting: number): void {
  const spine = [node];
  for (let first = node.children.find((c) => c.named); first?.type === node.type; first = first.children.find((c) => c.named)) {
    checkGaps(first, r.source, r.placedTokens);
    spine.push(first);
  }
  for (let i = spine.length - 1; i >= 0; i--) {
    const inner = spine[i + 1];
    for (const child of spine[i]!.children) {
      if (child.named && child !== inner) visit(child, r, nesting + 1, false);
    }
  }
}

/**
 * `cmd > a b` runs `cmd b`: tree-sitter files `b` under the redirect, bash passes it to the
 * command. tree-sitter also hangs the redirects of `a && b > f` on the whole list; bash gives them
 * (and those words) to the last command, `b`.
 */
function readRedirected(node: ShellNode, r: Reader, nesting: number): void {
  const bodyAt = node.children.findIndex((c) => c.field === "body");
  const target = lastCommand(node.children[bodyAt]);
  const dash = droppedDash(target, node.children[bodyAt + 1], r.source, r.placedTokens);
  checkGaps(node, r.source, r.placedTokens, dash);
  const extras: ShellWord[] = dash === undefined ? [] : [literalWord("-")];
  for (const redirect of node.children) {
    if (redirect.field === "redirect" && redirect.type === "file_redirect") extras.push(...redirectExtras(redirect, r));
  }
  if (extras.length > 0) {
    if (target === undefined) throw new Unreadable(`cannot tell what runs in \`${text(node, r)}\``);
    r.extraWords.set(target, extras);
  }
  for (const child of named(node)) visit(child, r, nesting + 1, false);
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
    if (child.type === "variable_assignment") assigns.push(assignedName(child, r));
    else if (child.field === "name" || child.field === "argument") {
      if (isReservedWord(child, r.source)) reserved.add(words.length);
      words.push(readWord(child, r.source));
    } else if (child.type === "file_redirect") words.push(...redirectExtras(child, r));
    else if (child.named && !/_redirect$/.test(child.type) && child.type !== "comment") {
      throw new Unreadable(`cannot read \`${text(child, r)}\` in \`${text(node, r)}\``);
    }
  }
  words.push(...trailing);
  addCommand(text(node, r), words, assigns, r, reserved);
}

function addCommand(text: string, words: readonly ShellWord[], assigns: readonly string[], r: Reader, reserved: ReadonlySet<number>): void {
  const unwrapped = unwrapCommand(words, [...r.assigns, ...assigns]);
  const wrappers = [...r.wrappers, ...unwrapped.wrappers];
  if (unwrapped.kind === "run") {
    if (unwrapped.words.length === 0) return;
    // Wrappers only drop leading words, so the command word's place in `words` is known.
    if (reserved.has(words.length - unwrapped.words.length)) throw new Unreadable(`cannot read \`${text}\`: a reserved word where a command should be`);
    const effects = commandEffects(unwrapped.words, unwrapped.wrappers.includes("xargs"));
    r.commands.push({ text, words: unwrapped.words, assigns: unwrapped.assigns, wrappers, ...(effects.opaque !== undefined ? { opaque: effects.opaque } : {}) });
    commandWrites(text, unwrapped.words, r);
    for (const write of effects.writes) addWrite(write.kind, write.target, text, r);
    for (const run of effects.runs) {
      const base = run.base === undefined ? r.base : within(r.base, run.base);
      addCommand(text, run.words, [], { ...r, wrappers: [...wrappers, run.via], assigns: unwrapped.assigns, ...(base !== undefined ? { base } : {}) }, new Set());
    }
    return;
  }
  if (unwrapped.script.dynamic) {
    // A script Baton cannot know: its first word is what the policy judges, and it is dynamic.
    r.commands.push({ text, words: [unwrapped.script], assigns: unwrapped.assigns, wrappers });
    return;
  }
  if (r.depth + 1 > MAX_SCRIPT_DEPTH) throw new Unreadable(`shells inside shells deeper than ${MAX_SCRIPT_DEPTH} levels: \`${text}\``);
  const inner: Reader = { ...r, depth: r.depth + 1, wrappers, assigns: unwrapped.assigns };
  const failed = readScript(inner, unwrapped.script.value);
  if (failed !== undefined) throw new Unreadable(`cannot read the script of \`${text}\`: ${failed}`);
}

/** `export PATH=… X`, `local x=$(…)`, `unset X`: a builtin with words; what it assigns lasts. */
function readDeclaration(node: ShellNode, r: Reader): void {
  const words: ShellWord[] = [];
  for (const child of node.children) {
    if (!child.named) {
      if (words.length === 0) words.push(literalWord(child.type));
      continue;
    }
    if (child.type === "comment") continue;
    if (child.type === "variable_assignment") {
      const name = assignedName(child, r);
      r.assigned.push(name);
      const value = child.children.find((c) => c.field === "value");
      const read = value === undefined ? literalWord("") : readWord(value, r.source);
      words.push({ value: `${name}=${read.value}`, dynamic: read.dynamic });
    } else words.push(readWord(child, r.source));
  }
  if (words.length > 0) r.commands.push({ text: text(node, r), words, assigns: [...r.assigns], wrappers: [...r.wrappers] });
}

function assignedName(assignment: ShellNode, r: Reader): string {
  const nameNode = assignment.children.find((c) => c.field === "name");
  const name = text(nameNode ?? assignment, r);
  const bracket = name.indexOf("[");
  return bracket < 0 ? name : name.slice(0, bracket);
}

/** The destinations after the first: words of the command (see readRedirected). */
function redirectExtras(redirect: ShellNode, r: Reader): ShellWord[] {
  return redirect.children
    .filter((c) => c.field === "destination")
    .slice(1)
    .map((c) => readWord(c, r.source));
}

function readRedirect(node: ShellNode, r: Reader): void {
  const operator = node.children.find((c) => !c.named)?.type ?? "";
  const destination = node.children.find((c) => c.field === "destination");
  if (!WRITE_OPERATORS.has(operator) || destination === undefined) return;
  const target = readWord(destination, r.source);
  // `>&2` and `2>&1` duplicate a descriptor; `>& file` writes the file.
  if (operator === ">&" && !target.dynamic && /^(?:\d+|-)$/.test(target.value)) return;
  addWrite(operator as WriteOperator, target, text(node, r), r);
}

function addWrite(operator: WriteOperator, target: ShellWord, written: string, r: Reader): void {
  if (!target.dynamic && NOT_FILES.test(target.value)) return;
  r.writes.push({ operator, target: within(r.base, target), text: written });
}

const TEE_FLAGS = /^-(?:[aip]+|-append|-ignore-interrupts|-output-error(?:=.*)?)$/;

function commandWrites(written: string, words: readonly ShellWord[], r: Reader): void {
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
