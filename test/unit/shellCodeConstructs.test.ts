// Where Bash runs as code what no reader of the line sees as a command (issue 31): the parser layer
// reads each such construct as bash would, or refuses the line as unreadable with a reason that
// names the construct. Each case is judged with a coder-like allowlist (the neutral builtins, go,
// git, pnpm, bun, uv run) and the npm refusal, so a misread shows as an `allowed` verdict.
import { beforeAll, describe, expect, it } from "vitest";
import { judgeCommandLine, NEUTRAL_BUILTINS, type ExecVerdict } from "../../src/main/policy/presets/execPolicy.js";
import { WORK_BUDGET } from "../../src/main/policy/shell/shellBudget.js";
import { readCommandLine, type ShellWrite } from "../../src/main/policy/shell/shellCommands.js";
import { loadShellParser } from "../../src/main/policy/shell/shellParser.js";
import type { CommandPattern, RefusedCommand } from "../../src/shared/policy.js";

beforeAll(async () => {
  await loadShellParser();
});

// The builtins that set variables or run code are allowed here, so that only the reading refuses them.
const Allow: readonly CommandPattern[] = [...NEUTRAL_BUILTINS, "read|mapfile|readarray|let|trap|getopts", "go test|vet", "git log|diff|status", "ls", "cat", "pnpm", "bun", "uv run", "bunx", "uvx"];
const Refused: readonly RefusedCommand[] = [
  { pattern: "npm", reason: "npm is refused" },
  { pattern: "npx", reason: "npx is refused" },
];

const judge = (line: string): ExecVerdict => judgeCommandLine(line, Allow, Refused);
const refusedNpm = { allowed: false, why: "refused" };
const unreadable = (reason: RegExp) => ({ allowed: false, why: "unreadable", reason: expect.stringMatching(reason) });
const dynamic = { allowed: false, why: "dynamic" };

describe("commands the grammar does not see", () => {
  it("an escaped backtick inside backticks is a substitution of its own", () => {
    expect(judge("echo `echo \\`npm i\\``")).toMatchObject(refusedNpm);
    expect(judge("echo `echo \\`echo \\\\\\`npm i\\\\\\`\\``")).toMatchObject(refusedNpm);
    expect(judge("echo `echo \\`ls\\``")).toMatchObject({ allowed: true });
  });

  it("backticks in an unquoted heredoc run; in a quoted one they are text", () => {
    expect(judge("cat <<EOF\n`npm i`\nEOF")).toMatchObject(refusedNpm);
    expect(judge("cat <<EOF\na `echo $x npm i` b\nEOF")).toMatchObject({ allowed: true });
    expect(judge("cat <<EOF\nx $y `npm i`\nEOF")).toMatchObject(refusedNpm);
    expect(judge("cat <<'EOF'\n`npm i`\nEOF")).toMatchObject({ allowed: true });
    expect(judge("cat <<EOF\n\\`npm i\\`\nEOF")).toMatchObject({ allowed: true });
  });

  it("xargs that gives a shell its input as the script", () => {
    expect(judge("ls | xargs -I{} sh -c {}")).toMatchObject(dynamic);
    expect(judge("ls | xargs -I % bash -c 'echo %'")).toMatchObject(dynamic);
    expect(judge("ls | xargs sh -c")).toMatchObject(dynamic);
    expect(judge("ls | xargs -I{} go test {}")).toMatchObject({ allowed: false });
    expect(judge("ls | xargs -I{} npm i {}")).toMatchObject(refusedNpm);
  });
});

