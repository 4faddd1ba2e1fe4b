// Which of the person's rules decides a call, with the cases Claude Code's docs name
// (https://code.claude.com/docs/en/permissions): exact vs prefix, the word boundary, compound
// lines that need every part allowed and are denied by any part, path patterns anchored four
// ways, and domains that name one host. Bash lines come as the shell parser's argv lists.
import { describe, expect, it } from "vitest";
import { matchRules, type RuleCall, type RuleContext, type SimpleCommands } from "../../src/main/policy/rules/ruleMatch.js";
import type { PermissionRule, RuleBehavior } from "../../src/shared/policy.js";

const context: RuleContext = { cwd: "/home/user/code/app", projectRoot: "/home/user/code/app", home: "/home/user" };

function rule(behavior: RuleBehavior, text: string, extra: Partial<PermissionRule> = {}): PermissionRule {
  return { behavior, rule: text, scope: "everywhere", origin: "rules-view", createdAt: "2026-01-01T00:00:00.000Z", ...extra };
}

function bash(...commands: string[][]): RuleCall {
  return { toolName: "Bash", input: { command: commands.map((c) => c.join(" ")).join(" && ") }, commands };
}

/** The deciding rule's behavior and text, or "none". */
function decide(rules: readonly PermissionRule[], call: RuleCall, ctx: RuleContext = context): string {
  const match = matchRules(rules, call, ctx);
  return match === undefined ? "none" : `${match.behavior} ${match.rule.rule}`;
}

/** Whether a single allow rule allows the call. */
function allows(text: string, call: RuleCall, ctx: RuleContext = context): boolean {
  return matchRules([rule("allow", text)], call, ctx)?.behavior === "allow";
}

describe("Bash: exact, prefix and wildcard rules", () => {
  it("Bash(npm run build) is that exact command only", () => {
    expect(allows("Bash(npm run build)", bash(["npm", "run", "build"]))).toBe(true);
    expect(allows("Bash(npm run build)", bash(["npm", "run", "build", "--prod"]))).toBe(false);
    expect(allows("Bash(npm run build)", bash(["npm", "run"]))).toBe(false);
  });

  it("Bash(npm run test:*) is any command starting with those words, on a word boundary", () => {
    expect(allows("Bash(npm run test:*)", bash(["npm", "run", "test"]))).toBe(true);
    expect(allows("Bash(npm run test:*)", bash(["npm", "run", "test", "--watch"]))).toBe(true);
    expect(allows("Bash(npm run test:*)", bash(["npm", "run", "tests"]))).toBe(false);
    expect(allows("Bash(npm run test:*)", bash(["npm", "run", "test:unit"]))).toBe(false);
    expect(allows("Bash(npm run test:*)", bash(["npm", "run", "build"]))).toBe(false);
  });

  it("a wildcard spans spaces; a lone trailing ` *` also matches the bare command; no space, no boundary", () => {
    expect(allows("Bash(git *)", bash(["git"]))).toBe(true);
    expect(allows("Bash(git *)", bash(["git", "log", "--oneline"]))).toBe(true);
    expect(allows("Bash(git *)", bash(["gitk"]))).toBe(false);
    expect(allows("Bash(ls *)", bash(["lsof"]))).toBe(false);
    expect(allows("Bash(ls*)", bash(["lsof"]))).toBe(true);
    expect(allows("Bash(* --version)", bash(["node", "--version"]))).toBe(true);
    expect(allows("Bash(git * main)", bash(["git", "push", "origin", "main"]))).toBe(true);
    expect(allows("Bash(git * main)", bash(["git", "push", "origin", "dev"]))).toBe(false);
  });

  it("quoted words in a rule are the words the parser gives", () => {
    expect(allows('Bash(git commit -m "fix typo")', bash(["git", "commit", "-m", "fix typo"]))).toBe(true);
    expect(allows('Bash(git commit -m "fix typo")', bash(["git", "commit", "-m", "fix", "typo"]))).toBe(false);
  });

  it("Bash and Bash(*) allow every line, however compound", () => {
    expect(allows("Bash", bash(["rm", "-rf", "build"], ["make"]))).toBe(true);
    expect(allows("Bash(*)", bash(["rm", "-rf", "build"], ["make"]))).toBe(true);
  });
});

