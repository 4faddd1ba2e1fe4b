// What reading a Bash line gives (shellCommands.ts reads it): the simple commands it would run,
// the writes it would make, the variables it sets; and the reader's own state while it reads.

import type { EffectWriteKind } from "../effects/commandEffects.js";
import type { ShellBudget } from "./shellBudget.js";
import type { ShellNode } from "./shellParser.js";
import type { LineFacts, ShellScope } from "./shellVariables.js";
import type { ShellWord } from "./shellWords.js";

export interface SimpleCommand {
  /** The command as written (the innermost source that holds it, e.g. inside a `bash -c` string). */
  readonly text: string;
  /** What runs: the command word first, after wrappers and assignment prefixes are removed. */
  readonly words: readonly ShellWord[];
  /** Variables set for this command only (`FOO=1 go test`, `env FOO=1 …`, and outer ones of `bash -c`). */
  readonly assigns: readonly string[];
  /** The wrappers looked through, outermost first: `["sudo", "env"]`, `["bash -c"]`. */
  readonly wrappers: readonly string[];
  /**
   * Why Baton cannot know what it would do, although its words are known (`git -c k=v log`); for
   * a command word only known at run time, what computes it (`xargs` giving `sh -c` its input).
   */
  readonly opaque?: string;
  /**
   * The launcher of another program that runs it (`pnpm exec`, `bun x`, `uv run`): the exec
   * policy judged the launcher's own command, and judges this one by the refused list.
   */
  readonly launchedBy?: string;
}

/** A redirection, `tee`, `dd`, or what a command's options do (commandEffects.ts). */
export type WriteOperator = ">" | ">>" | ">|" | "&>" | "&>>" | ">&" | "<>" | "tee" | "dd" | EffectWriteKind;

export interface ShellWrite {
  readonly operator: WriteOperator;
  /** The file written; dynamic when the shell would compute it (`> "$out"`). */
  readonly target: ShellWord;
  /** The redirection or the command that writes, as written. */
  readonly text: string;
  /**
   * The folder change (as written: `cd src`) the shell may have made before this write is opened,
   * so a relative target lands under that folder; undefined when it is relative to the folder
   * the line starts in. `(cd src && ls) > f` opens f before the subshell's cd: undefined.
   */
  readonly afterCd?: string;
}

export type CommandLineReading =
  | {
      readonly ok: true;
      readonly commands: readonly SimpleCommand[];
      readonly writes: readonly ShellWrite[];
      /** Variables the line sets for what follows (`PATH=…`, `export`, `declare`, `read`, `unset`, …). */
      readonly assigned: readonly string[];
      /** Work units reading took (shellBudget.ts). */
      readonly work?: number;
    }
  | { readonly ok: false; readonly reason: string; readonly work?: number };

export interface PendingWrite {
  readonly write: ShellWrite;
  readonly movedBy: string | undefined;
  /** In a body that runs when the text does not say: any folder change of the line may come first. */
  readonly deferred: boolean;
}

/** A script being read: where its results go, and the state of the shell that runs it. */
export interface Reader {
  readonly source: string;
  readonly depth: number;
  /** Outer wrappers and assignments of the `bash -c` this script came from. */
  readonly wrappers: readonly string[];
  readonly assigns: readonly string[];
  readonly commands: SimpleCommand[];
  readonly writes: PendingWrite[];
  readonly assigned: string[];
  /** Where `-<<` tokens start whose dash readRedirected placed as an argument. */
  readonly placedTokens: Set<number>;
  /** Words tree-sitter filed outside the command they belong to (readRedirected). */
  readonly extraWords: Map<ShellNode, readonly ShellWord[]>;
  /** Where relative writes land when not the cwd (a command `find -execdir` runs). */
  readonly base?: ShellWord;
  /** The launcher whose program this script's commands are (SimpleCommand.launchedBy). */
  readonly launchedBy?: string;
  readonly budget: ShellBudget;
  /** The state of the shell reading this script, and facts about the whole line (shellVariables.ts). */
  readonly shell: ShellScope;
  readonly facts: LineFacts;
}
