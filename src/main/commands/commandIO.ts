import { terminalText } from "../../shared/terminalText.js";

/**
 * Where a `baton` subcommand writes. Commands never touch `process.stdout` directly, so tests can
 * capture their output. Strings are written as given: callers add their own newlines.
 */
export interface CommandIO {
  stdout(s: string): void;
  stderr(s: string): void;
}

/** A subcommand module (`src/main/commands/<name>.ts`) exports this as `run`. */
export type CommandRun = (args: readonly string[], io: CommandIO) => Promise<number>;

/** Exit codes shared by every subcommand. */
export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
} as const;

/**
 * The output chokepoint for commands that print text from history files or recordings (titles,
 * cwd, prompts, tool text): everything written goes through `terminalText`, so no escape
 * sequence, C0/C1 control or bidi control reaches the terminal as something it would act on.
 * Idempotent (the visible `<U+XXXX>` forms are plain ASCII). JSON output stays valid: write it
 * with `terminalJson`, which leaves nothing for this to change.
 */
export function terminalIO(io: CommandIO): CommandIO {
  return {
    stdout: (s) => io.stdout(terminalText(s)),
    stderr: (s) => io.stderr(terminalText(s)),
  };
}

/** The real terminal. A closed pipe (`baton replay x | head`) ends output quietly, not with a crash. */
export function processIO(): CommandIO {
  terminal ??= createProcessIO();
  return terminal;
}

let terminal: CommandIO | undefined;

function createProcessIO(): CommandIO {
  let closed = false;
  const onError = (error: NodeJS.ErrnoException): void => {
    if (error.code === "EPIPE") closed = true;
    else throw error;
  };
  process.stdout.on("error", onError);
  process.stderr.on("error", onError);
  return {
    stdout: (s) => {
      if (!closed) process.stdout.write(s);
    },
    stderr: (s) => {
      if (!closed) process.stderr.write(s);
    },
  };
}

/** Collects output in memory; for tests and for commands that call other commands. */
export function bufferIO(): CommandIO & { readonly out: () => string; readonly err: () => string } {
  let out = "";
  let err = "";
  return {
    stdout: (s) => {
      out += s;
    },
    stderr: (s) => {
      err += s;
    },
    out: () => out,
    err: () => err,
  };
}