describe("Bash: compound lines are judged per simple command", () => {
  const line = bash(["go", "test", "./..."], ["npm", "i", "x"]);

  it("a prefix rule for one part does not allow the line (Bash(safe-cmd:*) vs safe-cmd && other-cmd)", () => {
    expect(decide([rule("allow", "Bash(go test:*)")], line)).toBe("none");
  });

  it("the line is allowed when every part is allowed by some rule, and says by which", () => {
    const match = matchRules([rule("allow", "Bash(go test:*)"), rule("allow", "Bash(npm i:*)")], line, context);
    expect(match?.behavior).toBe("allow");
    expect(match?.rules.map((r) => r.rule)).toEqual(["Bash(go test:*)", "Bash(npm i:*)"]);
  });

  it("a deny rule on any part denies the line, naming the part, even with the rest allowed", () => {
    const match = matchRules([rule("allow", "Bash(go test:*)"), rule("deny", "Bash(npm:*)")], line, context);
    expect(match?.behavior).toBe("deny");
    expect(match?.rule.rule).toBe("Bash(npm:*)");
    expect(match?.command).toEqual(["npm", "i", "x"]);
  });

  it("an ask rule on any part asks", () => {
    expect(decide([rule("allow", "Bash"), rule("ask", "Bash(npm i:*)")], line)).toBe("ask Bash(npm i:*)");
  });

  it("a part hidden in a pipeline or a substitution counts like any other (the parser lists it)", () => {
    const hidden = bash(["echo", "ok"], ["curl", "https://x.example"], ["sh"]);
    expect(decide([rule("allow", "Bash(echo:*)"), rule("allow", "Bash(curl:*)")], hidden)).toBe("none");
    expect(decide([rule("allow", "Bash(echo:*)"), rule("deny", "Bash(sh)")], hidden)).toBe("deny Bash(sh)");
  });

  it("without the parser's command list, a pattern allows nothing and a pattern deny fires (fail closed)", () => {
    const unread: RuleCall = { toolName: "Bash", input: { command: "ls" } };
    expect(decide([rule("allow", "Bash(ls)")], unread)).toBe("none");
    expect(decide([rule("deny", "Bash(rm:*)")], unread)).toBe("deny Bash(rm:*)");
    expect(decide([rule("allow", "Bash")], unread)).toBe("allow Bash");
  });

  it("an empty line is allowed by no pattern", () => {
    const empty: SimpleCommands = [];
    expect(decide([rule("allow", "Bash(ls)")], { toolName: "Bash", input: { command: "" }, commands: empty })).toBe("none");
  });
});

describe("deny beats ask beats allow, whatever the order or specificity", () => {
  const call = bash(["aws", "s3", "ls"]);

  it("a broad deny beats a more specific allow", () => {
    expect(decide([rule("allow", "Bash(aws s3 ls)"), rule("deny", "Bash(aws *)")], call)).toBe("deny Bash(aws *)");
  });

  it("an ask beats an allow listed before it", () => {
    expect(decide([rule("allow", "Bash(aws s3 ls)"), rule("ask", "Bash(aws:*)")], call)).toBe("ask Bash(aws:*)");
  });

  it("a deny beats an ask", () => {
    expect(decide([rule("ask", "Bash"), rule("deny", "Bash(aws:*)")], call)).toBe("deny Bash(aws:*)");
  });

  it("rules on other tools have no say", () => {
    expect(decide([rule("deny", "Bash"), rule("deny", "Edit")], { toolName: "Read", input: { file_path: "/home/user/code/app/a" } })).toBe("none");
  });
});

