// A Deliberate preset before its plan is approved (issue 24): only reading and asking tools and
// read-only commands run; everything else is refused with "submit your plan first" (clarifying) or
// "wait for the review" (review). Once executing, the preset's own sandbox alone decides. The
// prompt names the same tools the check allows (one table, beforeApproval.ts).

import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { SubagentPhase } from "../../src/shared/escalation.js";
import type { PolicyAgent } from "../../src/shared/policy.js";
import { batonToolId } from "../../src/main/mcp/batonTools.js";
import { ToolsBeforeApproval } from "../../src/main/policy/presets/beforeApproval.js";
import { builtinPresetSet } from "../../src/main/policy/presets/builtinPresets.js";
import { decidePolicy, type PolicyContext } from "../../src/main/policy/decidePolicy.js";
import { loadShellParser } from "../../src/main/policy/shell/shellParser.js";
import { nodeWritePathFs } from "../../src/main/policy/writePathFs.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-approval-", "all");
let root: string;
let cwd: string;

beforeAll(async () => {
  await loadShellParser();
  root = tempDir();
  cwd = path.join(root, "code", "x");
  fs.mkdirSync(cwd, { recursive: true });
});

const context = (): PolicyContext => ({ orchestration: true, presets: builtinPresetSet(), rules: [], cwd, projectRoot: cwd, home: root, fs: nodeWritePathFs });
const as = (agentType: string): PolicyAgent => ({ kind: "subagent", agentId: "a0123456789abcdef", agentType });
const decide = (agentType: string, phase: SubagentPhase | undefined, toolName: string, input: Record<string, unknown>) =>
  decidePolicy({ agent: as(agentType), toolName, input: input as never, ...(phase !== undefined ? { phase } : {}) }, context());

describe("before its plan is approved, a Deliberate preset", () => {
  const write = () => ({ file_path: path.join(cwd, "a.go"), content: "x" });

  it("may not write, edit or run a command that changes anything, and is told to submit its plan first", () => {
    const refused = decide("coder", "clarifying", "Write", write());
    expect(refused).toMatchObject({ decision: "deny", rule: "preset:coder/clarifying" });
    expect(refused.message).toContain("submit your plan first");
    expect(decide("coder", "clarifying", "Bash", { command: "go test ./..." })).toMatchObject({ decision: "deny", rule: "preset:coder/clarifying" });
    expect(decide("coder", "clarifying", "Bash", { command: "ls > listing.txt" })).toMatchObject({ decision: "deny" });
    const inReview = decide("worker", "review", "Edit", { file_path: path.join(cwd, "a.go"), old_string: "a", new_string: "b" });
    expect(inReview).toMatchObject({ decision: "deny", rule: "preset:worker/review" });
    expect(inReview.message).toContain("wait for the review");
  });

  it("may read, search with read-only commands, and ask or submit through Baton's tools", () => {
    expect(decide("coder", "clarifying", "Read", { file_path: path.join(cwd, "a.go") })).toMatchObject({ decision: "allow" });
    expect(decide("coder", "clarifying", "Bash", { command: "git log --oneline | head -5" })).toMatchObject({ decision: "allow" });
    expect(decide("coder", "clarifying", batonToolId("ask_conductor"), { question: "?" })).toMatchObject({ decision: "allow" });
    expect(decide("coder", "review", batonToolId("submit_plan"), { goal: "g", steps: ["s"] })).toMatchObject({ decision: "allow" });
  });

  it("executing, or with no phase, is held to its sandbox alone; an Exploratory preset never has the gate", () => {
    expect(decide("coder", "executing", "Write", write())).toMatchObject({ decision: "allow" });
    expect(decide("coder", undefined, "Write", write())).toMatchObject({ decision: "allow" });
    expect(decide("scout", "clarifying", "Read", { file_path: path.join(cwd, "a.go") })).toMatchObject({ decision: "allow" });
  });

  it("is told in its prompt the very tools the check lets through, and has Baton's tools in its list", () => {
    const coder = builtinPresetSet().presets.find((p) => p.name === "coder")!;
    for (const tool of ToolsBeforeApproval.filter((t) => coder.tools.includes(t))) expect(coder.prompt).toContain(tool);
    expect(coder.tools).toEqual(expect.arrayContaining([batonToolId("ask_conductor"), batonToolId("submit_plan")]));
    expect(coder.prompt).toContain(batonToolId("submit_plan"));
    const scout = builtinPresetSet().presets.find((p) => p.name === "scout")!;
    expect(scout.tools).not.toContain(batonToolId("ask_conductor"));
  });
});
