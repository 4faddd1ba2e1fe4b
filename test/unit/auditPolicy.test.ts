// Policy verdicts on the record (issue 22): written fire-and-forget through the real store worker
// into a temp audit.sqlite, read back as one trail in the order they were recorded, with the
// person's answers (rule "person") and the interrupts between them; only a bounded one-line digest
// of each input is kept; a bad entry is reported, not stored.
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AuditPolicyDecision } from "../../src/main/audit/audit.js";
import { DIGEST_MAX_CHARS } from "../../src/main/audit/auditDigest.js";
import { createAuditTrail } from "../../src/main/store/auditTrail.js";
import { openStore, type StoreClient } from "../../src/main/store/storeClient.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-audit-policy-");
const stores: StoreClient[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

async function store(): Promise<StoreClient> {
  const dir = tempDir();
  const s = await openStore({ dbPath: path.join(dir, "history.db") });
  stores.push(s);
  return s;
}

// Every row of the scenario carries the same millisecond: only the recorded order can order them.
const time = "2026-01-01T00:00:01.000Z";
const coder = { agentId: "a0123456789abcdef", agentType: "coder", preset: "coder" } as const;
const analyst = { agentId: "afedcba9876543210", agentType: "analyst", preset: "analyst" } as const;

function decision(over: Partial<AuditPolicyDecision> & Pick<AuditPolicyDecision, "toolUseId" | "toolName" | "input">): AuditPolicyDecision {
  return { sessionId: "s1", time, decision: "allow", rule: "default:allow", origin: "hook", ...over };
}

describe("policy decisions in the audit trail (store worker)", { timeout: 30_000 }, () => {
  it("reads back every verdict in recorded order, with the person's answers and the interrupts between them", async () => {
    const s = await store();
    const errors: string[] = [];
    const trail = createAuditTrail(s, (what, error) => errors.push(`${what}: ${String(error)}`));

    expect(trail.policyDecision(decision({ toolUseId: "toolu_1", toolName: "Bash", input: { command: "git status" }, rule: "rule:allow Bash(git status:*) (project)" }))).toBeUndefined();
    trail.policyDecision(
      decision({
        ...coder,
        toolUseId: "toolu_2",
        toolName: "Bash",
        input: { command: "go test ./... && npm i x", description: "tests" },
        decision: "deny",
        rule: "preset:coder/exec",
        message: "coder may not run `npm i x`: installing packages belongs to worker; ask the conductor",
      }),
    );
    // Put in front of the person through a can_use_tool request; the person allows it.
    trail.policyDecision(decision({ ...analyst, toolUseId: "toolu_3", toolName: "Write", input: { file_path: "/home/user/code/x/notes.md", content: "long text" }, decision: "ask", rule: "default:ask", origin: "permission" }));
    trail.permission({ sessionId: "s1", requestId: "req-3", toolUseId: "toolu_3", agentId: analyst.agentId, toolName: "Write", decision: "allow", decidedBy: "user", time });
    trail.interrupt({ sessionId: "s1", time });
    // A verdict that answered a request, and that request's outcome: one decision in the trail.
    trail.policyDecision(decision({ ...analyst, toolUseId: "toolu_4", toolName: "Read", input: { file_path: "/home/user/code/x/a.ts" }, rule: "preset:analyst/tools", origin: "permission" }));
    trail.permission({ sessionId: "s1", requestId: "req-4", toolUseId: "toolu_4", agentId: analyst.agentId, toolName: "Read", decision: "allow", decidedBy: "policy:preset:analyst/tools", time });
    trail.permission({ sessionId: "s1", requestId: "req-5", toolUseId: "toolu_5", toolName: "Bash", decision: "deny", decidedBy: "shutdown", message: "Baton is quitting; denied.", time });
    trail.policyDecision(decision({ sessionId: "s2", toolUseId: "toolu_other", toolName: "Bash", input: { command: "ls" } }));
    await trail.flush();

    const audit = await s.readAudit("s1");
    expect(errors).toEqual([]);
    expect(audit.trail).toEqual([
      { kind: "decision", sessionId: "s1", time, toolUseId: "toolu_1", toolName: "Bash", inputDigest: "git status", decision: "allow", rule: "rule:allow Bash(git status:*) (project)", origin: "hook" },
      {
        kind: "decision",
        sessionId: "s1",
        time,
        toolUseId: "toolu_2",
        toolName: "Bash",
        ...coder,
        inputDigest: "go test ./... && npm i x",
        decision: "deny",
        rule: "preset:coder/exec",
        message: "coder may not run `npm i x`: installing packages belongs to worker; ask the conductor",
        origin: "hook",
      },
      { kind: "decision", sessionId: "s1", time, toolUseId: "toolu_3", toolName: "Write", ...analyst, inputDigest: "/home/user/code/x/notes.md", decision: "ask", rule: "default:ask", origin: "permission" },
      { kind: "decision", sessionId: "s1", time, toolUseId: "toolu_3", toolName: "Write", ...analyst, inputDigest: "/home/user/code/x/notes.md", decision: "allow", rule: "person", origin: "person", requestId: "req-3" },
      { kind: "interrupt", sessionId: "s1", time },
      { kind: "decision", sessionId: "s1", time, toolUseId: "toolu_4", toolName: "Read", ...analyst, inputDigest: "/home/user/code/x/a.ts", decision: "allow", rule: "preset:analyst/tools", origin: "permission", requestId: "req-4" },
      { kind: "decision", sessionId: "s1", time, toolUseId: "toolu_5", toolName: "Bash", decision: "deny", rule: "shutdown", message: "Baton is quitting; denied.", origin: "permission", requestId: "req-5" },
    ]);
    // What a restore reads is unchanged: the answers and interrupts only, never a verdict.
    expect(audit.permissions.map((p) => p.requestId)).toEqual(["req-3", "req-4", "req-5"]);
    expect(audit.interrupts).toEqual([{ sessionId: "s1", time }]);
    expect((await s.readAudit("s2")).trail).toEqual([expect.objectContaining({ toolUseId: "toolu_other", inputDigest: "ls" })]);
  });

  it("keeps one bounded line of each input, and reports a bad entry without storing it", async () => {
    const s = await store();
    const errors: string[] = [];
    const trail = createAuditTrail(s, (what, error) => errors.push(`${what}: ${String(error)}`));
    const big = { query: "x".repeat(5000), nested: { list: [1, 2, 3] } };
    trail.policyDecision(decision({ toolUseId: "toolu_big", toolName: "mcp__docs__search", input: big }));
    trail.policyDecision(decision({ toolUseId: "toolu_lines", toolName: "Bash", input: { command: "cat <<EOF\nhello\tworld\nEOF" } }));
    trail.policyDecision(decision({ toolUseId: "toolu_spawn", toolName: "Agent", input: { subagent_type: "scout", description: "Map the repo", prompt: "…" } }));
    trail.policyDecision(decision({ toolUseId: "toolu_bad", toolName: "Bash", input: { command: "ls" }, decision: "maybe" as never }));
    trail.policyDecision(decision({ toolUseId: "toolu_person", toolName: "Bash", input: { command: "ls" }, origin: "person" as never }));
    await trail.flush();

    const digests = (await s.readAudit("s1")).trail.map((r) => (r.kind === "decision" ? r.inputDigest : undefined));
    const first = digests[0]!;
    expect(Array.from(first)).toHaveLength(DIGEST_MAX_CHARS);
    expect(first).toBe(`${JSON.stringify(big).slice(0, DIGEST_MAX_CHARS - 1)}…`);
    expect(digests.slice(1)).toEqual(["cat <<EOF⏎hello world⏎EOF", "scout: Map the repo"]);
    expect(errors).toEqual([
      expect.stringMatching(/^policy decision: .*unknown decision maybe/),
      expect.stringMatching(/^policy decision: .*unknown origin person/),
    ]);
  });
});
