// A session's one title, wherever it is shown: the Project panel's list, its tab, the Hierarchy's
// root, search results, `baton sessions` and an export. The name the person gave it, else the one
// the CLI's model gave it (older CLIs write an `ai-title` first in the file), else its first real
// prompt (a slash command the model was sent reads as the command, never as its markup), else an
// old CLI's `summary`, else "(untitled)" with the short id. Pure; the text stays text.

import { commandTitle, parseCommandEcho } from "./commandEcho.js";
import { splitIdeContext } from "./ideContext.js";

/** The most characters of a title, on one line; longer ones end in "…". */
export const MaxTitleChars = 80;

export type TitleSource = "custom" | "ai" | "prompt" | "summary" | "none";

/** What a title is chosen from; any may be missing. */
export interface TitleFacts {
  readonly customTitle?: string | undefined;
  readonly aiTitle?: string | undefined;
  /** FirstPrompt's value: the words of the first real prompt, or a prompt command's line. */
  readonly firstPrompt?: string | undefined;
  readonly summary?: string | undefined;
}

export interface SessionTitle {
  readonly title: string;
  readonly source: TitleSource;
}

/** The session's title from its facts; `sessionId` names one that has none. */
export function sessionTitle(facts: TitleFacts, sessionId: string): SessionTitle {
  const candidates: readonly [string | undefined, TitleSource][] = [
    [facts.customTitle, "custom"],
    [facts.aiTitle, "ai"],
    [facts.firstPrompt, "prompt"],
    [facts.summary, "summary"],
  ];
  for (const [text, source] of candidates) {
    // A title the CLI cut from a command echo reads as the command.
    const line = text === undefined ? "" : oneLine(commandTitle(text));
    if (line !== "") return { title: line, source };
  }
  return { title: untitled(sessionId), source: "none" };
}

/** "(untitled) 1a2b3c4d": the short id tells two such sessions apart. */
export function untitled(sessionId: string): string {
  const short = sessionId.slice(0, 8);
  return short === "" ? "(untitled)" : `(untitled) ${short}`;
}

/** A title on one line, cut to `max` characters (MaxTitleChars). */
export function oneLine(text: string, max = MaxTitleChars): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/**
 * The first real prompt of a session, fed the person's lines in order (prompts, command echoes,
 * commands' output; never meta lines, interrupts or notifications). A typed prompt is its words
 * (without an IDE's context). A slash command is a prompt when the model was sent it (a custom
 * command, a skill): it is known by what follows it, since a command that ran in the CLI alone
 * (`/model`, `/clear`, `/login`) writes its output as the very next line, and is then no prompt.
 * A shell (`!`) command is never one. Every reader of history (the session list, the restore, the
 * index) and the live tab pick it with this one rule.
 */
export class FirstPrompt {
  /** A command's line, until the next line says whether it ran in the CLI alone. */
  private command: string | undefined;

  /** `found`: the prompt a reader settled on before (the index resumes files mid-way). */
  constructor(private found?: string) {}

  note(text: string): void {
    if (this.found !== undefined) return;
    const parts = parseCommandEcho(text);
    if (parts !== undefined) {
      const line = parts.find((p) => p.kind === "command");
      const ranLocally = line === undefined || parts.some((p) => p.kind === "output") || line.line.startsWith("!");
      // Output alone answers the command before it; a new command settles the one before as sent.
      if (line === undefined) this.command = undefined;
      else if (this.command !== undefined) this.found = this.command;
      else if (!ranLocally) this.command = line.line;
      return;
    }
    if (this.command !== undefined) {
      this.found = this.command;
      return;
    }
    const words = splitIdeContext(text).words.trim();
    if (words !== "") this.found = words;
  }

  /** No later line can change the value. */
  get settled(): boolean {
    return this.found !== undefined;
  }

  /** The first real prompt so far; a command the lines have not answered yet counts. */
  get value(): string | undefined {
    return this.found ?? this.command;
  }
}
