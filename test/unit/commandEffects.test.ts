// What a command's own options make it do (commandEffects.ts): an allowlist pattern such as `sort`
// or `git log` is a prefix, and an option can write a file (`sort -o f`), run another program
// (`find -exec`, `rg --pre`) or make the command unknowable (`git -c`, a `--config` file). Each
// case is judged through judgeCommandLine (the verdict and the writes it hands on) and, where the
// write root decides, through decidePolicy with the built-in presets in a real temp folder:
// writes inside the root are fine for coder, and every write is refused to analyst and scout.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { builtinPresetSet } from "../../src/main/policy/presets/builtinPresets.js";
import { decidePolicy, type PolicyContext } from "../../src/main/policy/decidePolicy.js";
import { judgeCommandLine, NEUTRAL_BUILTINS, type ExecVerdict } from "../../src/main/policy/presets/execPolicy.js";
import { loadShellParser } from "../../src/main/policy/shell/shellParser.js";
import { nodeWritePathFs } from "../../src/main/policy/writePathFs.js";
import type { CommandPattern } from "../../src/shared/policy.js";
import { tempDirs } from "../support/tempDirs.js";

let cwd: string;
const tempDir = tempDirs("baton-effects-", "all");
let root: string;

beforeAll(async () => {
  await loadShellParser();
  root = tempDir();
  cwd = path.join(root, "code", "x");
  fs.mkdirSync(path.join(cwd, "src"), { recursive: true });
});

const presets = builtinPresetSet();
const execOf = (name: string): readonly CommandPattern[] => [...NEUTRAL_BUILTINS, ...presets.presets.find((p) => p.name === name)!.exec];

function judge(line: string, allow: readonly CommandPattern[] | string = "coordinator"): ExecVerdict {
  return judgeCommandLine(line, typeof allow === "string" ? execOf(allow) : [...NEUTRAL_BUILTINS, ...allow], presets.refused);
}

/** The writes a line's verdict hands on, as `operator target` (⟨…⟩: only known at run time). */
function writes(line: string, allow?: readonly CommandPattern[] | string): string[] {
  return judge(line, allow).writes.map((w) => `${w.operator} ${w.target.dynamic ? `⟨${w.target.value}⟩` : w.target.value}`);
}

function decide(preset: string, command: string): ReturnType<typeof decidePolicy> {
  const context: PolicyContext = { orchestration: true, presets, rules: [], cwd, projectRoot: cwd, home: root, fs: nodeWritePathFs };
  return decidePolicy({ agent: { kind: "subagent", agentId: "a0123456789abcdef", agentType: preset }, toolName: "Bash", input: { command } }, context);
}

const unreadable = (reason: RegExp | string) => ({ allowed: false, why: "unreadable", reason: typeof reason === "string" ? expect.stringContaining(reason) : expect.stringMatching(reason) });