describe("paths: Read and Edit rules, gitignore-style", () => {
  const edit = (filePath: string, toolName = "Edit"): RuleCall => ({ toolName, input: { file_path: filePath, old_string: "a", new_string: "b" } });
  const read = (filePath: string): RuleCall => ({ toolName: "Read", input: { file_path: filePath } });

  it("`path` is relative to the cwd; `src/**` covers everything below src", () => {
    expect(allows("Edit(src/**)", edit("/home/user/code/app/src/app/page.tsx"))).toBe(true);
    expect(allows("Edit(src/**)", edit("src/app/page.tsx"))).toBe(true);
    expect(allows("Edit(src/**)", edit("/home/user/code/app/test/a.ts"))).toBe(false);
    expect(allows("Edit(src/**)", edit("/home/user/code/other/src/a.ts"))).toBe(false);
  });

  it("`..` is folded before matching: a path that climbs out of src is not inside it", () => {
    expect(allows("Edit(src/**)", edit("/home/user/code/app/src/../secrets/key.pem"))).toBe(false);
    expect(decide([rule("allow", "Edit(src/**)"), rule("deny", "Edit(secrets/**)")], edit("src/../secrets/key.pem"))).toBe("deny Edit(secrets/**)");
    expect(allows("Edit(../shared/**)", edit("/home/user/code/shared/notes.md"))).toBe(true);
  });

  it("`//path` is absolute, `/path` is from the project root", () => {
    expect(allows("Read(//etc/**)", read("/etc/passwd"))).toBe(true);
    expect(allows("Read(/etc/**)", read("/etc/passwd"))).toBe(false);
    expect(allows("Read(/etc/**)", read("/home/user/code/app/etc/app.conf"))).toBe(true);
    const inSubfolder = { ...context, cwd: "/home/user/code/app/packages/web" };
    expect(allows("Edit(/src/**/*.ts)", edit("/home/user/code/app/src/deep/a.ts"), inSubfolder)).toBe(true);
    expect(allows("Edit(/src/**/*.ts)", edit("/home/user/code/app/src/deep/a.tsx"), inSubfolder)).toBe(false);
    expect(allows("Edit(src/**)", edit("/home/user/code/app/src/a.ts"), inSubfolder)).toBe(false);
  });

  it("a project rule's `/path` starts at its own project, not the session's", () => {
    const own = rule("allow", "Edit(/docs/**)", { scope: "project", scopeKey: "/home/user/code/site" });
    expect(matchRules([own], edit("/home/user/code/site/docs/a.md"), context)?.behavior).toBe("allow");
    expect(matchRules([own], edit("/home/user/code/app/docs/a.md"), context)).toBeUndefined();
  });

  it("`~/` is the home folder, in rules and in paths", () => {
    expect(allows("Read(~/.ssh/**)", read("/home/user/.ssh/id_ed25519"))).toBe(true);
    expect(allows("Read(~/.ssh/**)", read("~/.ssh/id_ed25519"))).toBe(true);
    expect(allows("Read(~/.zshrc)", read("/home/user/.zshrc"))).toBe(true);
    expect(allows("Read(~/.zshrc)", read("/home/other/.zshrc"))).toBe(false);
  });

  it("a pattern without a slash matches at any depth below the cwd, and only there", () => {
    expect(allows("Read(*.env)", read("/home/user/code/app/.env"))).toBe(true);
    expect(allows("Read(*.env)", read("/home/user/code/app/config/prod.env"))).toBe(true);
    expect(allows("Read(*.env)", read("/home/user/.env"))).toBe(false);
    expect(allows("Read(./.env)", read("/home/user/code/app/config/.env"))).toBe(false);
  });

  it("`*` stays within a folder, `**` spans folders, `?` and `[…]` are one character", () => {
    expect(allows("Edit(src/*.ts)", edit("/home/user/code/app/src/a.ts"))).toBe(true);
    expect(allows("Edit(src/*.ts)", edit("/home/user/code/app/src/deep/a.ts"))).toBe(false);
    expect(allows("Edit(src/**/*.ts)", edit("/home/user/code/app/src/a.ts"))).toBe(true);
    expect(allows("Edit(src/v?/x)", edit("/home/user/code/app/src/v2/x"))).toBe(true);
    expect(allows("Edit(src/v[0-3]/x)", edit("/home/user/code/app/src/v2/x"))).toBe(true);
    expect(allows("Edit(src/v[!0-3]/x)", edit("/home/user/code/app/src/v2/x"))).toBe(false);
  });

  it("a folder the pattern names covers what is inside it", () => {
    expect(decide([rule("deny", "Read(secrets)")], read("/home/user/code/app/secrets/db/key"))).toBe("deny Read(secrets)");
  });

  it("the cwd's own special characters are taken literally", () => {
    const odd = { ...context, cwd: "/home/user/code/a[1]", projectRoot: "/home/user/code/a[1]" };
    expect(allows("Edit(src/**)", edit("/home/user/code/a[1]/src/x.ts"), odd)).toBe(true);
    expect(allows("Edit(src/**)", edit("/home/user/code/a1/src/x.ts"), odd)).toBe(false);
  });

  it("Edit rules cover every tool that edits files; a Write rule only Write", () => {
    expect(allows("Edit(src/**)", edit("/home/user/code/app/src/a.ts", "Write"))).toBe(true);
    expect(allows("Edit(src/**)", edit("/home/user/code/app/src/a.ts", "MultiEdit"))).toBe(true);
    expect(allows("Edit(nb/**)", { toolName: "NotebookEdit", input: { notebook_path: "/home/user/code/app/nb/a.ipynb" } })).toBe(true);
    expect(allows("Edit", edit("/anywhere/a", "Write"))).toBe(true);
    expect(allows("Write(src/**)", edit("/home/user/code/app/src/a.ts", "Write"))).toBe(true);
    expect(allows("Write(src/**)", edit("/home/user/code/app/src/a.ts", "Edit"))).toBe(false);
  });

  it("Read rules cover Grep and Glob by the folder they search (the cwd when none is given)", () => {
    expect(decide([rule("deny", "Read(secrets/**)")], { toolName: "Grep", input: { pattern: "password", path: "/home/user/code/app/secrets" } })).toBe("deny Read(secrets/**)");
    expect(decide([rule("deny", "Read(secrets/**)")], { toolName: "Grep", input: { pattern: "password", path: "/home/user/code/app/src" } })).toBe("none");
    expect(allows("Read(/**)", { toolName: "Glob", input: { pattern: "**/*.ts" } })).toBe(true);
  });

  it("a call that names no path: a pattern allows nothing, a pattern deny fires", () => {
    expect(decide([rule("allow", "Edit(src/**)")], { toolName: "Edit", input: {} })).toBe("none");
    expect(decide([rule("deny", "Edit(secrets/**)")], { toolName: "Edit", input: {} })).toBe("deny Edit(secrets/**)");
  });
});

