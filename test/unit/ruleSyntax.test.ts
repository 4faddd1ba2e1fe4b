// The person's rules in Claude Code's syntax (https://code.claude.com/docs/en/permissions): what
// each documented form reads as, the errors a malformed rule gets (each naming the rule), the
// canonical form rules are stored and compared in, and the rule a prompt's "Always allow in this
// project" proposes for a call.
import { describe, expect, it } from "vitest";
import { rulesForCall } from "../../src/shared/ruleSuggestion.js";
import { canonicalRule, formatRule, parseRule, type RuleSpecifier } from "../../src/shared/ruleSyntax.js";

function specifier(rule: string): RuleSpecifier {
  const parsed = parseRule(rule);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value.specifier;
}

function error(rule: string): string {
  const parsed = parseRule(rule);
  if (parsed.ok) throw new Error(`${rule} parsed`);
  return parsed.error;
}

describe("parseRule: the documented forms", () => {
  it("a bare tool and Tool(*) match every use", () => {
    expect(specifier("Bash")).toEqual({ kind: "any" });
    expect(specifier("Bash(*)")).toEqual({ kind: "any" });
    expect(specifier("WebFetch")).toEqual({ kind: "any" });
  });

  it("Bash: exact command, legacy prefix `:*`, wildcard `*`", () => {
    expect(specifier("Bash(npm run build)")).toEqual({ kind: "exact", words: ["npm", "run", "build"] });
    expect(specifier("Bash(npm run test:*)")).toEqual({ kind: "prefix", words: ["npm", "run", "test"] });
    expect(specifier("Bash(git *)")).toEqual({ kind: "wildcard", pieces: ["git ", ""], bareAllowed: true });
    expect(specifier("Bash(ls*)")).toEqual({ kind: "wildcard", pieces: ["ls", ""], bareAllowed: false });
    expect(specifier("Bash(* --version)")).toEqual({ kind: "wildcard", pieces: ["", " --version"], bareAllowed: false });
  });

  it("Bash patterns group and escape words as the shell does", () => {
    expect(specifier('Bash(git commit -m "fix typo")')).toEqual({ kind: "exact", words: ["git", "commit", "-m", "fix typo"] });
    expect(specifier("Bash(echo '*')")).toEqual({ kind: "exact", words: ["echo", "*"] });
    expect(specifier("Bash(echo \\*)")).toEqual({ kind: "exact", words: ["echo", "*"] });
    expect(specifier('Bash(python -c "print\\(1\\)")')).toEqual({ kind: "exact", words: ["python", "-c", "print(1)"] });
  });

  it("paths, domains, MCP servers and tools, subagent types", () => {
    expect(specifier("Edit(src/**)")).toEqual({ kind: "path", pattern: "src/**" });
    expect(specifier("Read(//Users/alice/secrets/**)")).toEqual({ kind: "path", pattern: "//Users/alice/secrets/**" });
    expect(specifier("Read(~/.zshrc)")).toEqual({ kind: "path", pattern: "~/.zshrc" });
    expect(specifier("WebFetch(domain:Example.COM)")).toEqual({ kind: "domain", host: "example.com" });
    expect(specifier("mcp__puppeteer")).toEqual({ kind: "mcp-server", server: "puppeteer" });
    expect(specifier("mcp__puppeteer__*")).toEqual({ kind: "mcp-server", server: "puppeteer" });
    expect(specifier("mcp__puppeteer__puppeteer_navigate")).toEqual({ kind: "any" });
    expect(specifier("Agent(Explore)")).toEqual({ kind: "agent", agentType: "Explore" });
  });

  it("Task, the Agent tool's old name, reads as Agent", () => {
    const parsed = parseRule("Task(Explore)");
    expect(parsed.ok && parsed.value.tool).toBe("Agent");
  });
});

describe("parseRule: malformed rules are refused, naming the rule", () => {
  it.each([
    ["Bash(npm", /rule "Bash\(npm": unbalanced parentheses/],
    ["Bash)", /rule "Bash\)": unbalanced parentheses/],
    ["Bash(a) b)", /unbalanced parentheses/],
    ["Bash(a)(b)", /unbalanced parentheses/],
    ["Bash(echo (hi)", /unbalanced parentheses/],
    ["(npm test)", /rule "\(npm test\)": there is no tool name/],
    ["", /it is empty/],
    ["Bash()", /the pattern is empty/],
    ["Ba sh(x)", /is not a tool name/],
    ["WebFetch(example.com)", /WebFetch takes `domain:<host>`/],
    ["WebFetch(domain:*.example.com)", /exact host, without wildcards/],
    ["WebSearch(anything)", /WebSearch takes no pattern/],
    ["mcp__github__create_issue(x)", /MCP rules take no pattern/],
    ["mcp__", /needs a server name/],
    ["Bash(:*)", /the command is empty/],
    ["Bash(git * push:*)", /cannot hold another `\*`/],
    ['Bash(echo "hi)', /quote is not closed/],
    ["Edit(!src/**)", /negation/],
    ["Read(src/[ab)", /character class is not closed/],
    ["Read(~alice/x)", /only `~\/` means the home folder/],
  ])("%s", (rule, why) => {
    expect(error(rule)).toMatch(why);
  });
});