describe("options that write a file given as their value", () => {
  it("sort -o / --output / -T, in every spelling getopt accepts", () => {
    expect(writes("sort -o /etc/x a")).toEqual(["option /etc/x"]);
    expect(writes("sort -uo/etc/x a")).toEqual(["option /etc/x"]);
    expect(writes("sort --output=/etc/x a")).toEqual(["option /etc/x"]);
    expect(writes("sort --outp /etc/x a")).toEqual(["option /etc/x"]);
    expect(writes("sort -T /tmp/t a")).toEqual(["option /tmp/t"]);
    expect(writes("sort -k2 -t, -n a")).toEqual([]);
    expect(decide("coder", "sort -o sorted.txt a")).toMatchObject({ decision: "allow" });
    expect(decide("coder", "sort -o /etc/x a")).toMatchObject({ decision: "deny", rule: "preset:coder/write" });
    expect(decide("analyst", "sort -o sorted.txt a")).toMatchObject({ decision: "deny", rule: "preset:analyst/write" });
    expect(decide("scout", "sort -uosorted.txt a")).toMatchObject({ decision: "deny", rule: "preset:scout/write" });
  });

  it("tree -o, whose value is the next word even inside a cluster", () => {
    expect(writes("tree -o f")).toEqual(["option f"]);
    expect(writes("tree -aLo 2 listing.txt src")).toEqual(["option listing.txt"]);
    expect(writes("tree -L 2 -I node_modules src")).toEqual([]);
    expect(decide("scout", "tree -o f")).toMatchObject({ decision: "deny", rule: "preset:scout/write" });
  });

  it("git log / diff / show --output, relative to git -C's folder", () => {
    expect(writes("git diff --output=/etc/x")).toEqual(["option /etc/x"]);
    expect(writes("git log --output f")).toEqual(["option f"]);
    expect(writes("git show --stat --output=f HEAD")).toEqual(["option f"]);
    expect(writes("git log --oneline -n 5 --grep fix")).toEqual([]);
    expect(writes("git diff --output-indicator-new=+ HEAD")).toEqual([]);
    expect(writes("git -C /etc diff --output=x", ["git"])).toEqual(["option /etc/x"]);
    expect(writes("git -C sub log --output=x", ["git"])).toEqual(["option sub/x"]);
    expect(decide("analyst", "git log --output=log.txt")).toMatchObject({ decision: "deny", rule: "preset:analyst/write" });
    expect(decide("coder", "git diff --output=/etc/x")).toMatchObject({ decision: "deny", rule: "preset:coder/write" });
    expect(decide("coder", "git diff --output=changes.diff")).toMatchObject({ decision: "allow" });
  });

  it("curl -o / --output / -D / --dump-header / -c, and -O into the cwd", () => {
    expect(writes("curl -o f https://example.com/a")).toEqual(["option f"]);
    expect(writes("curl --output f https://example.com/a")).toEqual(["option f"]);
    expect(writes("curl -sSLO https://example.com/a.tgz")).toEqual(["implicit ."]);
    expect(writes("curl --remote-name --output-dir dl https://example.com/a")).toEqual(["option dl", "implicit dl"]);
    expect(writes("curl -D h.txt https://example.com")).toEqual(["option h.txt"]);
    expect(writes("curl --dump-header /etc/h https://example.com")).toEqual(["option /etc/h"]);
    expect(writes("curl -c jar https://example.com")).toEqual(["option jar"]);
    expect(writes("curl -sS -b cookies -H 'A: b' https://example.com")).toEqual([]);
    expect(writes("curl -so - https://example.com")).toEqual([]);
    expect(decide("coordinator", "curl -o /etc/x https://example.com")).toMatchObject({ decision: "deny", rule: "preset:coordinator/write" });
    expect(decide("coordinator", "curl -sSLo page.html https://example.com")).toMatchObject({ decision: "allow" });
  });

  it("wget writes into the cwd unless -O names the file; -P, -o and -a write too", () => {
    expect(writes("wget https://example.com/a.tgz")).toEqual(["implicit ."]);
    expect(writes("wget -O f https://example.com")).toEqual(["option f"]);
    expect(writes("wget -qO- https://example.com")).toEqual([]);
    expect(writes("wget -P /tmp/dl https://example.com")).toEqual(["option /tmp/dl"]);
    expect(writes("wget -o wget.log -O - https://example.com")).toEqual(["option wget.log"]);
    expect(writes("wget -a /etc/log --spider https://example.com")).toEqual(["option /etc/log"]);
    expect(writes("wget --spider https://example.com")).toEqual([]);
    expect(decide("coordinator", "wget -P /tmp/dl https://example.com")).toMatchObject({ decision: "deny", rule: "preset:coordinator/write" });
    expect(decide("coordinator", "wget https://example.com/a.tgz")).toMatchObject({ decision: "allow" });
  });

  it("find -fprint, -fprint0, -fprintf, -fls and -delete", () => {
    expect(writes("find . -name '*.ts' -fprint /etc/x", ["find"])).toEqual(["option /etc/x"]);
    expect(writes("find . -fprint0 out", ["find"])).toEqual(["option out"]);
    expect(writes("find . -fprintf /etc/x '%p\\n'", ["find"])).toEqual(["option /etc/x"]);
    expect(writes("find . -fls out", ["find"])).toEqual(["option out"]);
    expect(writes("find src build -name '*.o' -delete", ["find"])).toEqual(["option src", "option build"]);
    expect(writes("find -delete", ["find"])).toEqual(["option ."]);
    expect(writes("find src -name -delete -print", ["find"])).toEqual([]);
  });

  it("eslint -o / --output-file, go test's profiles and -o, cargo --target-dir", () => {
    expect(writes("eslint -o report.json src", "coder")).toEqual(["option report.json"]);
    expect(writes("eslint --output-file /etc/r src", "coder")).toEqual(["option /etc/r"]);
    expect(writes("go test -coverprofile=c.out ./...", "analyst")).toEqual(["option c.out"]);
    expect(writes("go test -cpuprofile cpu.out -o t.test ./x", "analyst")).toEqual(["option cpu.out", "option t.test"]);
    expect(writes("go test ./... -args -test.coverprofile=/etc/x", "analyst")).toEqual(["option /etc/x"]);
    expect(writes("go test -v -run TestX -count=1 ./...", "analyst")).toEqual([]);
    expect(writes("cargo test --target-dir /tmp/t", "coder")).toEqual(["option /tmp/t"]);
    expect(decide("analyst", "go test -coverprofile=c.out ./...")).toMatchObject({ decision: "deny", rule: "preset:analyst/write" });
    expect(decide("coder", "go test -coverprofile=c.out ./...")).toMatchObject({ decision: "allow" });
    expect(decide("coder", "cargo test --target-dir /tmp/t")).toMatchObject({ decision: "deny", rule: "preset:coder/write" });
  });
});