describe("assignments that change PATH or what a program runs", () => {
  it.each([
    "printf -v PATH ./bin; go test",
    "for PATH in ./bin; do go test; done",
    "select PATH in ./bin; do go test; done",
    "unset PATH; go test",
    ": ${PATH:=./bin}; go test",
    ": ${PATH=./bin}; go test",
    "read PATH <<< ./bin; go test",
    "mapfile -t PATH < f; go test",
    "readarray PATH < f; go test",
    "builtin export PATH=./bin; go test",
    "command declare PATH=./bin; go test",
    "f() { local PATH; go test; }; f",
    "declare -- PATH=./bin; go test",
  ])("%j changes PATH", (line) => {
    expect(judge(line)).toMatchObject({ allowed: false, why: "dynamic", reason: expect.stringContaining("PATH") });
  });

  it("a nameref makes every later assignment's target unknowable", () => {
    expect(judge("declare -n p=PATH; p=./bin; go test")).toMatchObject(unreadable(/nameref|declare -n/));
    expect(judge("local -n p=GIT_EXTERNAL_DIFF")).toMatchObject(unreadable(/nameref|-n/));
    expect(judge("typeset -n p")).toMatchObject(unreadable(/nameref|-n/));
  });

  it.each([
    ["printf -v GIT_EXTERNAL_DIFF ./x; export GIT_EXTERNAL_DIFF; git diff", /GIT_EXTERNAL_DIFF/],
    ["read -r GIT_EXTERNAL_DIFF <<< ./x; git diff", /GIT_EXTERNAL_DIFF/],
    ["GIT_PAGER=./x git log", /GIT_PAGER/],
    ["env GIT_SSH_COMMAND=./x git log", /GIT_SSH_COMMAND/],
    ["BASH_ENV=./x.sh go test", /BASH_ENV/],
    ["ENV=./x.sh go test", /ENV/],
    ["LD_PRELOAD=./x.so ls", /LD_PRELOAD/],
    ["env LD_LIBRARY_PATH=. ls", /LD_LIBRARY_PATH/],
    ["export LD_PRELOAD=./x.so; ls", /LD_PRELOAD/],
    ["declare -x LD_PRELOAD=./x.so; ls", /LD_PRELOAD/],
    ["printf -v LD_PRELOAD ./x.so; export LD_PRELOAD; ls", /LD_PRELOAD/],
    ["npm_config_script_shell=./x pnpm test", /npm_config_script_shell/],
    ["NPM_CONFIG_GLOBAL=true pnpm add x", /NPM_CONFIG_GLOBAL/],
    ["UV_PROJECT_ENVIRONMENT=/tmp/v uv run pytest", /UV_PROJECT_ENVIRONMENT/],
    ["VIRTUAL_ENV=/tmp/v uv run pytest", /VIRTUAL_ENV/],
    ["PYTHONPATH=/tmp/x uv run pytest", /PYTHONPATH/],
    ["NODE_OPTIONS='--require ./x.js' pnpm test", /NODE_OPTIONS/],
    ["HOME=./h git log", /HOME/],
    ["SHELLOPTS=xtrace PS4='$(npm i)' bun test", /SHELLOPTS|PS4/],
  ])("%j makes the command unreadable", (line, named) => {
    expect(judge(line)).toMatchObject(unreadable(named));
  });

  it("variables that change nothing a program runs are fine", () => {
    expect(judge("CI=1 go test ./...")).toMatchObject({ allowed: true });
    expect(judge("x=1; export y=2; go test")).toMatchObject({ allowed: true });
    expect(judge("export -n CI; readonly PATH; go test")).toMatchObject({ allowed: true });
    expect(judge("GIT_AUTHOR_NAME=x git log")).toMatchObject({ allowed: true });
    expect(judge("NODE_OPTIONS='--max-old-space-size=4096 --enable-source-maps' pnpm test")).toMatchObject({ allowed: true });
    expect(judge("export NODE_OPTIONS=--no-warnings; pnpm test")).toMatchObject({ allowed: true });
  });
});

