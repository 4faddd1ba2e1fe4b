// The exec half of a preset: may this Bash line run? Every simple command the line would run
// (shellCommands.ts) must be allowed; one that is not decides. Patterns are read as
// src/shared/policy.ts documents (`CommandPattern`): a word prefix, each word a `|` set.
// * The command word matches exactly: `/usr/bin/go` or `./go` is not `go` (a project may hold
//   its own `go`), so a path runs only if a pattern names that path. Refused commands are also
//   found by their last path segment, so `/usr/bin/npm` is refused with npm's reason.
// * A word the shell computes (`$CMD`, `$(…)`, a glob) where a pattern needs a literal does not
//   match; a dynamic command word is `dynamic`: Baton cannot know what would run.
// * A line that sets PATH (`PATH=… go`, `export PATH=…`) makes every command word unknowable.
// * Shell builtins that run no program (`cd`, `echo`, `test`, …) are allowed wherever some
//   command is; with an empty allowlist nothing runs at all. Their writes are still reported.
// * An allowed command whose options make it unknowable (`git -c k=v log`, `prettier --config f`,
//   commandEffects.ts) or run with variables that change what it runs (`GIT_EXTERNAL_DIFF=x git
//   diff`) is `unreadable`. What its options write is in `writes`, for the write root to judge.
// * A program another program launches (`pnpm exec x`, `bun x x`, `uv run x`: SimpleCommand's
//   launchedBy) is judged by the refused list only, since the allowlist judged the launcher.
// * Variables that make any program run other code (`LD_PRELOAD`, `BASH_ENV`, runtimeVariables.ts)
//   make an allowed command unreadable, as a program's own ones do.
// * A refused command anywhere in the line is what the verdict names, since its reason is what
//   the model needs; otherwise the first command that is not allowed.

import type { CommandPattern, RefusedCommand } from "../../../shared/policy.js";
import { environmentEffect } from "../effects/commandEffects.js";
import { readCommandLine, type CommandLineReading, type ShellWrite, type SimpleCommand } from "../shell/shellCommands.js";
import type { ShellWord } from "../shell/shellWords.js";

export type ExecRefusal = "refused" | "not-allowed" | "dynamic" | "unreadable";

export type ExecVerdict =
  | { readonly allowed: true; readonly commands: readonly SimpleCommand[]; readonly writes: readonly ShellWrite[] }
  | {
      readonly allowed: false;
      readonly why: ExecRefusal;
      /** The offending simple command as written (the whole line when it cannot be read). */
      readonly command: string;
      /** That command as read, when the line could be read. */
      readonly offender?: SimpleCommand;
      /** Why, for a person and the model: the refusal's reason, or what Baton could not know. */
      readonly reason: string;
      readonly writes: readonly ShellWrite[];
    };

/** Builtins that run no program and change nothing outside the shell. */
export const NEUTRAL_BUILTINS: readonly CommandPattern[] = [
  "cd|pushd|popd|dirs|pwd",
  "true|false|:",
  "echo|printf",
  "test|[",
  "exit|return|break|continue|shift|wait",
  "set|export|unset|local|declare|readonly|typeset",
  "type",
  "command -v|-V",
];

export function judgeCommandLine(line: string, allow: readonly CommandPattern[], refused: readonly RefusedCommand[]): ExecVerdict {
  return judgeReading(line, readCommandLine(line), allow, refused);
}

/** The same for a line already read (the engine reads each line once). */
export function judgeReading(line: string, reading: CommandLineReading, allow: readonly CommandPattern[], refused: readonly RefusedCommand[]): ExecVerdict {
  if (!reading.ok) return { allowed: false, why: "unreadable", command: line, reason: reading.reason, writes: [] };
  const { commands, writes } = reading;
  const assigned = lineAssignments(reading.assigned);
  for (const command of commands) {
    const refusal = refusedBy(command, refused);
    if (refusal !== undefined) return { allowed: false, why: "refused", command: command.text, offender: command, reason: refusal.reason, writes };
  }
  for (const command of commands) {
    const problem = problemWith(command, allow, assigned);
    if (problem !== undefined) return { allowed: false, ...problem, command: command.text, offender: command, writes };
  }
  return { allowed: true, commands, writes };
}

/** What the line assigns, judged once per program rather than once per command (a line can hold thousands of both). */
interface LineAssignments {
  readonly pathChanged: boolean;
  effect(words: readonly ShellWord[]): string | undefined;
}