describe("commands that write the files they are given", () => {
  it("uniq writes its second operand", () => {
    expect(writes("uniq in.txt out.txt")).toEqual(["operand out.txt"]);
    expect(writes("uniq -f 1 -c in.txt /etc/out")).toEqual(["operand /etc/out"]);
    expect(writes("sort a | uniq -c")).toEqual([]);
    expect(decide("scout", "uniq in.txt out.txt")).toMatchObject({ decision: "deny", rule: "preset:scout/write" });
  });

  it("prettier --write / -w, with its own globs kept inside the root", () => {
    expect(writes("prettier --write src", "coder")).toEqual(["operand src"]);
    expect(writes("prettier -w src/a.ts src/b.ts", "coder")).toEqual(["operand src/a.ts", "operand src/b.ts"]);
    expect(writes("prettier --check src", "coder")).toEqual([]);
    expect(writes("prettier --write 'src/**/../../../x'", "coder")).toEqual(["operand ⟨src/**/../../../x⟩"]);
    expect(decide("coder", "prettier --write 'src/**/*.ts'")).toMatchObject({ decision: "allow" });
    expect(decide("coder", "prettier --write '../other/**/*.ts'")).toMatchObject({ decision: "deny", rule: "preset:coder/write" });
    expect(decide("coder", "prettier --write 'src/**/../../../x'")).toMatchObject({ decision: "deny", rule: "preset:coder/write" });
  });

  it("eslint --fix writes what it lints (the cwd when nothing is named)", () => {
    expect(writes("eslint --fix src", "coder")).toEqual(["operand src"]);
    expect(writes("eslint --fix", "coder")).toEqual(["operand ."]);
    expect(writes("eslint --fix-dry-run --fix-type problem src", "coder")).toEqual([]);
    expect(decide("coder", "eslint --fix /etc/x.js")).toMatchObject({ decision: "deny", rule: "preset:coder/write" });
  });

  it("black writes its operands unless --check or --diff", () => {
    expect(writes("black src", "coder")).toEqual(["operand src"]);
    expect(writes("black -l 100 src", "coder")).toEqual(["operand src"]);
    expect(writes("black --check src", "coder")).toEqual([]);
    expect(writes("black --diff src", "coder")).toEqual([]);
    expect(decide("coder", "black /etc/x.py")).toMatchObject({ decision: "deny", rule: "preset:coder/write" });
  });

  it("ruff format and ruff check (which may fix, per the project's configuration) unless told not to", () => {
    expect(writes("ruff format src", "coder")).toEqual(["operand src"]);
    expect(writes("ruff format --check src", "coder")).toEqual([]);
    expect(writes("ruff check --fix src", "coder")).toEqual(["operand src"]);
    expect(writes("ruff check src", "coder")).toEqual(["operand src"]);
    expect(writes("ruff check --no-fix src", "coder")).toEqual([]);
    expect(writes("ruff check --no-fix -o r.txt", "coder")).toEqual(["option r.txt"]);
    expect(decide("coder", "ruff check --fix /etc")).toMatchObject({ decision: "deny", rule: "preset:coder/write" });
  });

  it("gofmt -w and goimports -w", () => {
    expect(writes("gofmt -w x.go", "coder")).toEqual(["operand x.go"]);
    expect(writes("gofmt -l -d x.go", "coder")).toEqual([]);
    expect(writes("gofmt -w=false x.go", "coder")).toEqual([]);
    expect(writes("goimports -w -local example.com ./pkg", "coder")).toEqual(["operand ./pkg"]);
    expect(decide("coder", "gofmt -w /etc/x.go")).toMatchObject({ decision: "deny", rule: "preset:coder/write" });
  });

  it("go fmt, go build, go test -c and cargo write into the project", () => {
    expect(writes("go fmt ./...", "coder")).toEqual(["operand ./..."]);
    expect(writes("go test -c ./pkg", "analyst")).toEqual(["implicit ."]);
    expect(writes("go build ./cmd/x", "worker")).toEqual(["implicit ."]);
    expect(writes("cargo test", "coder")).toEqual(["implicit target"]);
    expect(writes("cargo fmt", "coder")).toEqual(["implicit ."]);
    expect(writes("cargo fmt -- --check", "coder")).toEqual([]);
    expect(writes("cargo clippy --fix", "coder")).toEqual(["implicit target", "implicit ."]);
    expect(decide("analyst", "go test -c ./pkg")).toMatchObject({ decision: "deny", rule: "preset:analyst/write" });
    expect(decide("coder", "go fmt ./...")).toMatchObject({ decision: "allow" });
  });

  it("file -C compiles into the cwd; the other read-only commands write nothing", () => {
    expect(writes("file -C -m magic")).toEqual(["implicit ."]);
    for (const line of ["file -b x", "stat -c %s f", "cut -d, -f1 a", "tr a-z A-Z", "cat -n a", "head -n 5 a", "tail -f a", "wc -l a", "grep -rn x src", "ls -la", "diff --to-file=/etc/x a b"]) {
      expect(judge(line, "scout"), line).toMatchObject({ allowed: true, writes: [] });
    }
  });

  it("cp, mv, ln, rm, tar where an allowlist names them", () => {
    const allow = ["cp", "mv", "ln", "rm", "tar"];
    expect(writes("cp a /etc/b", allow)).toEqual(["operand /etc/b"]);
    expect(writes("cp -t /etc a b", allow)).toEqual(["option /etc"]);
    expect(writes("mv a b", allow)).toEqual(["operand a", "operand b"]);
    expect(writes("ln -s a", allow)).toEqual(["operand ."]);
    expect(writes("rm -rf build", allow)).toEqual(["operand build"]);
    expect(writes("tar -xf a.tar", allow)).toEqual(["implicit ."]);
    expect(writes("tar xzf a.tgz -C /etc", allow)).toEqual(["implicit /etc"]);
    expect(writes("tar -czf out.tgz src", allow)).toEqual(["option out.tgz"]);
    expect(writes("tar -tf a.tar", allow)).toEqual([]);
  });
});

