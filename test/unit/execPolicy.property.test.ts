// The exec policy over generated Bash lines: commands a preset allows and a forbidden one
// (`npm i x`, `rm -rf /`, …) nested in every way bash runs a command — lists, pipelines,
// subshells, groups, `$(…)`, backticks, `<(…)`, `bash -c`/`sh -c`/`eval` strings, control
// structures, function bodies, heredocs that expand — with the command word quoted or escaped,
// assignment prefixes, wrappers and redirections. A forbidden command that would run anywhere
// means no `allowed` verdict; a forbidden word that only sits in a comment or a quoted `echo`
// argument changes nothing; a line made only of allowed commands is allowed. The allowlists are
// the exec allowlist regexes of the design Baton's presets started from, translated to
// CommandPatterns (fixed here, not the built-in presets' current ones). And options that write
// (`sort -o f`, `git diff --output=f`, `prettier --write f`, …, commandEffects.ts) hidden the same
// ways: never allowed to a built-in preset that may not write, always reported for the others.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { builtinPresetSet } from "../../src/main/policy/presets/builtinPresets.js";
import { decidePolicy } from "../../src/main/policy/decidePolicy.js";
import { judgeCommandLine, allowlistsAllowing, NEUTRAL_BUILTINS } from "../../src/main/policy/presets/execPolicy.js";
import { loadShellParser } from "../../src/main/policy/shell/shellParser.js";
import { nodeWritePathFs } from "../../src/main/policy/writePathFs.js";
import type { CommandPattern, RefusedCommand } from "../../src/shared/policy.js";

beforeAll(async () => {
  await loadShellParser();
});

// One pattern per program and subcommands; the analyst's regex was
// `^(go\s+(test|vet)|git\s+(log|diff|status)|curl|wget|grep|find)\b`, the others alike.
const SeedAllowlists: Readonly<Record<string, readonly CommandPattern[]>> = {
  analyst: ["go test|vet", "git log|diff|status", "curl", "wget", "grep", "find"],
  coder: [
    "go test|vet|fmt",
    "gofmt",
    "goimports",
    "golangci-lint",
    "prettier",
    "eslint",
    "black",
    "ruff",
    "cargo test|fmt|clippy",
    "pnpm test",
    "pnpm run test|lint|format",
    "bun test",
    "bun run test|lint|format",
    "uv run",
  ],
  worker: ["go", "pnpm install|add|run|test|build", "bun install|add|run|test|build", "uv run|sync|add", "uv pip install", "pip install", "cargo"],
  coordinator: ["go", "pnpm", "bun", "curl", "wget"],
};
const Presets = Object.keys(SeedAllowlists);

const Refused: readonly RefusedCommand[] = [
  { pattern: "npm", reason: "npm is refused for every preset" },
  { pattern: "npx", reason: "npx is refused for every preset" },
];

// Forbidden for every preset above: refused, or in no allowlist.
const Forbidden: readonly (readonly string[])[] = [
  ["npm", "i", "x"],
  ["npm", "install"],
  ["npx", "create-thing"],
  ["rm", "-rf", "/"],
  ["/usr/bin/npm", "ci"],
];

const SafeArgs = ["./...", "-v", "src", "--flag=1", "'a b'", '"c d"', "x.go", "-run", "TestX"];

// Harmless words: a forbidden command as a quoted argument of a builtin that runs nothing.
const Decoys = ["echo 'npm i x'", 'echo "rm -rf /"', "printf '%s' 'npx x'", "true", "cd src", "test -f 'npm'"];

/** The command word as the shell reads it, spelled one of the ways bash resolves to it. */
function spell(word: string, style: number): string {
  if (word.includes("/") || word.length < 2) return style % 2 === 0 ? word : `'${word}'`;
  switch (style) {
    case 1:
      return `'${word}'`;
    case 2:
      return `"${word}"`;
    case 3:
      return `'${word[0]}'${word.slice(1)}`;
    case 4:
      return `"${word.slice(0, 2)}"${word.slice(2)}`;
    case 5:
      return `${word[0]}\\${word.slice(1)}`;
    case 6:
      return `$'${word}'`;
    case 7:
      return `${word[0]}''${word.slice(1)}`;
    default:
      return word;
  }
}