const NOTHING_ASSIGNED: LineAssignments = { pathChanged: false, effect: () => undefined };

function lineAssignments(names: readonly string[]): LineAssignments {
  if (names.length === 0) return NOTHING_ASSIGNED;
  const unique = [...new Set(names)];
  const byProgram = new Map<string, string | undefined>();
  return {
    pathChanged: unique.includes("PATH"),
    effect: (words) => {
      const key = words[0]?.dynamic === false ? words[0].value : "";
      if (!byProgram.has(key)) byProgram.set(key, environmentEffect(words, unique));
      return byProgram.get(key);
    },
  };
}

export interface NamedAllowlist {
  readonly name: string;
  readonly allow: readonly CommandPattern[];
}

/**
 * Which of `lists` would let `command` run: "belongs to worker". A command as read (a verdict's
 * `offender`) is judged as it stands, without reading its text again.
 */
export function allowlistsAllowing(command: string | SimpleCommand, lists: readonly NamedAllowlist[], refused: readonly RefusedCommand[] = []): readonly string[] {
  if (typeof command === "string") return lists.filter((list) => judgeCommandLine(command, list.allow, refused).allowed).map((list) => list.name);
  if (refusedBy(command, refused) !== undefined) return [];
  return lists.filter((list) => problemWith(command, list.allow, NOTHING_ASSIGNED) === undefined).map((list) => list.name);
}

function problemWith(command: SimpleCommand, allow: readonly CommandPattern[], assigned: LineAssignments): { readonly why: ExecRefusal; readonly reason: string } | undefined {
  const head = command.words[0];
  if (head === undefined) return undefined;
  if (head.dynamic) return { why: "dynamic", reason: command.opaque ?? `the command word \`${head.value}\` is only known when the shell runs it` };
  if (assigned.pathChanged || command.assigns.includes("PATH")) {
    return { why: "dynamic", reason: "the line changes PATH, so Baton cannot know which program a command word runs" };
  }
  // A launcher's program (`pnpm exec x`): the allowlist judged the launcher; the refused list judges it.
  if (command.launchedBy !== undefined) return command.opaque === undefined ? undefined : { why: "unreadable", reason: command.opaque };
  if (allow.length === 0) return { why: "not-allowed", reason: "no command may run" };
  if (allow.some((p) => matchesPattern(command.words, p)) || NEUTRAL_BUILTINS.some((p) => matchesPattern(command.words, p))) {
    const unknowable = command.opaque ?? environmentEffect(command.words, command.assigns) ?? assigned.effect(command.words);
    return unknowable === undefined ? undefined : { why: "unreadable", reason: unknowable };
  }
  return { why: "not-allowed", reason: `\`${command.words.map((w) => w.value).join(" ")}\` is not in the allowlist` };
}

function refusedBy(command: SimpleCommand, refused: readonly RefusedCommand[]): RefusedCommand | undefined {
  const byName = lastSegment(command.words);
  return refused.find((r) => matchesPattern(command.words, r.pattern) || (byName !== undefined && matchesPattern(byName, r.pattern)));
}

/** The words with the command word cut to its last path segment, when it is a path. */
function lastSegment(words: readonly ShellWord[]): readonly ShellWord[] | undefined {
  const head = words[0];
  if (head === undefined || head.dynamic || !head.value.includes("/")) return undefined;
  return [{ value: head.value.slice(head.value.lastIndexOf("/") + 1), dynamic: false }, ...words.slice(1)];
}

const compiled = new Map<CommandPattern, readonly (readonly string[])[]>();

/** `"go test|vet"` → `[["go"], ["test", "vet"]]`; an empty pattern matches nothing. */
function compile(pattern: CommandPattern): readonly (readonly string[])[] {
  let words = compiled.get(pattern);
  if (words === undefined) {
    words = pattern
      .trim()
      .split(/\s+/)
      .filter((w) => w !== "")
      .map((w) => w.split("|").filter((a) => a !== ""));
    if (compiled.size > 1000) compiled.clear();
    compiled.set(pattern, words);
  }
  return words;
}

export function matchesPattern(words: readonly ShellWord[], pattern: CommandPattern): boolean {
  const wanted = compile(pattern);
  if (wanted.length === 0 || wanted.length > words.length) return false;
  return wanted.every((alternatives, i) => {
    const word = words[i]!;
    return !word.dynamic && alternatives.includes(word.value);
  });
}