describe("options that run another program", () => {
  it("find -exec / -execdir / -ok / -okdir: the command up to `;` or `{} +` must be allowed too", () => {
    expect(judge("find . -name '*.ts' -exec rm {} \\;", ["find"])).toMatchObject({ allowed: false, why: "not-allowed", reason: "`rm {}` is not in the allowlist" });
    expect(judge("find . -ok rm {} \\;", ["find"])).toMatchObject({ allowed: false, why: "not-allowed" });
    expect(judge("find . -okdir rm {} \\;", ["find"])).toMatchObject({ allowed: false, why: "not-allowed" });
    expect(judge("find . -exec sh -c 'npm i' \\;", ["find", "sh"])).toMatchObject({ allowed: false, why: "refused" });
    expect(judge("find . -type f -exec wc -l {} +", ["find", "wc"])).toMatchObject({ allowed: true, writes: [] });
    // What the command it runs writes is a write: the found file, or a file in each folder it visits.
    expect(writes("find . -exec tee {} \\;", ["find", "tee"])).toEqual(["tee ⟨{}⟩"]);
    expect(writes("find /etc -execdir tee x \\;", ["find", "tee"])).toEqual(["tee ⟨(each folder find visits)/x⟩"]);
  });

  it("rg --pre and sort --compress-program run the program they name", () => {
    expect(judge("rg --pre ./decode.sh needle", ["rg"])).toMatchObject({ allowed: false, why: "not-allowed", reason: "`./decode.sh` is not in the allowlist" });
    expect(judge("rg --pre=cat needle", ["rg", "cat"])).toMatchObject({ allowed: true });
    expect(judge("sort --compress-program=gzip big.txt", "scout")).toMatchObject({ allowed: false, why: "not-allowed", reason: "`gzip` is not in the allowlist" });
  });

  it("go -toolexec, -exec and -vettool; wget --use-askpass; eslint --init runs npm", () => {
    expect(judge("go test -exec sh ./...", "analyst")).toMatchObject({ allowed: false, why: "not-allowed", reason: "`sh` is not in the allowlist" });
    expect(judge("go test -toolexec 'strace -f' ./...", "analyst")).toMatchObject({ allowed: false, why: "not-allowed", reason: "`strace -f` is not in the allowlist" });
    expect(judge("go vet -vettool=/tmp/v ./...", "analyst")).toMatchObject({ allowed: false, why: "not-allowed" });
    expect(judge("wget --use-askpass=/tmp/p https://example.com")).toMatchObject({ allowed: false, why: "not-allowed" });
    expect(decide("coder", "eslint --init")).toMatchObject({ decision: "deny", message: expect.stringContaining("npm is refused") });
  });

  it("xargs hands a program with such options arguments only known when it runs", () => {
    expect(judge("git ls-files | xargs sort", "scout")).toMatchObject(unreadable("sort is given arguments only known when it runs"));
    expect(judge("git ls-files | xargs grep -l TODO", "scout")).toMatchObject({ allowed: true });
  });
});

