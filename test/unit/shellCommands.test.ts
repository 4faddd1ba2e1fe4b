// What a Bash line would run, read with the real shell parser: each hard case of issue 22 maps to
// the exact simple commands (words as bash would pass them; ⟨…⟩ marks a word only known at run
// time) and the exact files it would write. A misread here is a policy hole or a false denial.
import { beforeAll, describe, expect, it } from "vitest";
import { readCommandLine, type ShellWrite, type SimpleCommand } from "../../src/main/policy/shell/shellCommands.js";
import { loadShellParser } from "../../src/main/policy/shell/shellParser.js";
import type { ShellWord } from "../../src/main/policy/shell/shellWords.js";

beforeAll(async () => {
  await loadShellParser();
});

const word = (w: ShellWord): string => (w.dynamic ? `⟨${w.value}⟩` : w.value);
const shown = (c: SimpleCommand): string => c.words.map(word).join(" ");
const written = (w: ShellWrite): string => `${w.operator} ${word(w.target)}`;

function read(line: string): { commands: string[]; writes: string[] } {
  const reading = readCommandLine(line);
  if (!reading.ok) throw new Error(`unreadable: ${reading.reason}`);
  return { commands: reading.commands.map(shown), writes: reading.writes.map(written) };
}

function commandsOf(line: string): string[] {
  return read(line).commands;
}

describe("every simple command of a line", () => {
  it.each([
    ["a; b && c || d", ["a", "b", "c", "d"]],
    ["go vet\ngo test\n\ngit status", ["go vet", "go test", "git status"]],
    ["git log | grep x |& head -1", ["git log", "grep x", "head -1"]],
    ["(npm i)", ["npm i"]],
    ["{ npm i; }", ["npm i"]],
    ["echo $(npm i)", ["echo ⟨$(npm i)⟩", "npm i"]],
    ["echo `npm i`", ["echo ⟨`npm i`⟩", "npm i"]],
    ["diff <(npm i) x", ["diff ⟨<(npm i)⟩ x", "npm i"]],
    ['echo "$(echo "$(npm i)")"', ['echo ⟨"$(echo "$(npm i)")"⟩', 'echo ⟨"$(npm i)"⟩', "npm i"]],
    ["echo ${x:-$(npm i)}", ["echo ⟨${x:-$(npm i)}⟩", "npm i"]],
    ["x=$(npm i)", ["npm i"]],
    ["a & npm i", ["a", "npm i"]],
    ["! npm i", ["npm i"]],
    ["f() { npm i; }; f", ["npm i", "f"]],
    ["function f { npm i; }", ["npm i"]],
    ["if a; then b; elif c; then d; else e; fi", ["a", "b", "c", "d", "e"]],
    ["while a; do b; done; until c; do d; done", ["a", "b", "c", "d"]],
    ["for x in $(npm i); do go test $x; done", ["npm i", "go test ⟨$x⟩"]],
    ["for ((i = 0; i < 3; i++)); do go test; done", ["go test"]],
    ["case $x in a) npm i;; b|c) go test;; esac", ["npm i", "go test"]],
    ["[[ -f x && $(npm i) ]]", ["npm i"]],
    ["(( x = 1 )) && npm i", ["npm i"]],
    ["echo $((1 + 2))", ["echo ⟨$((1 + 2))⟩"]],
    ["cat <<< $(npm i)", ["cat", "npm i"]],
    ["go test # npm i", ["go test"]],
    ["# npm i\ngo vet", ["go vet"]],
    ["$CMD i", ["⟨$CMD⟩ i"]],
  ])("%j", (line, expected) => {
    expect(commandsOf(line)).toEqual(expected);
  });
});

describe("shell scripts given to a shell or eval are read again", () => {
  it.each([
    ["bash -c 'npm i'", ["npm i"]],
    ['sh -c "a; npm i"', ["a", "npm i"]],
    ["zsh -c 'go test && npm i'", ["go test", "npm i"]],
    ["bash -ec 'npm i' name arg", ["npm i"]],
    ["bash -o pipefail -c 'npm i | cat'", ["npm i", "cat"]],
    ['eval "npm i"', ["npm i"]],
    ["eval npm i", ["npm i"]],
    ['bash -c "sh -c \'npm i\'"', ["npm i"]],
    ['bash -c "$X"', ['⟨"$X"⟩']],
    ["eval $X", ["⟨$X⟩"]],
    ["bash script.sh", ["bash script.sh"]],
  ])("%j", (line, expected) => {
    expect(commandsOf(line)).toEqual(expected);
  });

  it("records the shell as a wrapper of what its script runs", () => {
    const reading = readCommandLine("sudo bash -c 'FOO=1 npm i'");
    expect(reading.ok && reading.commands.map((c) => [c.wrappers, c.assigns])).toEqual([[["sudo", "bash -c"], ["FOO"]]]);
  });

  it("stops reading shells inside shells past a bounded depth", () => {
    let line = "npm i";
    for (let i = 0; i < 8; i++) line = `eval ${JSON.stringify(line)}`;
    const reading = readCommandLine(line);
    expect(reading.ok).toBe(false);
  });
});