describe("npm reached through another program's launcher", () => {
  it.each([
    "pnpm dlx npm i",
    "pnpm exec npm i",
    "pnpm -r exec npm i",
    "pnpm --filter x exec npm i",
    "pnpm npm i",
    "pnpm exec env npx foo",
    "pnpm -c exec 'npm i'",
    "pnpm view react",
    "bun x npm i",
    "bunx npm i",
    "bunx --bun npx foo",
    "uv run npm i",
    "uv run --with x npm i",
    "uvx npm",
    "sudo -u x pnpm exec npm i",
    "timeout 5 bunx npm i",
  ])("%j is npm", (line) => {
    expect(judge(line)).toMatchObject(refusedNpm);
  });

  it("the program a launcher runs is judged by the refused list; a computed one is unknowable", () => {
    expect(judge("pnpm exec eslint .")).toMatchObject({ allowed: true });
    expect(judge("pnpm exec $X")).toMatchObject(dynamic);
    expect(judge("uv run pytest -k npm")).toMatchObject({ allowed: true });
    expect(judge("bun -e 'require(\"child_process\").execSync(\"npm i\")'")).toMatchObject(unreadable(/bun (-e|--eval)/));
    expect(judge("bun --print 1")).toMatchObject(unreadable(/bun/));
  });
});