describe("what Baton cannot know", () => {
  it("git -c, --config-env, --exec-path=, git grep -O / --open-files-in-pager", () => {
    expect(judge("git -c core.pager=x log", ["git"])).toMatchObject(unreadable("sets configuration"));
    expect(judge("git -c alias.l=!sh log", ["git"])).toMatchObject(unreadable("sets configuration"));
    expect(judge("git -c color.ui=always log", ["git"])).toMatchObject({ allowed: true });
    expect(judge("git --config-env=core.pager=P log", ["git"])).toMatchObject(unreadable("configuration"));
    expect(judge("git --exec-path=/tmp log", ["git"])).toMatchObject(unreadable("another folder"));
    expect(judge("git --exec-path", ["git"])).toMatchObject({ allowed: true });
    expect(judge("git grep -Ovim TODO", "scout")).toMatchObject(unreadable("pager program"));
    expect(judge("git grep --open-files-in-pager=vim TODO", "scout")).toMatchObject(unreadable("pager program"));
    expect(judge("git grep -n TODO", "scout")).toMatchObject({ allowed: true });
  });

  it("variables that change what a program runs or where it writes", () => {
    expect(judge("GIT_EXTERNAL_DIFF=./x git diff", "scout")).toMatchObject(unreadable("GIT_EXTERNAL_DIFF"));
    expect(judge("export GIT_CONFIG_GLOBAL=/tmp/c; git log", "scout")).toMatchObject(unreadable("GIT_CONFIG_GLOBAL"));
    expect(judge("GOFLAGS=-toolexec=x go test ./...", "analyst")).toMatchObject(unreadable("GOFLAGS"));
    expect(judge("CARGO_TARGET_DIR=/tmp/t cargo test", "coder")).toMatchObject(unreadable("CARGO_TARGET_DIR"));
    // A pager is a program git runs; `cat` (or none) is the one a line may name.
    expect(judge("GIT_PAGER=./x git log", "scout")).toMatchObject(unreadable("GIT_PAGER"));
    expect(judge("GIT_PAGER=cat git log", "scout")).toMatchObject({ allowed: true });
    expect(judge("GOOS=linux go vet ./...", "analyst")).toMatchObject({ allowed: true });
  });

  it("--config files, plugins and formatter modules", () => {
    expect(judge("curl -K cfg https://example.com")).toMatchObject(unreadable("reads more options from a file"));
    expect(judge("curl --config cfg https://example.com")).toMatchObject(unreadable("reads more options from a file"));
    expect(judge("curl -w '%output{f}' https://example.com")).toMatchObject(unreadable("can name a file"));
    expect(judge("wget -e robots=off https://example.com")).toMatchObject(unreadable(".wgetrc command"));
    expect(judge("prettier --config c.json --check .", "coder")).toMatchObject(unreadable("configuration file"));
    expect(judge("prettier --plugin ./p.mjs --check .", "coder")).toMatchObject(unreadable("loads code"));
    expect(judge("eslint -c x.config.js src", "coder")).toMatchObject(unreadable("configuration file"));
    expect(judge("eslint -f ./fmt.js src", "coder")).toMatchObject(unreadable("formatter module"));
    expect(judge("eslint -f json src", "coder")).toMatchObject({ allowed: true });
    expect(judge("black --config c.toml src", "coder")).toMatchObject(unreadable("configuration file"));
    expect(judge("ruff check --config 'cache-dir=\"/etc\"' src", "coder")).toMatchObject(unreadable("configuration file"));
    expect(judge("cargo test --config build.rustc-wrapper=x", "coder")).toMatchObject(unreadable("rustc-wrapper"));
    expect(judge("tar -I 'sh -c x' -xf a.tar", ["tar"])).toMatchObject(unreadable("program for tar to run"));
    expect(judge("tar -xf host:/a.tar", ["tar"])).toMatchObject(unreadable("another host"));
  });

  it("a word the shell computes where an option could be, but not one that cannot begin with `-`", () => {
    expect(judge('sort "$f"', "scout")).toMatchObject(unreadable("`\"$f\"` is only known when the shell runs"));
    expect(judge("sort *.txt", "scout")).toMatchObject(unreadable("`*.txt`"));
    expect(judge("go test $(go list ./...)", "analyst")).toMatchObject(unreadable("`$(go list ./...)`"));
    expect(judge("find $d -delete", ["find"])).toMatchObject(unreadable("`-delete` or `-exec`"));
    expect(judge("sort ./*.txt", "scout")).toMatchObject({ allowed: true, writes: [] });
    expect(judge('sort -- "$f"', "scout")).toMatchObject({ allowed: true, writes: [] });
    expect(judge('git log --author="$me"', "scout")).toMatchObject({ allowed: true });
    expect(judge('cat "$f"', "scout")).toMatchObject({ allowed: true });
    expect(writes('git diff --output="$f"', "scout")).toEqual(['option ⟨"$f"⟩']);
    expect(decide("coder", 'git diff --output="$f"')).toMatchObject({ decision: "deny", rule: "preset:coder/write" });
  });
});

