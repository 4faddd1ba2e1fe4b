// The parser layer over generated lines that mix the constructs of issue 31 (arithmetic, `test -v`,
// `printf -v`, `declare`, `${!x}`, `${x@P}`, PS4, trap, eval, source, escaped backticks, heredocs,
// `xargs -I`, launchers, variables that change what runs, folder changes) with ordinary commands,
// nested in the ways bash runs a command, sometimes repeated far past what the budget allows:
// * reading never throws, and its work stays within the structural budget (the work counter, not
//   a clock: the same line always costs the same);
// * no line is allowed one of whose command words Baton could not read;
// * a construct where bash would run code Baton cannot see, or npm, is never allowed, wherever it
//   sits and however it is wrapped.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { judgeCommandLine, NEUTRAL_BUILTINS } from "../../src/main/policy/presets/execPolicy.js";
import { WORK_BUDGET } from "../../src/main/policy/shell/shellBudget.js";
import { readCommandLine } from "../../src/main/policy/shell/shellCommands.js";
import { loadShellParser } from "../../src/main/policy/shell/shellParser.js";
import type { CommandPattern, RefusedCommand } from "../../src/shared/policy.js";

beforeAll(async () => {
  await loadShellParser();
});

// Builtins that set variables or run code are allowed too, so that only the reading can refuse them.
const Allow: readonly CommandPattern[] = [...NEUTRAL_BUILTINS, "ls", "cat", "go test|vet", "git log|diff", "pnpm", "bun", "bunx", "uv run", "read|mapfile|let|trap|getopts", "xargs", "f"];
const Refused: readonly RefusedCommand[] = [
  { pattern: "npm", reason: "npm is refused" },
  { pattern: "npx", reason: "npx is refused" },
];

/** Commands and constructs Baton reads and may allow. */
const Harmless = [
  "ls -la",
  "go test ./...",
  "git log --oneline",
  "cat f",
  "echo $((1 + 2))",
  // Grouped, so that a pipeline around it does not put the assignment in a subshell of its own.
  "{ i=0; echo $((i + 1)); }",
  "for i in 1 2; do echo $((i * 2)); done",
  "for ((i = 0; i < 3; i++)); do ls; done",
  "[[ $# -gt 0 ]]",
  "[ -v x ]",
  "printf -v out '%s' x",
  "declare x=1; local y=$(ls)",
  "echo ${x@Q} ${a[@]} ${#x} ${x:-d}",
  "x=1 y=2",
  "cd src",
  "(cd src && ls) > listing.txt",
  // A heredoc's end is a line of its own, so these are grouped for what follows to join them.
  "{ cat <<'EOF'\n`npm i` $x\nEOF\n}",
  "{ cat <<EOF\n$x `ls`\nEOF\n}",
  "echo `echo \\`ls\\``",
  "trap - EXIT",
  "pnpm exec eslint .",
  "uv run pytest",
  "GIT_PAGER=cat git log",
  "eval 'ls'",
  "ls | xargs -I{} cat {}",
];

/** Constructs where bash would run code Baton cannot see (or npm): never allowed. */
const Dangerous = [
  "npm i x",
  "x='a[$(npm i)]'; echo $((x))",
  "echo $((never_set))",
  "let z=w",
  "(( q ))",
  "echo ${arr[k]}",
  "[[ $v -eq 1 ]]",
  "test -v 'a[$(npm i)]'",
  "[[ -v 'a[$(npm i)]' ]]",
  "printf -v 'a[$(npm i)]' x",
  "printf -v PATH ./bin; go test",
  "declare -n p=PATH",
  "declare -a d='([$(npm i)]=1)'",
  "declare -i n; n=$(cat f)",
  "echo ${!x}",
  "echo ${x@P}",
  "PS4='$(npm i)'; set -x; ls",
  "PROMPT_COMMAND='npm i'",
  "trap 'npm i' EXIT",
  'trap "$h" EXIT',
  'eval "$cmd"',
  "source ./x.sh",
  "echo `echo \\`npm i\\``",
  "cat <<EOF\n`npm i`\nEOF",
  "ls | xargs -I{} sh -c {}",
  "ls | xargs sh -c",
  "LD_PRELOAD=./x.so ls",
  "export BASH_ENV=./x.sh; go test",
  "unset PATH; go test",
  "read GIT_EXTERNAL_DIFF <<< ./x; git diff",
  "for PATH in ./bin; do go test; done",
  ": ${PATH:=./bin}; go test",
  "pnpm exec npm i",
  "pnpm dlx npx x",
  "bunx npm i",
  "uv run npm i",
  "bun -e 'x'",
  "mapfile -C 'npm i' m < f",
  "$CMD x",
];

function singleQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Ways bash runs a piece of a line, all of which run it (or, for a function body, read it). */
const Wraps: readonly ((t: string) => string)[] = [
  (t) => `( ${t} )`,
  (t) => `{ ${t}\n}`,
  (t) => `echo "$( ${t} )"`,
  (t) => `bash -c ${singleQuoted(t)}`,
  (t) => `eval ${singleQuoted(t)}`,
  (t) => `if true; then ${t}\nfi`,
  (t) => `for d in a b; do ${t}\ndone`,
  (t) => `while false; do ${t}\ndone`,
  (t) => `f() { ${t}\n}; f`,
  (t) => `${t} | cat`,
  (t) => `ls && ${t}`,
  (t) => `${t} > out.txt`,
  (t) => `cd src; ${t}`,
  (t) => `timeout 5 bash -c ${singleQuoted(t)}`,
];
const Joins = [" && ", " || ", "; ", " | ", "\n", " & "];

type Piece = { readonly kind: "harmless" | "dangerous"; readonly text: string };

const piece = (kind: "harmless" | "dangerous", texts: readonly string[]): fc.Arbitrary<Piece> =>
  fc.record({ kind: fc.constant(kind), text: fc.constantFrom(...texts) }).chain((p) =>
    fc.array(fc.nat(Wraps.length - 1), { maxLength: 3 }).map((wraps) => ({ kind: p.kind, text: wraps.reduce((t, w) => Wraps[w]!(t), p.text) })),
  );

/** A line of harmless pieces, with one dangerous piece somewhere when `danger`; sometimes repeated many times over. */
const lineOf = (danger: boolean): fc.Arbitrary<string> =>
  fc
    .record({
      before: fc.array(piece("harmless", Harmless), { maxLength: 3 }),
      danger: danger ? piece("dangerous", Dangerous).map((p) => [p]) : fc.constant([] as Piece[]),
      after: fc.array(piece("harmless", Harmless), { maxLength: 3 }),
      joins: fc.array(fc.constantFrom(...Joins), { minLength: 8, maxLength: 8 }),
      repeat: fc.oneof({ weight: 9, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.integer({ min: 50, max: 400 }) }),
    })
    .map(({ before, danger: middle, after, joins, repeat }) => {
      const pieces = [...before, ...middle, ...after].map((p) => p.text);
      const once = pieces.reduce((line, text, i) => (i === 0 ? text : `${line}${joins[i % joins.length]}${text}`), "");
      return repeat === 1 ? once : Array.from({ length: repeat }, () => once).join("\n");
    })
    .filter((line) => line.trim() !== "");

describe("the parser layer over generated lines", () => {
  it("never throws, and stays within its work budget", () => {
    fc.assert(
      fc.property(fc.oneof(lineOf(false), lineOf(true), fc.string({ unit: fc.constantFrom(..."$()`'\"\\<>|&;{}[]#!= \nax0-"), maxLength: 400 })), (line) => {
        const reading = readCommandLine(line);
        expect(reading.work, line).toBeGreaterThanOrEqual(0);
        expect(reading.work, line).toBeLessThanOrEqual(WORK_BUDGET);
        if (!reading.ok) expect(reading.reason, line).toMatch(/\S/);
      }),
      { numRuns: 400 },
    );
  });

  it("allows only lines whose every command word it read", () => {
    fc.assert(
      fc.property(fc.oneof(lineOf(false), lineOf(true)), (line) => {
        const verdict = judgeCommandLine(line, Allow, Refused);
        if (verdict.allowed) for (const command of verdict.commands) expect(command.words[0]?.dynamic, `${line}: ${command.text}`).not.toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it("never allows a line where bash would run code Baton cannot see, wherever it sits", () => {
    fc.assert(
      fc.property(lineOf(true), (line) => {
        expect(judgeCommandLine(line, Allow, Refused).allowed, line).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it("allows the harmless pieces, however they are wrapped", () => {
    fc.assert(
      fc.property(lineOf(false), (line) => {
        const reading = readCommandLine(line);
        // A line repeated past the budget is refused as too complex, which is allowed to happen.
        if (!reading.ok && reading.reason.startsWith("too complex to check")) return;
        expect(judgeCommandLine(line, Allow, Refused), line).toMatchObject({ allowed: true });
      }),
      { numRuns: 300 },
    );
  });
});
