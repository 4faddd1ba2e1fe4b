// How much work reading one Bash line may take (issue 31: no input may keep a decision busy for
// more than 50 ms). The budget is structural and deterministic, so the same line always gets the
// same answer and tests can assert on it: every part of reading a line is charged in work units,
// roughly a tenth of a microsecond each on the project's 2-core machines (bench/policy measures
// the real time per class of line; docs/benchmarks.md has the figures):
// * the parser's own operations (tree-sitter counts them and reports every 100: ParseOps);
// * the characters it lexes, and the columns tree-sitter-bash's scanner counts inside heredoc
//   bodies: at every token of a heredoc line its scanner asks the lexer for the column, which is
//   counted from the line's start (`lexer->get_column` in `scan_heredoc_content`), so a long line
//   with many `$x` costs the square of its length (a 48 KB line took 17 s). That cost is charged,
//   from the text, before the parser starts;
// * the tree's nodes, copied out of wasm and walked; the words read; the commands and writes
//   found (each write costs the write root a few system calls later);
// * every script read again (`bash -c`, `eval`, backticks, a repair of the grammar's misreading)
//   charges the same budget.
// Past the budget the line is refused: "too complex to check".

import { Unreadable } from "./shellTreeChecks.js";

/** Work units one line may take: at most about 15 ms of reading on the project's machines (bench:policy). */
export const WORK_BUDGET = 150_000;

/** Units per 100 parser operations (one progress report of tree-sitter; up to 45 µs in a long pipeline). */
export const PARSE_REPORT_COST = 500;
/** Units per script parsed (the line, each `bash -c`, `eval`, backtick and repair): the parser's start, the copies of state. */
export const SCRIPT_COST = 200;
/** Units per node copied out of the tree and per node visited. */
export const NODE_COST = 3;
/** Units per command found; per write found, which the write root then resolves on disk (up to 100 µs each). */
export const COMMAND_COST = 10;
export const WRITE_COST = 1000;

/** The line is more than the budget allows. */
export class TooComplex extends Unreadable {
  constructor(what: string) {
    super(`too complex to check (${what}); split it into simpler commands`);
  }
}

export class ShellBudget {
  private spent = 0;

  constructor(readonly limit = WORK_BUDGET) {}

  get used(): number {
    return this.spent;
  }

  get left(): number {
    return Math.max(0, this.limit - this.spent);
  }

  /** Spends `units` on `what`; past the limit, TooComplex (and the work is not done: `used` stays within the limit). */
  charge(units: number, what: string): void {
    if (this.spent + units > this.limit) throw new TooComplex(what);
    this.spent += units;
  }

  /** Work stopped midway (a cancelled parse) took what was left: TooComplex. */
  exhaust(what: string): never {
    this.spent = this.limit;
    throw new TooComplex(what);
  }
}

/** Units for lexing `length` characters (tree-sitter's wasm lexer takes up to 45 ns a character). */
export const lexCost = (length: number): number => Math.ceil(length / 2);

/**
 * The columns tree-sitter-bash's scanner would count inside heredoc bodies of `source`, in units:
 * for every line after the first `<<`, each token on it (about three per `$`) counts the columns
 * before it. An upper bound, since not every such line is a heredoc body.
 */
export function heredocScanCost(source: string): number {
  const first = firstHeredoc(source);
  if (first < 0) return 0;
  let columns = 0;
  let lineStart = source.indexOf("\n", first) + 1;
  if (lineStart === 0) return 0;
  let dollars = 0;
  for (let i = lineStart; i <= source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 36 /* $ */) dollars++;
    else if (c === 10 /* \n */ || i === source.length) {
      columns += (1 + 3 * dollars) * (i - lineStart);
      lineStart = i + 1;
      dollars = 0;
    }
  }
  return Math.ceil(columns / 16);
}

/** Where the first `<<` that is not `<<<` starts, or -1. */
function firstHeredoc(source: string): number {
  for (let at = source.indexOf("<<"); at >= 0; at = source.indexOf("<<", at + 3)) {
    if (source[at + 2] !== "<") return at;
  }
  return -1;
}