describe("WebFetch(domain:…) names one host, as Claude Code compares it", () => {
  const fetch = (url: string): RuleCall => ({ toolName: "WebFetch", input: { url, prompt: "summarise" } });

  it("the host itself, in any case, with any path", () => {
    expect(allows("WebFetch(domain:example.com)", fetch("https://example.com/docs?page=2"))).toBe(true);
    expect(allows("WebFetch(domain:example.com)", fetch("https://EXAMPLE.com/"))).toBe(true);
  });

  it("not its subdomains, and not a host that merely ends with it", () => {
    expect(allows("WebFetch(domain:example.com)", fetch("https://sub.example.com/"))).toBe(false);
    expect(allows("WebFetch(domain:example.com)", fetch("https://example.com.evil.net/"))).toBe(false);
    expect(allows("WebFetch(domain:example.com)", fetch("https://notexample.com/"))).toBe(false);
  });

  it("a URL that does not parse: allowed by no domain, denied by any domain deny", () => {
    expect(allows("WebFetch(domain:example.com)", fetch("not a url"))).toBe(false);
    expect(decide([rule("deny", "WebFetch(domain:example.com)")], fetch("not a url"))).toBe("deny WebFetch(domain:example.com)");
  });
});

describe("MCP tools and subagents", () => {
  it("mcp__server covers that server's tools only; mcp__server__tool one tool", () => {
    expect(allows("mcp__github", { toolName: "mcp__github__create_issue", input: {} })).toBe(true);
    expect(allows("mcp__github__*", { toolName: "mcp__github__create_issue", input: {} })).toBe(true);
    expect(allows("mcp__github", { toolName: "mcp__githubx__create_issue", input: {} })).toBe(false);
    expect(allows("mcp__github__create_issue", { toolName: "mcp__github__create_issue", input: {} })).toBe(true);
    expect(allows("mcp__github__create_issue", { toolName: "mcp__github__delete_repo", input: {} })).toBe(false);
  });

  it("Agent(Explore) covers that subagent type, called by the Agent tool or its old name Task", () => {
    expect(allows("Agent(Explore)", { toolName: "Agent", input: { subagent_type: "Explore", prompt: "…" } })).toBe(true);
    expect(allows("Agent(Explore)", { toolName: "Task", input: { subagent_type: "Explore", prompt: "…" } })).toBe(true);
    expect(allows("Task(Explore)", { toolName: "Agent", input: { subagent_type: "coder", prompt: "…" } })).toBe(false);
  });
});