describe("wrappers are looked through, assignments stripped", () => {
  it.each([
    ["env FOO=1 npm i", ["npm i"]],
    ["env -i -u HOME FOO=1 -- npm i", ["npm i"]],
    ["FOO=1 BAR=2 npm i", ["npm i"]],
    ["command npm i", ["npm i"]],
    ["exec npm i", ["npm i"]],
    ["nice -n 5 npm i", ["npm i"]],
    ["nice -10 npm i", ["npm i"]],
    ["timeout 5 npm i", ["npm i"]],
    ["timeout -s KILL --kill-after=3 5m npm i", ["npm i"]],
    ["find . -name x | xargs npm i", ["find . -name x", "npm i"]],
    // `{}` stands for each input: only known when xargs runs.
    ["xargs -0 -n 1 -I {} npm i {}", ["npm i ⟨{}⟩"]],
    ["xargs", ["echo"]],
    ["sudo -u x npm i", ["npm i"]],
    ["sudo -E -u x FOO=1 npm i", ["npm i"]],
    ["nohup npm i", ["npm i"]],
    ["time npm i", ["npm i"]],
    ["time -p npm i", ["npm i"]],
    ["stdbuf -oL npm i", ["npm i"]],
    ["ionice -c 3 npm i", ["npm i"]],
    ["doas -u x npm i", ["npm i"]],
    ["coproc npm i", ["npm i"]],
    ["/usr/bin/env npm i", ["npm i"]],
    ["sudo env timeout 5 nice npm i", ["npm i"]],
  ])("%j", (line, expected) => {
    expect(commandsOf(line)).toEqual(expected);
  });

  it.each([
    // Not unwrapped: the wrapper stays the command (and no allowlist names a wrapper).
    ["./env npm i", ["./env npm i"]],
    ["sudo -s npm i", ["sudo -s npm i"]],
    ["env -S 'npm i'", ["env -S npm i"]],
    ["sudo --frobnicate npm i", ["sudo --frobnicate npm i"]],
    ["env $OPTS npm i", ["env ⟨$OPTS⟩ npm i"]],
    ["command -v npm", ["command -v npm"]],
  ])("%j stays as written", (line, expected) => {
    expect(commandsOf(line)).toEqual(expected);
  });

  it("keeps the names assigned, for the policy to see PATH changes", () => {
    const reading = readCommandLine("PATH=./bin env GOFLAGS=x go test; export PATH=/x; y=1");
    expect(reading.ok && reading.commands.map((c) => c.assigns)).toEqual([["PATH", "GOFLAGS"], []]);
    expect(reading.ok && reading.assigned).toEqual(["PATH", "y"]);
  });
});

describe("words resolve to their literal values", () => {
  it.each([
    ["'n'pm i", "npm i"],
    ['"np"m i', "npm i"],
    ["n\\pm i", "npm i"],
    ["$'npm' i", "npm i"],
    ["$'\\x6epm' i", "npm i"],
    ["np''m i", "npm i"],
    ['"npm" "i"', "npm i"],
    ['echo "a \\"b\\" \\$c"', 'echo a "b" $c'],
    ["echo a\\ b", "echo a b"],
    ["go test \\\n  ./...", "go test ./..."],
    ["echo *.go", "echo ⟨*.go⟩"],
    ["echo {a,b}", "echo ⟨{a,b}⟩"],
    ["echo \\*", "echo *"],
    ["ls ~/x", "ls ⟨~/x⟩"],
    ['echo "$HOME"', 'echo ⟨"$HOME"⟩'],
    ["echo é😀", "echo é😀"],
  ])("%j", (line, expected) => {
    expect(commandsOf(line)).toEqual([expected]);
  });
});