describe("constructs where bash runs quoted data as code", () => {
  it.each([
    ["test -v 'a[$(npm i)]'", /test -v|subscript/],
    ["[ -v 'a[$(npm i)]' ]", /-v|subscript/],
    ["[[ -v 'a[$(npm i)]' ]]", /-v|subscript/],
    ["[[ -v $x ]]", /-v/],
    ["x='a[$(npm i)]'; echo $((x))", /arithmetic/],
    ["x='a[$(npm i)]'; echo $(( $x + 1 ))", /arithmetic/],
    ["echo $((x))", /arithmetic/],
    ["(( x > 1 ))", /arithmetic/],
    ["echo $[x]", /arithmetic/],
    ["let y=x", /arithmetic|let/],
    ["echo ${a[x]}", /arithmetic|subscript/],
    ["a[$i]=1", /arithmetic|subscript/],
    ["echo ${s:x:1}", /arithmetic/],
    ["[[ $x -eq 1 ]]", /arithmetic/],
    ["n=$(cat f); echo $((n + 1))", /arithmetic/],
    ["x=0; while true; do echo $((x)); x=$(cat f); done", /arithmetic/],
    ["declare -i n; n=$(cat f)", /integer|arithmetic/],
    ["local -i n=$y", /integer|arithmetic/],
    ["printf -v 'a[$(npm i)]' x", /printf -v|subscript/],
    ["declare -a x='([$(npm i)]=1)'", /declare|compound|array/],
    ["declare \"$x\"", /declare/],
    ["export $(cat .env | xargs)", /export/],
    ["echo ${!x}", /indirect|\$\{!/],
    ["echo ${x@P}", /@P|prompt/],
    ["PS4='$(npm i)'; set -x; ls", /PS4/],
    ["PS1='$(npm i)'", /PS1/],
    ["PROMPT_COMMAND='npm i'", /PROMPT_COMMAND/],
    ["source ./x.sh", /source/],
    [". ./x.sh", /\./],
    ["mapfile -C 'npm i' x < f", /mapfile -C|callback/],
  ])("%j", (line, named) => {
    expect(judge(line)).toMatchObject(unreadable(named));
  });

  it("reads trap's handler as a script", () => {
    expect(judge("trap 'npm i' EXIT")).toMatchObject(refusedNpm);
    expect(judge('trap "$x" EXIT')).toMatchObject({ allowed: false });
    expect(readCommandLine("trap - EXIT")).toMatchObject({ ok: true });
  });

  it("eval of a computed script is unknowable", () => {
    expect(judge('eval "$x"')).toMatchObject(dynamic);
    expect(judge("eval 'npm i'")).toMatchObject(refusedNpm);
  });

  it.each([
    "for i in 1 2 3; do echo $((i * 2)); done",
    "i=0; echo $((i + 1))",
    "i=0; i=$((i + 1)); echo $((i))",
    "echo $((1 + 2)) $[3 * 4]",
    "for ((i = 0; i < 3; i++)); do echo $i; done",
    "[[ $# -gt 0 ]] && echo $(($# + 1))",
    "echo $((RANDOM % 6)) $(($$ + 1))",
    "echo ${a[0]} ${a[@]} ${#a[@]} ${!a[@]} ${!pre*}",
    "declare -A m; m[key]=1; echo ${m[key]}",
    "printf -v x '%s' y; echo $x",
    "declare x=1 y='(a)'; local z=$(ls)",
    "echo ${x@Q} ${x:-default} ${x:2} ${#x}",
    "[ $x -eq 1 ]",
    "test $(cat f) -gt 3",
    "set -x; ls",
  ])("%j is read", (line) => {
    expect(judge(line)).toMatchObject({ allowed: true });
  });
});

describe("the folder a write is relative to", () => {
  const writesOf = (line: string): { target: string; afterCd: string | undefined }[] => {
    const reading = readCommandLine(line);
    if (!reading.ok) throw new Error(reading.reason);
    return reading.writes.map((w: ShellWrite) => ({ target: w.target.value, afterCd: w.afterCd }));
  };

  it("a redirection is opened before the command or subshell it belongs to runs", () => {
    expect(writesOf("(cd src && ls) > listing.txt")).toEqual([{ target: "listing.txt", afterCd: undefined }]);
    expect(writesOf("{ cd src; ls; } > listing.txt")).toEqual([{ target: "listing.txt", afterCd: undefined }]);
    expect(writesOf("cd src > log.txt")).toEqual([{ target: "log.txt", afterCd: undefined }]);
    expect(writesOf("ls $(cd src) > listing.txt")).toEqual([{ target: "listing.txt", afterCd: undefined }]);
    expect(writesOf("bash -c 'cd src' > out; ls > b")).toEqual([
      { target: "out", afterCd: undefined },
      { target: "b", afterCd: undefined },
    ]);
  });

  it("a write after a cd in the same shell is relative to where it went", () => {
    expect(writesOf("cd src && ls > listing.txt")).toEqual([{ target: "listing.txt", afterCd: "cd src" }]);
    expect(writesOf("{ cd src; ls; } > a; ls > b")).toEqual([
      { target: "a", afterCd: undefined },
      { target: "b", afterCd: "cd src" },
    ]);
    expect(writesOf("cd src; (ls > out)")).toEqual([{ target: "out", afterCd: "cd src" }]);
    expect(writesOf("pushd src; bash -c 'ls > out'")).toEqual([{ target: "out", afterCd: "pushd src" }]);
    expect(writesOf("eval 'cd src'; ls > out")).toEqual([{ target: "out", afterCd: "cd src" }]);
  });

  it("a write in a loop or a function may run after a cd anywhere in the line", () => {
    expect(writesOf("for d in a b; do ls > out; cd $d; done")).toEqual([{ target: "out", afterCd: "cd $d" }]);
    expect(writesOf("f() { ls > out; }; cd src; f")).toEqual([{ target: "out", afterCd: "cd src" }]);
    expect(writesOf("f() { cd src; }; f; ls > out")).toEqual([{ target: "out", afterCd: "cd src" }]);
    expect(writesOf("for d in a b; do ls > out; done")).toEqual([{ target: "out", afterCd: undefined }]);
  });
});

describe("a budget of work per line", () => {
  it("refuses a line too complex to check, and says so", () => {
    const reading = readCommandLine(`cat <<EOF\n${"$x ".repeat(16_000)}\nEOF`);
    expect(reading).toMatchObject({ ok: false, reason: expect.stringContaining("too complex to check") });
  });

  it("counts its work, within the budget whatever the line", () => {
    for (const line of [`cat <<EOF\n${"$x ".repeat(16_000)}\nEOF`, "ls | ".repeat(20_000) + "ls", "echo " + "$x ".repeat(40_000), "go test ./..."]) {
      const reading = readCommandLine(line);
      expect(reading.work).toBeGreaterThan(0);
      expect(reading.work).toBeLessThanOrEqual(WORK_BUDGET);
    }
    expect(readCommandLine("go test ./...")).toMatchObject({ ok: true });
  });
});
