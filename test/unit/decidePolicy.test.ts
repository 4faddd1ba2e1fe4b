// The policy engine's order of rules (decidePolicy.ts): who asks, the person's deny rules, the
// preset's sandbox, calls only a person may answer, the person's ask and allow rules, what a
// preset allows, and no rule at all. Real files for the write root (a temp folder with a link out).

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PermissionRule, PolicyAgent } from "../../src/shared/policy.js";
import { builtinPresetSet } from "../../src/main/policy/builtinPresets.js";
import { decidePolicy, type PolicyContext } from "../../src/main/policy/decidePolicy.js";
import { loadShellParser } from "../../src/main/policy/shellParser.js";
import { nodeWritePathFs } from "../../src/main/policy/writePathFs.js";

let root: string;
let cwd: string;

beforeAll(async () => {
  await loadShellParser();
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "baton-policy-")));
  cwd = path.join(root, "code", "x");
  fs.mkdirSync(cwd, { recursive: true });
  fs.symlinkSync(os.tmpdir(), path.join(cwd, "out-link"));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const rule = (behavior: PermissionRule["behavior"], text: string): PermissionRule => ({ behavior, rule: text, scope: "project", scopeKey: cwd, origin: "test", createdAt: "2026-12-01T00:00:00.000Z" });

function context(extra: Partial<PolicyContext> = {}): PolicyContext {
  return { orchestration: true, presets: builtinPresetSet(), rules: [], cwd, projectRoot: cwd, home: root, fs: nodeWritePathFs, ...extra };
}

const as = (agentType: string): PolicyAgent => ({ kind: "subagent", agentId: "a0123456789abcdef", agentType });
const bash = (command: string) => ({ toolName: "Bash", input: { command } });