describe("writes", () => {
  it.each([
    ["echo x > /etc/y", ["> /etc/y"]],
    [">> f", [">> f"]],
    ["echo x >| f &> g &>> h", [">| f", "&> g", "&>> h"]],
    ["echo x >& f", [">& f"]],
    ["echo x | tee /etc/y", ["tee /etc/y"]],
    ["echo x | tee -a a.log -- -b", ["tee a.log", "tee -b"]],
    ["echo x | sudo tee /etc/y", ["tee /etc/y"]],
    ["dd if=/dev/zero of=/etc/y bs=1", ["dd /etc/y"]],
    ['echo x > "$out"', ['> ⟨"$out"⟩']],
    ["echo x | tee $f", ["tee ⟨$f⟩"]],
    ['dd "of=$f"', ['dd ⟨"of=$f"⟩']],
    ["go test > out.log 2>&1", ["> out.log"]],
    ["go test 2>&1 >&2 3>&- 2>/dev/null >/dev/stderr", []],
    ["cat < in.txt", []],
    ["cat <<EOF > f\nnpm i\nEOF", ["> f"]],
    ["bash -c 'echo x > /etc/y'", ["> /etc/y"]],
  ])("%j", (line, expected) => {
    expect(read(line).writes).toEqual(expected);
  });

  it("passes the words after a redirection target to the command, as bash does", () => {
    expect(read("echo > a b")).toEqual({ commands: ["echo b"], writes: ["> a"] });
    expect(read("> f npm i")).toEqual({ commands: ["npm i"], writes: ["> f"] });
    expect(read("go vet && echo > a b")).toEqual({ commands: ["go vet", "echo b"], writes: ["> a"] });
  });
});

describe("heredocs", () => {
  it("runs the substitutions of an unquoted heredoc, not those of a quoted one", () => {
    expect(commandsOf("cat <<EOF\n$(npm i)\nEOF")).toEqual(["cat", "npm i"]);
    expect(commandsOf("cat <<'EOF'\n$(npm i)\nEOF")).toEqual(["cat"]);
    expect(commandsOf("cat <<-EOF\n\tnpm i\n\tEOF\ngo vet")).toEqual(["cat", "go vet"]);
  });

  it("sees the rest of the heredoc's first line", () => {
    expect(commandsOf("cat <<EOF && npm i\nx\nEOF")).toEqual(["cat", "npm i"]);
  });

  it("keeps the dash of `python3 - <<EOF`, which the grammar drops", () => {
    expect(commandsOf("python3 - <<'PY'\nprint(1)\nPY")).toEqual(["python3 -"]);
    expect(commandsOf("python3 -<<'PY'\nprint(1)\nPY")).toEqual(["python3 -"]);
    expect(commandsOf("cd x && python3 - <<'PY'\nprint(1)\nPY")).toEqual(["cd x", "python3 -"]);
  });
});

describe("lines the grammar misreads are read as bash reads them", () => {
  it("ends a command at the newline after a pipeline of three", () => {
    // tree-sitter-bash alone reads this as `go test npm i x` (found by the property test).
    expect(read("go test | go vet | go test\nnpm i x > f")).toEqual({ commands: ["go test", "go vet", "go test", "npm i x"], writes: ["> f"] });
  });

  it("ends a command at a comment", () => {
    expect(read("a |& b |& c # note\nnpm i x > f")).toEqual({ commands: ["a", "b", "c", "npm i x"], writes: ["> f"] });
    expect(commandsOf("go test # trailing")).toEqual(["go test"]);
    expect(commandsOf("cat <<EOF # note\n$(npm i)\nEOF")).toEqual(["cat", "npm i"]);
  });
});

describe("what cannot be read is refused", () => {
  it.each([
    ["echo 'abc"],
    ['echo "abc'],
    ["echo $("],
    ["echo `abc"],
    ["if x; then"],
    ["a &&"],
    ["a | | b"],
    ["echo )"],
    ["cat <<EOF"],
    // Bash joins the two halves into `npm`; the grammar splits them: refused rather than misread.
    ["n\\\npm i"],
    ["exec 3<> f"],
    // Bash ends a heredoc only at a line that is exactly its delimiter: these run `$(npm i)` as
    // part of the body; the grammar ends the heredoc early and reads a quoted string.
    ["cat <<EOF\nx\nEOF; echo '$(npm i)'"],
    ["cat <<EOF\nx\nEOF \necho '$(npm i)'"],
    ["cat <<EOF\nx\n EOF\necho '$(npm i)'"],
    // Arithmetic evaluates the substitution's output as an expression (shellEvaluation.ts).
    ["(( x = $(npm i) + 1 ))"],
    // The grammar reads these reserved words as command names; refused rather than misread.
    ["! if true; then npm i; fi"],
    ["! { npm i; }"],
    ["time while true; do npm i; done"],
    ["x".repeat(200_001)],
  ])("%j", (line) => {
    const reading = readCommandLine(line);
    expect(reading.ok).toBe(false);
    expect(!reading.ok && reading.reason).toMatch(/\S/);
  });

  it("reads very long lines to the end", () => {
    const line = Array.from({ length: 500 }, (_, i) => `echo ${i} "a b" 'c'`).join(" && ") + " && npm i";
    const commands = commandsOf(line);
    expect(commands).toHaveLength(501);
    expect(commands.at(-1)).toBe("npm i");
  });

  it("refuses nesting too deep to walk", () => {
    const reading = readCommandLine(`${"(".repeat(400)}npm i${")".repeat(400)}`);
    expect(reading.ok).toBe(false);
  });
});