// A global or user install lands outside every project (the worker's write root is the project),
// so it is a write the preset refuses; a directory named on the line is a write to that directory.
describe("installs outside the project", () => {
  const outside = { decision: "deny", rule: "preset:worker/write", message: expect.stringContaining("installs outside the project") };

  it("go install writes to $GOBIN (~/go/bin by default)", () => {
    expect(writes("go install example.com/tool@v1.2.3", "worker")).toEqual(["install ~/go/bin"]);
    expect(writes("go install ./cmd/x", "worker")).toEqual(["install ~/go/bin"]);
    expect(writes("go install -n ./cmd/x", "worker")).toEqual([]);
    expect(decide("worker", "go install example.com/tool@v1.2.3")).toMatchObject(outside);
    expect(decide("worker", "cd src && go install ./cmd/x")).toMatchObject(outside);
    expect(decide("worker", "go build -o bin/x ./cmd/x")).toMatchObject({ decision: "allow" });
  });

  it("cargo install writes to ~/.cargo/bin, or to --root's folder", () => {
    expect(writes("cargo install ripgrep", "worker")).toEqual(["install ~/.cargo/bin"]);
    expect(writes("cargo install --locked --path .", "worker")).toEqual(["install ~/.cargo/bin"]);
    expect(writes("cargo install --root tools ripgrep", "worker")).toEqual(["option tools"]);
    expect(writes("cargo install --root=/opt/x ripgrep", "worker")).toEqual(["option /opt/x"]);
    expect(judge("CARGO_INSTALL_ROOT=/opt/x cargo install ripgrep", "worker")).toMatchObject(unreadable("CARGO_INSTALL_ROOT"));
    expect(decide("worker", "cargo install ripgrep")).toMatchObject(outside);
    expect(decide("worker", "cargo install --root tools ripgrep")).toMatchObject({ decision: "allow" });
    expect(decide("worker", "cargo install --root /opt/x ripgrep")).toMatchObject({ decision: "deny", rule: "preset:worker/write" });
  });

  it("pnpm add / install -g and --global (wherever the flag stands), not a script's own -g", () => {
    for (const line of ["pnpm add -g typescript", "pnpm add --global typescript", "pnpm install -g typescript", "pnpm -g add typescript", "pnpm i -gD typescript"]) {
      expect(writes(line, "worker"), line).toEqual(["install (pnpm's global folder)"]);
    }
    expect(writes("pnpm add -D typescript", "worker")).toEqual([]);
    expect(writes("pnpm run build -g", "worker")).toEqual([]);
    expect(judge('pnpm add "$pkg"', "worker")).toMatchObject(unreadable('`"$pkg"`'));
    expect(decide("worker", "pnpm add -g typescript")).toMatchObject(outside);
    expect(decide("worker", "pnpm add -D typescript")).toMatchObject({ decision: "allow" });
    expect(decide("coordinator", "pnpm install --global typescript")).toMatchObject({ decision: "deny", rule: "preset:coordinator/write", message: expect.stringContaining("installs outside the project") });
  });

  it("bun add / install -g and --global write to ~/.bun/install/global", () => {
    expect(writes("bun add -g typescript", "worker")).toEqual(["install ~/.bun/install/global"]);
    expect(writes("bun install --global typescript", "worker")).toEqual(["install ~/.bun/install/global"]);
    expect(writes("bun add -d typescript", "worker")).toEqual([]);
    expect(writes("bun run build -g", "worker")).toEqual([]);
    expect(decide("worker", "bun add --global typescript")).toMatchObject(outside);
    expect(decide("worker", "bun add -d typescript")).toMatchObject({ decision: "allow" });
  });

  it("pip install --user, and --target / -t / --prefix / --root as writes to their folder", () => {
    expect(writes("pip install --user requests", "worker")).toEqual(["install (the user's site-packages)"]);
    expect(writes("pip install --us requests", "worker")).toEqual(["install (the user's site-packages)"]);
    expect(writes("pip install --target vendor requests", "worker")).toEqual(["option vendor"]);
    expect(writes("pip install -t/opt/lib requests", "worker")).toEqual(["option /opt/lib"]);
    expect(writes("pip install --prefix=/usr/local requests", "worker")).toEqual(["option /usr/local"]);
    expect(writes("pip install --root build/root requests", "worker")).toEqual(["option build/root"]);
    // Without a virtualenv pip installs into the interpreter's own site-packages; whether one is
    // active is not on the line, so a plain install stays as it was.
    expect(writes("pip install --pre -r requirements.txt requests", "worker")).toEqual([]);
    expect(decide("worker", "pip install --user requests")).toMatchObject(outside);
    expect(decide("worker", "pip install --target vendor requests")).toMatchObject({ decision: "allow" });
    expect(decide("worker", "pip install -t /opt/lib requests")).toMatchObject({ decision: "deny", rule: "preset:worker/write" });
    expect(decide("worker", "pip install requests")).toMatchObject({ decision: "allow" });
  });

  it("uv pip install --system, --target / --prefix, and uv tool install", () => {
    expect(writes("uv pip install --system requests", "worker")).toEqual(["install (the system Python's site-packages)"]);
    expect(writes("uv pip install --target vendor requests", "worker")).toEqual(["option vendor"]);
    expect(writes("uv pip install --prefix /opt/py requests", "worker")).toEqual(["option /opt/py"]);
    expect(writes("uv tool install ruff", ["uv"])).toEqual(["install (uv's tool folder)"]);
    expect(writes("uv --directory sub tool install ruff", ["uv"])).toEqual(["option sub", "install (uv's tool folder)"]);
    expect(writes("uv pip install requests", "worker")).toEqual([]);
    expect(judge('uv run pytest -k "$name"', "worker")).toMatchObject({ allowed: true, writes: [] });
    expect(judge("UV_SYSTEM_PYTHON=1 uv pip install requests", "worker")).toMatchObject(unreadable("UV_SYSTEM_PYTHON"));
    expect(decide("worker", "uv pip install --system requests")).toMatchObject(outside);
    expect(decide("worker", "uv pip install --target vendor requests")).toMatchObject({ decision: "allow" });
    expect(decide("worker", "uv pip install --prefix /opt/py requests")).toMatchObject({ decision: "deny", rule: "preset:worker/write" });
  });
});