const Prefixes = ["", "", "FOO=1 ", "A=1 B='x y' ", "env FOO=1 ", "env -i ", "timeout 5 ", "nice -n 5 ", "sudo -u x ", "command ", "nohup ", "time ", "stdbuf -oL ", "ionice -c 3 ", "doas ", "sudo env X=1 timeout 9 ", "xargs "];
// xargs adds arguments only known when it runs: an allowed command under it may be refused.
const Adding = 1;
const Redirections = ["", "", " > out.txt", " 2>&1", " >> log.txt 2>&1", " 2>/dev/null", " < /dev/null", " &> all.log"];

interface Atom {
  readonly words: readonly string[];
  readonly prefix: number;
  readonly spelling: number;
  readonly redirect: number;
}

function renderAtom(atom: Atom): string {
  const [head, ...rest] = atom.words;
  return `${Prefixes[atom.prefix]}${spell(head!, atom.spelling)}${rest.length ? " " + rest.join(" ") : ""}${Redirections[atom.redirect]}`;
}

/** A command some pattern of `allow` names: one alternative per pattern word, then safe arguments. */
function allowedWords(allow: readonly CommandPattern[]): fc.Arbitrary<readonly string[]> {
  return fc
    .tuple(fc.constantFrom(...allow), fc.nat(), fc.array(fc.constantFrom(...SafeArgs), { maxLength: 3 }))
    .map(([pattern, pick, args]) => [...pattern.split(" ").map((alts) => { const a = alts.split("|"); return a[pick % a.length]!; }), ...args]);
}

const atomOf = (words: fc.Arbitrary<readonly string[]>, adding = true): fc.Arbitrary<Atom> =>
  fc.record({ words, prefix: fc.nat(Prefixes.length - (adding ? 1 : 1 + Adding)), spelling: fc.nat(7), redirect: fc.nat(Redirections.length - 1) });

/** The shapes bash runs a command in; `leaf` is where an atom goes. */
type Shape =
  | { readonly kind: "leaf" }
  | { readonly kind: "decoy"; readonly text: string }
  | { readonly kind: "wrap"; readonly how: number; readonly inner: Shape }
  | { readonly kind: "join"; readonly how: number; readonly left: Shape; readonly right: Shape };

const Joins = [" && ", " || ", "; ", " | ", "\n", " & ", " # npm i x; rm -rf /\n", " |& "];
const WrapCount = 17;

const shapes = fc.letrec<{ shape: Shape }>((tie) => ({
  shape: fc.oneof(
    { depthSize: "medium", withCrossShrink: true },
    fc.constant<Shape>({ kind: "leaf" }),
    fc.constantFrom(...Decoys).map((text): Shape => ({ kind: "decoy", text })),
    fc.record({ kind: fc.constant("wrap" as const), how: fc.nat(WrapCount - 1), inner: tie("shape") }),
    fc.record({ kind: fc.constant("join" as const), how: fc.nat(Joins.length - 1), left: tie("shape"), right: tie("shape") }),
  ),
}));

function singleQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function doubleQuoted(text: string): string {
  return `"${text.replace(/[\\"$`]/g, (c) => `\\${c}`)}"`;
}