describe("formatRule: the canonical form rules are stored and compared in", () => {
  it("round-trips each documented form unchanged", () => {
    for (const rule of ["Bash", "Bash(npm run build)", "Bash(npm run test:*)", "Bash(git *)", "Edit(/src/**/*.ts)", "Read(~/.zshrc)", "WebFetch(domain:example.com)", "mcp__puppeteer", "Agent(Explore)"]) {
      expect(canonicalRule(rule)).toEqual({ ok: true, value: rule });
    }
  });

  it("writes parentheses escaped, Tool(*) as Tool, a domain in lower case, Task as Agent", () => {
    expect(canonicalRule("Bash(echo (hi))")).toEqual({ ok: true, value: "Bash(echo \\(hi\\))" });
    expect(canonicalRule("Bash(*)")).toEqual({ ok: true, value: "Bash" });
    expect(canonicalRule("WebFetch(domain:Example.com)")).toEqual({ ok: true, value: "WebFetch(domain:example.com)" });
    expect(canonicalRule("Task(Explore)")).toEqual({ ok: true, value: "Agent(Explore)" });
  });

  it("reads back what it wrote, backslashes included", () => {
    for (const rule of ["Bash(echo \\(hi\\))", "Bash(printf a\\\\b)", "Bash(echo \\*)", "Bash(x \\\\\\(y)"]) {
      const first = parseRule(rule);
      expect(first.ok).toBe(true);
      if (!first.ok) continue;
      const again = parseRule(formatRule(first.value));
      expect(again.ok && again.value.specifier).toEqual(first.value.specifier);
    }
  });
});

describe("rulesForCall: what “Always allow in this project” proposes", () => {
  const place = { cwd: "/home/user/code/app/packages/web", projectRoot: "/home/user/code/app", home: "/home/user" };

  it("a command and its subcommand as a `:*` prefix, as Claude Code suggests", () => {
    expect(rulesForCall("Bash", { command: "pnpm test --watch" }, place, [["pnpm", "test", "--watch"]])).toEqual(["Bash(pnpm test:*)"]);
    expect(rulesForCall("Bash", { command: 'git commit -m "fix typo"' }, place, [["git", "commit", "-m", "fix typo"]])).toEqual(["Bash(git commit:*)"]);
  });

  it("the script name for `npm run`, so one rule does not allow every script", () => {
    expect(rulesForCall("Bash", { command: "npm run test:unit -- --watch" }, place, [["npm", "run", "test:unit", "--", "--watch"]])).toEqual(["Bash(npm run test:unit:*)"]);
  });

  it("the exact command when the second word is a flag or a file, or the program runs another", () => {
    expect(rulesForCall("Bash", { command: "ls -la" }, place, [["ls", "-la"]])).toEqual(["Bash(ls -la)"]);
    expect(rulesForCall("Bash", { command: "sudo apt install jq" }, place, [["sudo", "apt", "install", "jq"]])).toEqual(["Bash(sudo apt install jq)"]);
    expect(rulesForCall("Bash", { command: "cat 'my notes.txt'" }, place, [["cat", "my notes.txt"]])).toEqual(["Bash(cat 'my notes.txt')"]);
  });

  it("one rule per part of a compound line, none past five parts", () => {
    const line = [["go", "test", "./..."], ["go", "vet", "./..."], ["go", "test", "-run", "X"]];
    expect(rulesForCall("Bash", { command: "go test ./... && go vet ./... && go test -run X" }, place, line)).toEqual(["Bash(go test:*)", "Bash(go vet:*)"]);
    const six = ["a", "b", "c", "d", "e", "f"].map((p) => [p, "run"]);
    expect(rulesForCall("Bash", { command: "…" }, place, six)).toEqual([]);
  });

  it("without the parser's command list, only a line with no shell syntax gets a proposal", () => {
    expect(rulesForCall("Bash", { command: "cargo build --release" }, place)).toEqual(["Bash(cargo build:*)"]);
    expect(rulesForCall("Bash", { command: "cargo build; rm -rf /" }, place)).toEqual([]);
  });

  it("the folder a file is in, anchored to the project, home or the root", () => {
    expect(rulesForCall("Edit", { file_path: "/home/user/code/app/src/app/page.tsx" }, place)).toEqual(["Edit(/src/app/**)"]);
    expect(rulesForCall("Write", { file_path: "/home/user/notes/today.md" }, place)).toEqual(["Edit(~/notes/**)"]);
    expect(rulesForCall("Read", { file_path: "/etc/app/app.conf" }, place)).toEqual(["Read(//etc/app/**)"]);
    expect(rulesForCall("Grep", { pattern: "x" }, place)).toEqual(["Read(/packages/web/**)"]);
    expect(rulesForCall("Edit", { file_path: "/home/user/code/app/src/[id]/page.tsx" }, place)).toEqual(["Edit(/src/\\[id\\]/**)"]);
  });

  it("nothing as broad as the whole disk or the whole home folder", () => {
    expect(rulesForCall("Write", { file_path: "/home/user/.bashrc" }, place)).toEqual([]);
    expect(rulesForCall("Write", { file_path: "/etc" }, place)).toEqual([]);
  });

  it("the host of a fetch, the type of a subagent, an MCP tool by name, and nothing for a question", () => {
    expect(rulesForCall("WebFetch", { url: "https://docs.example.com/a?b" }, place)).toEqual(["WebFetch(domain:docs.example.com)"]);
    expect(rulesForCall("Agent", { subagent_type: "Explore", prompt: "…" }, place)).toEqual(["Agent(Explore)"]);
    expect(rulesForCall("mcp__github__create_issue", {}, place)).toEqual(["mcp__github__create_issue"]);
    expect(rulesForCall("AskUserQuestion", {}, place)).toEqual([]);
  });
});