// Options of the toolchains that write somewhere else than the working folder (issue 31): each
// write is reported with its target, so the write root judges it.
describe("toolchain options that write elsewhere", () => {
  it("cargo new / init write the crate's folder; --manifest-path moves target/", () => {
    expect(writes("cargo new ../x", ["cargo"])).toEqual(["operand ../x"]);
    expect(writes("cargo new --vcs none --name y /tmp/y", ["cargo"])).toEqual(["operand /tmp/y"]);
    expect(writes("cargo init sub", ["cargo"])).toEqual(["operand sub"]);
    expect(writes("cargo init", ["cargo"])).toEqual(["operand ."]);
    expect(writes("cargo build --manifest-path ../o/Cargo.toml", ["cargo"])).toEqual(["implicit ../o/target"]);
    expect(writes("cargo test --target-dir /tmp/t", ["cargo"])).toEqual(["option /tmp/t"]);
    expect(writes("cargo -C ../o build", ["cargo"])).toEqual(["implicit ../o/target"]);
    expect(decide("worker", "cargo new ../y")).toMatchObject({ decision: "deny", rule: "preset:worker/write" });
    expect(decide("worker", "cargo new crates/x")).toMatchObject({ decision: "allow" });
  });

  it("go mod edit writes go.mod (or the file named, or -modfile's); go work; go build -o", () => {
    expect(writes("go mod edit -require x@v1", ["go"])).toEqual(["implicit go.mod"]);
    expect(writes("go mod edit -fmt ../o/go.mod", ["go"])).toEqual(["operand ../o/go.mod"]);
    expect(writes("go mod edit -modfile=/tmp/alt.mod -fmt", ["go"])).toEqual(["option /tmp/alt.mod", "implicit /tmp/alt.sum"]);
    expect(writes("go build -modfile ../alt.mod ./...", ["go"])).toEqual(["option ../alt.mod", "implicit .", "implicit ../alt.sum"]);
    expect(writes("go mod tidy", ["go"])).toEqual(["implicit go.mod", "implicit go.sum"]);
    expect(writes("go mod vendor -o /tmp/v", ["go"])).toEqual(["option /tmp/v"]);
    expect(writes("go work init ./a ../b", ["go"])).toEqual(["implicit go.work"]);
    expect(writes("go work edit -use=x ../w/go.work", ["go"])).toEqual(["operand ../w/go.work"]);
    expect(judge("go work sync", ["go"])).toMatchObject(unreadable("go.work"));
    expect(writes("go build -o /tmp/x ./cmd/x", ["go"])).toEqual(["option /tmp/x"]);
    expect(writes("go -C ../o mod tidy", ["go"])).toEqual(["implicit ../o/go.mod", "implicit ../o/go.sum"]);
    expect(decide("worker", "go mod edit -modfile=/tmp/alt.mod -fmt")).toMatchObject({ decision: "deny", rule: "preset:worker/write" });
    expect(decide("worker", "go mod tidy")).toMatchObject({ decision: "allow" });
  });

  it("uv --directory, --project and --cache-dir", () => {
    expect(writes("uv run --directory ../o pytest", "worker")).toEqual(["option ../o"]);
    expect(writes("uv --directory /tmp/o sync", "worker")).toEqual(["option /tmp/o"]);
    expect(writes("uv run --project ../p pytest", "worker")).toEqual(["option ../p"]);
    expect(writes("uv --directory d run --project p pytest", "worker")).toEqual(["option d", "option d/p"]);
    expect(writes("uv sync --cache-dir /tmp/c", "worker")).toEqual(["option /tmp/c"]);
    expect(writes("uv venv /tmp/v", ["uv"])).toEqual(["operand /tmp/v"]);
    expect(writes("uv export -o ../req.txt", ["uv"])).toEqual(["option ../req.txt"]);
    expect(writes("uv build --out-dir /tmp/d", ["uv"])).toEqual(["option /tmp/d"]);
    expect(writes("uv run pytest", "worker")).toEqual([]);
    expect(decide("worker", "uv run --directory ../o pytest")).toMatchObject({ decision: "deny", rule: "preset:worker/write" });
    expect(decide("worker", "uv sync")).toMatchObject({ decision: "allow" });
  });

  it("pnpm --dir / -C / --prefix and the folders of its store and modules", () => {
    expect(writes("pnpm --dir ../o install", "worker")).toEqual(["option ../o"]);
    expect(writes("pnpm -C /tmp/o run build", "worker")).toEqual(["option /tmp/o"]);
    expect(writes("pnpm --prefix=../o add x", "worker")).toEqual(["option ../o"]);
    expect(writes("pnpm --di ../o install", "worker")).toEqual(["option ../o"]);
    expect(writes("pnpm install --store-dir /tmp/s", "worker")).toEqual(["option /tmp/s"]);
    expect(writes("pnpm install --modules-dir=../nm", "worker")).toEqual(["option ../nm"]);
    expect(writes("pnpm run build", "worker")).toEqual([]);
    expect(writes("pnpm install --dir ../o", "worker")).toEqual(["option ../o"]);
    expect(decide("worker", "pnpm install --dir ../o")).toMatchObject({ decision: "deny", rule: "preset:worker/write" });
  });

  it("bun build --outdir / --outfile, bun --cwd", () => {
    expect(writes("bun build ./a.ts --outdir ../dist", "worker")).toEqual(["option ../dist"]);
    expect(writes("bun build ./a.ts --outfile=/tmp/a.js", "worker")).toEqual(["option /tmp/a.js"]);
    expect(writes("bun build --compile ./a.ts", "worker")).toEqual(["implicit ."]);
    expect(writes("bun --cwd ../o run build", "worker")).toEqual(["option ../o"]);
    expect(writes("bun build ./a.ts", "worker")).toEqual([]);
    expect(decide("worker", "bun build ./a.ts --outdir ../dist")).toMatchObject({ decision: "deny", rule: "preset:worker/write" });
  });

  it("curl's output options, in every abbreviation curl accepts", () => {
    // An ambiguous prefix counts as every option it begins (curl itself refuses it).
    expect(writes("curl --out f https://example.com")).toContain("option f");
    expect(writes("curl --outp /tmp/f https://example.com")).toContain("option /tmp/f");
    expect(writes("curl --output-d /tmp/d -O https://example.com/a")).toEqual(["option /tmp/d", "implicit /tmp/d"]);
    expect(writes("curl --output-dir d -o f https://example.com/a")).toEqual(["option d", "option d/f"]);
    expect(writes("curl -J -O https://example.com/a")).toEqual(["implicit ."]);
    expect(writes("curl --remote-n https://example.com/a")).toEqual(["implicit ."]);
    expect(writes("curl --dump /tmp/h https://example.com")).toEqual(["option /tmp/h"]);
    expect(writes("curl --cookie-j /tmp/j https://example.com")).toEqual(["option /tmp/j"]);
    expect(writes("curl --trace-a /tmp/t https://example.com")).toEqual(["option /tmp/t"]);
    expect(writes("curl --stde /tmp/e https://example.com")).toEqual(["option /tmp/e"]);
    expect(writes("curl --libc /tmp/c https://example.com")).toEqual(["option /tmp/c"]);
    expect(writes("curl --etag-s /tmp/e https://example.com")).toEqual(["option /tmp/e"]);
    expect(writes("curl --ssl-sessions /tmp/s https://example.com")).toEqual(["option /tmp/s"]);
    expect(writes("curl --create-dirs -o a/b/c https://example.com")).toEqual(["option a/b/c"]);
    expect(judge("curl --conf cfg https://example.com")).toMatchObject(unreadable("reads more options from a file"));
    expect(writes("curl -sS --compressed https://example.com")).toEqual([]);
    expect(decide("coordinator", "curl --out /etc/x https://example.com")).toMatchObject({ decision: "deny", rule: "preset:coordinator/write" });
  });

  it("wget's output options, in every abbreviation wget accepts", () => {
    expect(writes("wget --output-d /tmp/f https://example.com")).toEqual(["option /tmp/f"]);
    expect(writes("wget --directory-p /tmp/d https://example.com")).toEqual(["option /tmp/d"]);
    expect(writes("wget --output-f /tmp/log -O - https://example.com")).toEqual(["option /tmp/log"]);
    expect(writes("wget -P d -O f https://example.com")).toEqual(["option d", "option f"]);
  });
});
