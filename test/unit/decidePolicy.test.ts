// The policy engine's order of rules (decidePolicy.ts): who asks, who may call Baton's agent tools
// (only the conductor answers and reviews), the person's deny rules, the preset's sandbox, calls only a person may answer, the person's ask and allow rules, what a
// preset allows, and no rule at all. Real files for the write root (a temp folder with a link out).

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { PermissionRule, PolicyAgent } from "../../src/shared/policy.js";
import { builtinPresetSet } from "../../src/main/policy/presets/builtinPresets.js";
import { decidePolicy, type PolicyContext } from "../../src/main/policy/decidePolicy.js";
import { loadShellParser } from "../../src/main/policy/shell/shellParser.js";
import { nodeWritePathFs } from "../../src/main/policy/writePathFs.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-policy-", "all");
let root: string;
let cwd: string;

beforeAll(async () => {
  await loadShellParser();
  root = tempDir();
  cwd = path.join(root, "code", "x");
  fs.mkdirSync(cwd, { recursive: true });
  fs.symlinkSync(os.tmpdir(), path.join(cwd, "out-link"));
});

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

  it("keeps the conductor's tools to the conductor: any subagent is refused, whatever the person's rules say (issue 31)", () => {
    const review = { toolName: "mcp__baton__review_subagent_plan", input: { agent: "a1b2", decision: "approved" } };
    const answer = { toolName: "mcp__baton__answer_subagent", input: { agent: "a1b2", answer: "yes" } };
    const rules = [rule("allow", "mcp__baton__review_subagent_plan"), rule("allow", "mcp__baton__answer_subagent")];
    for (const type of ["general-purpose", "coder", "scout", "coordinator", "repo-reviewer"]) {
      for (const call of [review, answer]) {
        const verdict = decidePolicy({ agent: as(type), ...call }, context({ rules }));
        expect(verdict).toMatchObject({ decision: "deny", rule: "conductor-only" });
        expect(verdict.message).toContain(`Only the conductor (the main agent) may call ${call.toolName.slice("mcp__baton__".length)}`);
        expect(verdict.message).toContain(`you are a subagent (${type} a0123456789abcdef)`);
      }
    }
    // A coder in review may not review its own plan either: conductor-only, not its phase, decides.
    expect(decidePolicy({ agent: as("coder"), ...review, phase: "review" }, context())).toMatchObject({ decision: "deny", rule: "conductor-only" });
    // The conductor's own calls run without a prompt; the person's deny rule still stands.
    expect(decidePolicy({ agent: { kind: "main" }, ...review }, context())).toMatchObject({ decision: "allow", rule: "baton-tool" });
    expect(decidePolicy({ agent: { kind: "main" }, ...answer }, context())).toMatchObject({ decision: "allow", rule: "baton-tool" });
    expect(decidePolicy({ agent: { kind: "main" }, ...review }, context({ rules: [rule("deny", "mcp__baton__review_subagent_plan")] }))).toMatchObject({ decision: "deny", rule: "rule:deny mcp__baton__review_subagent_plan (project)" });
    expect(decidePolicy({ agent: { kind: "main" }, ...review }, context({ rules: [rule("ask", "mcp__baton__review_subagent_plan")] }))).toMatchObject({ decision: "ask" });
    // Outside orchestration mode Baton runs no such server: a person's own "baton" server is theirs to rule.
    expect(decidePolicy({ agent: as("general-purpose"), ...review }, context({ orchestration: false }))).toMatchObject({ decision: "ask", rule: "default:ask" });
  });

  it("lets subagents ask the conductor, a Deliberate preset submit its plan, and refuses the rest with what to do instead", () => {
    const ask = { toolName: "mcp__baton__ask_conductor", input: { question: "Which port?" } };
    const submit = { toolName: "mcp__baton__submit_plan", input: { goal: "g", steps: ["s"] } };
    expect(decidePolicy({ agent: as("coder"), ...ask, phase: "clarifying" }, context())).toMatchObject({ decision: "allow", rule: "baton-tool" });
    expect(decidePolicy({ agent: as("coder"), ...submit, phase: "clarifying" }, context())).toMatchObject({ decision: "allow", rule: "baton-tool" });
    expect(decidePolicy({ agent: as("worker"), ...submit, phase: "clarifying" }, context())).toMatchObject({ decision: "allow", rule: "baton-tool" });
    // general-purpose and a repository's type may ask (the desk routes any asker), not submit a plan (no phase an approval would move).
    expect(decidePolicy({ agent: as("general-purpose"), ...ask }, context())).toMatchObject({ decision: "allow", rule: "baton-tool" });
    const gpPlan = decidePolicy({ agent: as("general-purpose"), ...submit }, context());
    expect(gpPlan).toMatchObject({ decision: "deny", rule: "deliberate-only" });
    expect(gpPlan.message).toContain("submit_plan is for the Deliberate presets (coder, worker, coordinator)");
    expect(decidePolicy({ agent: as("repo-reviewer"), ...submit }, context({ rules: [rule("allow", "mcp__baton__submit_plan")] }))).toMatchObject({ decision: "deny", rule: "deliberate-only" });
    // An Exploratory preset's own tool list leaves them out.
    expect(decidePolicy({ agent: as("scout"), ...ask }, context())).toMatchObject({ decision: "deny", rule: "preset:scout/tools" });
    expect(decidePolicy({ agent: as("scout"), ...submit }, context())).toMatchObject({ decision: "deny", rule: "deliberate-only" });
    // The conductor has nobody to ask through them.
    expect(decidePolicy({ agent: { kind: "main" }, ...ask }, context())).toMatchObject({ decision: "deny", rule: "subagents-only", message: expect.stringContaining("AskUserQuestion") });
    expect(decidePolicy({ agent: { kind: "main" }, ...submit }, context())).toMatchObject({ decision: "deny", rule: "subagents-only" });
  });

  it("denies, saying why, when anything in it fails", () => {
    const broken = { ...builtinPresetSet(), presets: [{ ...builtinPresetSet().presets[2]!, tools: null as never }] };
    expect(decidePolicy({ agent: as("coder"), ...bash("ls") }, context({ presets: broken }))).toMatchObject({ decision: "deny", rule: "error", message: expect.stringContaining("could not decide") });
  });
});