describe("decidePolicy", () => {
  it("denies an agent Baton cannot place in orchestration mode, and leaves it to the person otherwise", () => {
    const unknown: PolicyAgent = { kind: "unknown", agentId: "a999" };
    expect(decidePolicy({ agent: unknown, ...bash("ls") }, context())).toMatchObject({ decision: "deny", rule: "unknown-agent", message: expect.stringContaining("a999") });
    expect(decidePolicy({ agent: unknown, ...bash("ls") }, context({ orchestration: false }))).toMatchObject({ decision: "ask", rule: "default:ask" });
  });

  it("lets a preset do what it allows without asking, and refuses the rest with a message the model can act on", () => {
    expect(decidePolicy({ agent: as("analyst"), ...bash("git log --oneline | head -5") }, context())).toMatchObject({ decision: "allow", rule: "preset:analyst" });
    const npm = decidePolicy({ agent: as("coder"), ...bash("go test ./... && npm i x") }, context());
    expect(npm).toMatchObject({ decision: "deny", rule: "preset:coder/exec" });
    expect(npm.message).toMatch(/^coder may not run `npm i x`: npm is refused for every preset/);
    const build = decidePolicy({ agent: as("coder"), ...bash("go build ./...") }, context());
    expect(build).toMatchObject({ decision: "deny", rule: "preset:coder/exec", message: expect.stringContaining("belongs to worker or coordinator; ask the conductor") });
    expect(decidePolicy({ agent: as("scout"), toolName: "Write", input: { file_path: "a.txt", content: "" } }, context())).toMatchObject({ decision: "deny", rule: "preset:scout/tools" });
    expect(decidePolicy({ agent: as("coordinator"), toolName: "Agent", input: { subagent_type: "coordinator", prompt: "p", description: "d" } }, context())).toMatchObject({
      decision: "deny",
      rule: "preset:coordinator/spawn",
    });
    expect(decidePolicy({ agent: as("coordinator"), toolName: "Task", input: { subagent_type: "general-purpose", prompt: "p", description: "d" } }, context())).toMatchObject({ decision: "deny" });
    expect(decidePolicy({ agent: as("coordinator"), toolName: "Agent", input: { subagent_type: "coder", prompt: "p", description: "d" } }, context())).toMatchObject({ decision: "allow" });
  });

  it("keeps writes inside the write root, through links and redirections, and denies what the shell would only compute", () => {
    const write = (file_path: string) => decidePolicy({ agent: as("coder"), toolName: "Write", input: { file_path, content: "" } }, context());
    expect(write("src/a.ts")).toMatchObject({ decision: "allow" });
    expect(write("../elsewhere.txt")).toMatchObject({ decision: "deny", rule: "preset:coder/write" });
    expect(write("out-link/escape.txt")).toMatchObject({ decision: "deny", rule: "preset:coder/write", message: expect.stringContaining("symbolic link") });
    expect(decidePolicy({ agent: as("coder"), ...bash("pnpm test > report.txt") }, context())).toMatchObject({ decision: "allow" });
    expect(decidePolicy({ agent: as("coder"), ...bash("pnpm test > /etc/report.txt") }, context())).toMatchObject({ decision: "deny", rule: "preset:coder/write" });
    expect(decidePolicy({ agent: as("coder"), ...bash('pnpm test > "$OUT"') }, context())).toMatchObject({ decision: "deny", rule: "preset:coder/write" });
    expect(decidePolicy({ agent: as("analyst"), ...bash("git log > log.txt") }, context())).toMatchObject({ decision: "deny", rule: "preset:analyst/write" });
    expect(decidePolicy({ agent: as("coder"), ...bash("echo 'unterminated") }, context())).toMatchObject({ decision: "deny", rule: "preset:coder/exec" });
    // A change of folder moves where a relative write lands.
    expect(decidePolicy({ agent: as("coder"), ...bash("cd /etc && echo hi > x") }, context())).toMatchObject({ decision: "deny", rule: "preset:coder/write", message: expect.stringContaining("after `cd /etc`") });
    expect(decidePolicy({ agent: as("coder"), ...bash("cd /etc && sort -o x a") }, context())).toMatchObject({ decision: "deny", rule: "preset:coder/write" });
    expect(decidePolicy({ agent: as("coder"), ...bash(`cd src && pnpm test > ${cwd}/report.txt`) }, context())).toMatchObject({ decision: "allow" });
    expect(decidePolicy({ agent: as("coder"), ...bash("env -C /etc sort -o x a") }, context())).toMatchObject({ decision: "deny" });
    expect(decidePolicy({ agent: as("coder"), ...bash("sudo -D /etc sort -o x a") }, context())).toMatchObject({ decision: "deny" });
  });

  it("puts the person's deny first, lets it not override a preset's deny with an allow, and asks where they said ask", () => {
    const rules = [rule("deny", "Bash(git log:*)"), rule("allow", "Bash(npm install:*)"), rule("ask", "Bash(ls:*)")];
    expect(decidePolicy({ agent: as("analyst"), ...bash("git log") }, context({ rules }))).toMatchObject({ decision: "deny", rule: "rule:deny Bash(git log:*) (project)" });
    const npm = decidePolicy({ agent: as("coder"), ...bash("npm install x") }, context({ rules }));
    expect(npm).toMatchObject({ decision: "deny", rule: "preset:coder/exec" });
    expect(npm.message).toContain("cannot override a preset's sandbox");
    expect(decidePolicy({ agent: as("coder"), ...bash("ls") }, context({ rules }))).toMatchObject({ decision: "ask", rule: "rule:ask Bash(ls:*) (project)" });
    // The main agent and non-preset subagents follow the person's rules only.
    expect(decidePolicy({ agent: { kind: "main" }, ...bash("npm install x") }, context({ rules }))).toMatchObject({ decision: "allow", rule: "rule:allow Bash(npm install:*) (project)" });
    expect(decidePolicy({ agent: as("general-purpose"), ...bash("npm run build") }, context({ rules }))).toMatchObject({ decision: "ask", rule: "default:ask" });
    // Presets apply only in orchestration mode.
    expect(decidePolicy({ agent: as("coder"), ...bash("npm install x") }, context({ rules, orchestration: false }))).toMatchObject({ decision: "allow" });
  });

  it("never lets a rule or a preset answer for the person where the CLI says only a person may", () => {
    const rules = [rule("allow", "AskUserQuestion")];
    expect(decidePolicy({ agent: { kind: "main" }, toolName: "AskUserQuestion", input: { questions: [] }, requiresUserInteraction: true }, context({ rules }))).toMatchObject({ decision: "ask", rule: "person-only" });
  });

  it("denies, saying why, when anything in it fails", () => {
    const broken = { ...builtinPresetSet(), presets: [{ ...builtinPresetSet().presets[2]!, tools: null as never }] };
    expect(decidePolicy({ agent: as("coder"), ...bash("ls") }, context({ presets: broken }))).toMatchObject({ decision: "deny", rule: "error", message: expect.stringContaining("could not decide") });
  });
});