function wrap(how: number, t: string): string {
  // Backticks and heredocs change how their contents are read; those shapes only take plain text.
  // (tree-sitter-bash also fails on some `$(…)` inside backticks: refused, as unreadable.)
  const plain = !/[`\\\n]|\$\(/.test(t);
  switch (how) {
    case 0:
      return `( ${t} )`;
    case 1:
      return `{ ${t}; }`;
    case 2:
      return `echo $( ${t} )`;
    case 3:
      return `echo "$( ${t} )"`;
    case 4:
      return plain ? `echo \`${t}\`` : `echo $( ${t} )`;
    case 5:
      return `echo <( ${t} )`;
    case 6:
      return `bash -c ${singleQuoted(t)}`;
    case 7:
      return `sh -c ${doubleQuoted(t)}`;
    case 8:
      return `eval ${singleQuoted(t)}`;
    case 9:
      return `if true; then ${t}; fi`;
    case 10:
      return `for i in 1 2; do ${t}; done`;
    case 11:
      return `case x in x) ${t};; esac`;
    case 12:
      return `while false; do ${t}; done`;
    case 13:
      return `f() { ${t}; }`;
    case 14:
      return plain ? `{ true <<EOF\n$( ${t} )\nEOF\n}` : `( ${t} )`;
    case 15:
      return `x=$( ${t} )`;
    default:
      // tree-sitter-bash misreads `! if …`, `! { …; }` (refused as unreadable): negate a subshell there.
      return /^(?:if|for|while|case|\{|f\(\)|!)[\s(]/.test(t) ? `! ( ${t} )` : `! ${t}`;
  }
}

function leaves(shape: Shape): number {
  if (shape.kind === "leaf") return 1;
  if (shape.kind === "decoy") return 0;
  if (shape.kind === "wrap") return leaves(shape.inner);
  return leaves(shape.left) + leaves(shape.right);
}

/** The line, each leaf filled by the next atom. */
function render(shape: Shape, atoms: readonly string[], next = { i: 0 }): string {
  switch (shape.kind) {
    case "leaf":
      return atoms[next.i++ % atoms.length]!;
    case "decoy":
      return shape.text;
    case "wrap":
      return wrap(shape.how, render(shape.inner, atoms, next));
    case "join": {
      const left = render(shape.left, atoms, next);
      return `${left}${Joins[shape.how]}${render(shape.right, atoms, next)}`;
    }
  }
}

const scenario = fc.constantFrom(...Presets).chain((preset) => {
  const allow = SeedAllowlists[preset]!;
  return fc.record({
    preset: fc.constant(preset),
    shape: shapes.shape.filter((s) => leaves(s) > 0),
    allowed: fc.array(atomOf(allowedWords(allow), false).map(renderAtom), { minLength: 1, maxLength: 6 }),
    forbidden: atomOf(fc.constantFrom(...Forbidden)).map(renderAtom),
    where: fc.nat(),
  });
});

describe("exec policy over generated lines", () => {
  it("never allows a line in which a forbidden command would run", () => {
    fc.assert(
      fc.property(scenario, ({ preset, shape, allowed, forbidden, where }) => {
        const n = leaves(shape);
        const slot = where % n;
        const atoms = Array.from({ length: n }, (_, i) => (i === slot ? forbidden : allowed[i % allowed.length]!));
        const line = render(shape, atoms);
        const verdict = judgeCommandLine(line, SeedAllowlists[preset]!, Refused);
        expect(verdict.allowed, line).toBe(false);
      }),
      { numRuns: 600 },
    );
  });

  it("allows a line made only of allowed commands, whatever wraps them", () => {
    fc.assert(
      fc.property(scenario, ({ preset, shape, allowed }) => {
        const line = render(shape, allowed);
        const verdict = judgeCommandLine(line, SeedAllowlists[preset]!, Refused);
        expect(verdict, line).toMatchObject({ allowed: true });
      }),
      { numRuns: 600 },
    );
  });
});

// Commands a built-in preset allows, with an option or operand that writes `@T` (commandEffects.ts).
const WritingEveryone = ["sort -o @T a", "sort --output=@T a", "sort -uo@T a", "sort -T @T a", "tree -o @T", "tree -aLo 2 @T src", "git diff --output=@T", "git log --output @T", "git show --stat --output=@T HEAD", "uniq a @T", "uniq -c -- a @T"];
const WritingOptions: Readonly<Record<string, readonly string[]>> = {
  scout: WritingEveryone,
  analyst: [...WritingEveryone, "go test -coverprofile=@T ./...", "go test -o @T ./x", "go test -json -memprofile=@T ./..."],
  coder: [...WritingEveryone, "go test -cpuprofile @T ./...", "prettier --write @T", "prettier -w @T", "black @T", "gofmt -w @T", "goimports -w @T", "eslint --fix @T", "eslint -o @T .", "ruff format @T", "ruff check --fix @T", "go fmt @T", "cargo test --target-dir @T"],
  worker: [...WritingEveryone, "go build -o @T ./cmd/x", "go test -c -o @T", "cargo build --target-dir @T"],
  coordinator: [...WritingEveryone, "curl -o @T https://example.com", "curl -sSD @T https://example.com", "wget -O @T https://example.com", "wget -qP @T https://example.com", "go build -o @T"],
};
/** Where the option writes, as written and as bash passes it. */
const Targets: readonly (readonly [string, string])[] = [
  ["out.txt", "out.txt"],
  ["build/out", "build/out"],
  ["/etc/passwd", "/etc/passwd"],
  ["../up.txt", "../up.txt"],
  ["'with space.txt'", "with space.txt"],
];

const builtins = builtinPresetSet();
const writing = (writes: "none" | "write-root") =>
  fc.constantFrom(...builtins.presets.filter((p) => p.write === writes && p.exec.length > 0)).chain((preset) =>
    fc.record({
      preset: fc.constant(preset),
      shape: shapes.shape.filter((s) => leaves(s) > 0),
      allowed: fc.array(atomOf(allowedWords(preset.exec), false).map(renderAtom), { minLength: 1, maxLength: 4 }),
      writer: fc.record({ line: fc.constantFrom(...WritingOptions[preset.name]!), target: fc.constantFrom(...Targets) }),
      atom: atomOf(fc.constant(["placeholder"])),
      where: fc.nat(),
    }),
  );

/** The line with the writing command in one slot (the atom's prefix, spelling and redirection around it). */
function writingLine(sample: { shape: Shape; allowed: readonly string[]; writer: { line: string; target: readonly [string, string] }; atom: Atom; where: number }): string {
  const n = leaves(sample.shape);
  const words = sample.writer.line.split(" ").map((w) => w.replace("@T", sample.writer.target[0]));
  const writer = renderAtom({ ...sample.atom, words });
  return render(sample.shape, Array.from({ length: n }, (_, i) => (i === sample.where % n ? writer : sample.allowed[i % sample.allowed.length]!)));
}

describe("options that write, over generated lines", () => {
  it("never allows a writing option to a preset that may not write", () => {
    fc.assert(
      fc.property(writing("none"), (sample) => {
        const line = writingLine(sample);
        const context = { orchestration: true, presets: builtins, rules: [], cwd: "/home/user/code/x", projectRoot: "/home/user/code/x", home: "/home/user", fs: nodeWritePathFs };
        const verdict = decidePolicy({ agent: { kind: "subagent", agentId: "a1", agentType: sample.preset.name }, toolName: "Bash", input: { command: line } }, context);
        expect(verdict.decision, line).toBe("deny");
      }),
      { numRuns: 300 },
    );
  });

  it("reports the write of every writing option to the others, allowed or not", () => {
    fc.assert(
      fc.property(writing("write-root"), (sample) => {
        const line = writingLine(sample);
        const verdict = judgeCommandLine(line, [...NEUTRAL_BUILTINS, ...sample.preset.exec], builtins.refused);
        const reported = verdict.writes.some((w) => ["option", "operand"].includes(w.operator) && !w.target.dynamic && w.target.value === sample.writer.target[1]);
        expect(reported, `${line}: ${JSON.stringify(verdict.writes)}`).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe("exec policy verdicts", () => {
  const coder = SeedAllowlists["coder"]!;

  it("names the refused command and its reason, wherever it hides", () => {
    expect(judgeCommandLine("go test ./... && npm i x", coder, Refused)).toMatchObject({
      allowed: false,
      why: "refused",
      command: "npm i x",
      reason: "npm is refused for every preset",
    });
    expect(judgeCommandLine("foo; bash -c 'FOO=1 /usr/bin/npm ci'", coder, Refused)).toMatchObject({ why: "refused", command: "FOO=1 /usr/bin/npm ci" });
  });

  it("matches patterns word by word, with alternatives", () => {
    expect(judgeCommandLine("go vet ./...", coder, Refused).allowed).toBe(true);
    expect(judgeCommandLine("go build ./...", coder, Refused)).toMatchObject({ allowed: false, why: "not-allowed", command: "go build ./..." });
    expect(judgeCommandLine("pnpm run lint", coder, Refused).allowed).toBe(true);
    expect(judgeCommandLine("pnpm run build", coder, Refused).allowed).toBe(false);
    expect(judgeCommandLine("pnpm", coder, Refused).allowed).toBe(false);
    expect(judgeCommandLine("gofmtx -l .", coder, Refused).allowed).toBe(false);
  });

  it("refuses a command word given as a path the pattern does not name", () => {
    expect(judgeCommandLine("/usr/bin/go test", coder, Refused)).toMatchObject({ allowed: false, why: "not-allowed" });
    expect(judgeCommandLine("./go test", coder, Refused)).toMatchObject({ allowed: false, why: "not-allowed" });
  });

  it("refuses words Baton cannot know where a pattern needs a literal", () => {
    expect(judgeCommandLine("$GO test", coder, Refused)).toMatchObject({ allowed: false, why: "dynamic", command: "$GO test" });
    expect(judgeCommandLine("go $SUB", coder, Refused)).toMatchObject({ allowed: false, why: "not-allowed" });
    expect(judgeCommandLine("go te*", coder, Refused)).toMatchObject({ allowed: false, why: "not-allowed" });
    expect(judgeCommandLine("go test ./$PKG", coder, Refused).allowed).toBe(true);
    // `$PKG` could be `-toolexec=…`: a computed word where an option could be is unknowable.
    expect(judgeCommandLine("go test $PKG", coder, Refused)).toMatchObject({ allowed: false, why: "unreadable" });
    expect(judgeCommandLine('bash -c "$SCRIPT"', coder, Refused)).toMatchObject({ allowed: false, why: "dynamic" });
  });

  it("refuses a line that changes PATH", () => {
    expect(judgeCommandLine("PATH=./bin go test", coder, Refused)).toMatchObject({ allowed: false, why: "dynamic" });
    expect(judgeCommandLine("export PATH=./bin:$PATH; go test", coder, Refused)).toMatchObject({ allowed: false, why: "dynamic" });
  });

  it("refuses what it cannot read, and runs nothing with an empty allowlist", () => {
    expect(judgeCommandLine("go test 'unterminated", coder, Refused)).toMatchObject({ allowed: false, why: "unreadable" });
    expect(judgeCommandLine("cd src", [], Refused)).toMatchObject({ allowed: false, why: "not-allowed" });
    expect(judgeCommandLine("cd src && echo ok > out.txt", coder, Refused)).toMatchObject({ allowed: true, writes: [{ operator: ">", target: { value: "out.txt" } }] });
  });

  it("hands the writes to the caller, allowed or not", () => {
    const allowed = judgeCommandLine("go vet > $OUT; echo x >> /etc/y", coder, Refused);
    expect(allowed.allowed).toBe(true);
    expect(allowed.writes.map((w) => [w.operator, w.target.value, w.target.dynamic])).toEqual([
      [">", "$OUT", true],
      [">>", "/etc/y", false],
    ]);
    const refused = judgeCommandLine("go test | tee /etc/y", coder, Refused);
    expect(refused).toMatchObject({ allowed: false, command: "tee /etc/y" });
    expect(refused.writes.map((w) => [w.operator, w.target.value])).toEqual([["tee", "/etc/y"]]);
  });

  it("says which allowlists would allow a refused command", () => {
    const lists = Presets.map((name) => ({ name, allow: SeedAllowlists[name]! }));
    expect(allowlistsAllowing("pnpm install", lists, Refused)).toEqual(["worker", "coordinator"]);
    expect(allowlistsAllowing("go build", lists, Refused)).toEqual(["worker", "coordinator"]);
    expect(allowlistsAllowing("git log", lists, Refused)).toEqual(["analyst"]);
    expect(allowlistsAllowing("npm i", lists, Refused)).toEqual([]);
  });
});
