// `baton audit <sessionId>`, run as the dispatcher runs it: a session's trail from a temp
// audit.sqlite, as text (one row per line, terminal-safe) and as JSON; the default place and
// --db given as the index or the audit file; an unknown session and a missing file; a fork's row
// and file rewinds.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { run } from "../../src/main/commands/audit.js";
import { main } from "../../src/main/commands/baton.js";
import { bufferIO } from "../../src/main/commands/commandIO.js";
import { policyRecord, rewindRecord, type AuditPolicyDecision } from "../../src/main/audit/audit.js";
import { MaxRewindFiles } from "../../src/main/audit/auditRewinds.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-audit-cmd-");
afterEach(() => {
  vi.unstubAllEnvs();
});

async function audit(args: string[]) {
  const io = bufferIO();
  const code = await run(args, io);
  return { code, out: io.out(), err: io.err() };
}

const coder = { agentId: "a0123456789abcdef", agentType: "coder", preset: "coder" } as const;
const hostile = "echo \u001b]52;c;aGk=\u0007 \u202Egnp.exe";

function verdict(over: Partial<AuditPolicyDecision> & Pick<AuditPolicyDecision, "toolUseId" | "time">): AuditPolicyDecision {
  return { sessionId: "s1", toolName: "Bash", input: { command: "git status" }, decision: "allow", rule: "rule:allow Bash(git status:*) (project)", origin: "hook", ...over };
}

/** history.db and its audit.sqlite in `<dir>/cfg`, holding session s1's trail (and s2's). */
function recorded(dir: string): string {
  const dbPath = path.join(dir, "cfg", "history.db");
  const store = new StoreService({ dbPath });
  store.recordPolicyDecision(policyRecord(verdict({ toolUseId: "toolu_1", time: "2026-01-01T00:00:01.000Z" })));
  store.recordPolicyDecision(
    policyRecord(
      verdict({
        ...coder,
        toolUseId: "toolu_2",
        time: "2026-01-01T00:00:02.000Z",
        input: { command: "go test ./... && npm i x" },
        decision: "deny",
        rule: "preset:coder/exec",
        message: "coder may not run `npm i x`:\ninstalling packages belongs to worker",
      }),
    ),
  );
  store.recordPolicyDecision(policyRecord(verdict({ ...coder, toolUseId: "toolu_3", time: "2026-01-01T00:00:03.000Z", input: { command: hostile }, decision: "ask", rule: "default:ask", origin: "permission" })));
  store.recordPermission({ sessionId: "s1", requestId: "req-3", toolUseId: "toolu_3", agentId: coder.agentId, toolName: "Bash", decision: "deny", decidedBy: "user", message: "not now", time: "2026-01-01T00:00:04.000Z" });
  store.recordInterrupt({ sessionId: "s1", time: "2026-01-01T00:00:05.000Z" });
  store.recordPolicyDecision(policyRecord(verdict({ sessionId: "s2", toolUseId: "toolu_9", time: "2026-01-01T00:00:06.000Z" })));
  store.close();
  return dbPath;
}

/** A text row's cells: the columns are separated by two or more spaces. */
function cells(line: string): string[] {
  return line.split(/ {2,}/);
}

describe("baton audit", () => {
  it("prints the session's trail in order, one row per line, with agent, tool, input, decision, rule and message", async () => {
    const dbPath = recorded(tempDir());
    const { code, out, err } = await audit(["s1", "--db", dbPath]);
    expect(err).toBe("");
    expect(code).toBe(0);
    const lines = out.trimEnd().split("\n");
    expect(cells(lines[0]!)).toEqual(["TIME", "AGENT", "TOOL", "INPUT", "DECISION", "RULE", "MESSAGE"]);
    expect(lines.slice(1).map(cells)).toEqual([
      ["2026-01-01T00:00:01.000Z", "main", "Bash", "git status", "allow", "rule:allow Bash(git status:*) (project)"],
      ["2026-01-01T00:00:02.000Z", "a0123456789abcdef/coder/coder", "Bash", "go test ./... && npm i x", "deny", "preset:coder/exec", "coder may not run `npm i x`: installing packages belongs to worker"],
      ["2026-01-01T00:00:03.000Z", "a0123456789abcdef/coder/coder", "Bash", "echo <U+001B>]52;c;aGk=<U+0007> <U+202E>gnp.exe", "ask", "default:ask"],
      ["2026-01-01T00:00:04.000Z", "a0123456789abcdef/coder/coder", "Bash", "echo <U+001B>]52;c;aGk=<U+0007> <U+202E>gnp.exe", "deny", "person", "not now"],
      ["2026-01-01T00:00:05.000Z", "-", "-", "-", "interrupt", "-", "Baton interrupted the turn"],
    ]);
    // Nothing the terminal would act on: no ESC, BEL or bidi override reaches it.
    expect(out).not.toMatch(/[\u001b\u0007\u202e]/);
  });

  it("--json prints the trail as an array of objects, with the input digest as recorded", async () => {
    const dbPath = recorded(tempDir());
    const { code, out } = await audit(["s1", "--db", dbPath, "--json"]);
    expect(code).toBe(0);
    expect(out).not.toMatch(/[\u001b\u0007\u202e]/);
    const rows = JSON.parse(out) as Record<string, unknown>[];
    expect(rows.map((r) => [r["kind"], r["toolUseId"], r["decision"], r["rule"], r["origin"]])).toEqual([
      ["decision", "toolu_1", "allow", "rule:allow Bash(git status:*) (project)", "hook"],
      ["decision", "toolu_2", "deny", "preset:coder/exec", "hook"],
      ["decision", "toolu_3", "ask", "default:ask", "permission"],
      ["decision", "toolu_3", "deny", "person", "person"],
      ["interrupt", undefined, undefined, undefined, undefined],
    ]);
    expect(rows[2]).toEqual({ kind: "decision", sessionId: "s1", time: "2026-01-01T00:00:03.000Z", toolUseId: "toolu_3", toolName: "Bash", ...coder, inputDigest: hostile, decision: "ask", rule: "default:ask", origin: "permission" });
    expect(rows[4]).toEqual({ kind: "interrupt", sessionId: "s1", time: "2026-01-01T00:00:05.000Z" });
  });

  it("names who answered each escalation by agent id, and shows a conductor's tool refused to a subagent, by the hook or by Baton's MCP server", async () => {
    const dbPath = path.join(tempDir(), "cfg", "history.db");
    const store = new StoreService({ dbPath });
    const gp = { agentId: "a9f00d", agentType: "general-purpose" } as const;
    const settle = { sessionId: "s3", agentToolUseId: "toolu_coder", agentId: "a1b2", outcome: "approved" } as const;
    const refusal = { ...gp, sessionId: "s3", toolName: "mcp__baton__review_subagent_plan", input: { agent: "a1b2", decision: "approved" }, decision: "deny", rule: "conductor-only", message: "Only the conductor (the main agent) may call review_subagent_plan" } as const;
    store.recordOrchestration({ kind: "spawn", sessionId: "s3", time: "2026-01-01T00:00:01.000Z", agentToolUseId: "toolu_coder", agentId: "a1b2", subagentType: "coder" });
    store.recordPolicyDecision(policyRecord({ ...refusal, time: "2026-01-01T00:00:02.000Z", toolUseId: "toolu_gp_review", origin: "hook" }));
    store.recordPolicyDecision(policyRecord({ ...refusal, time: "2026-01-01T00:00:03.000Z", toolUseId: "toolu_gp_review2", origin: "mcp" }));
    store.recordOrchestration({ kind: "review", ...settle, time: "2026-01-01T00:00:04.000Z", toolUseId: "toolu_plan1", by: "conductor", answeredBy: "main" });
    // A conductor's review recorded before answers named their agent.
    store.recordOrchestration({ kind: "review", ...settle, time: "2026-01-01T00:00:05.000Z", toolUseId: "toolu_plan2", by: "conductor" });
    store.recordOrchestration({ kind: "answer", ...settle, outcome: "answered", time: "2026-01-01T00:00:06.000Z", toolUseId: "toolu_ask", by: "person", answeredBy: "person" });
    store.close();
    const { code, out } = await audit(["s3", "--db", dbPath]);
    expect(code).toBe(0);
    expect(out.trimEnd().split("\n").slice(2).map(cells).map((c) => [c[1], c[2], c[4], c[5]])).toEqual([
      ["a9f00d/general-purpose/-", "mcp__baton__review_subagent_plan", "deny", "conductor-only"],
      ["a9f00d/general-purpose/-", "mcp__baton__review_subagent_plan", "deny", "conductor-only"],
      ["a1b2/coder", "submit_plan", "review", "by conductor (main)"],
      ["a1b2/coder", "submit_plan", "review", "by conductor (agent not recorded)"],
      ["a1b2/coder", "ask_conductor", "answer", "by person"],
    ]);
    const rows = JSON.parse((await audit(["s3", "--db", dbPath, "--json"])).out) as Record<string, unknown>[];
    expect(rows.map((r) => r["origin"] ?? r["answeredBy"] ?? null)).toEqual([null, "hook", "mcp", "main", null, "person"]);
  });

  it("a fork Baton made starts with where it was forked from, alone or before its own rows; its origin's trail is its own", async () => {
    const dbPath = recorded(tempDir());
    const store = new StoreService({ dbPath });
    const prompt = "00000000-0000-4000-8000-000000000002";
    store.recordFork({ forkSessionId: "f1", originSessionId: "s1", promptUuid: prompt, time: "2026-01-02T00:00:00.000Z" });
    store.recordFork({ forkSessionId: "ff", originSessionId: "f1", promptUuid: prompt, time: "2026-01-02T00:01:00.000Z" });
    store.recordInterrupt({ sessionId: "ff", time: "2026-01-02T00:02:00.000Z" });
    store.close();
    const alone = await audit(["f1", "--db", dbPath]);
    expect(alone.code).toBe(0);
    expect(alone.out.trimEnd().split("\n").slice(1).map(cells)).toEqual([["2026-01-02T00:00:00.000Z", "-", "-", "-", "fork", "-", `forked from s1 at prompt ${prompt}`]]);
    const withRows = await audit(["ff", "--db", dbPath]);
    expect(withRows.out.trimEnd().split("\n").slice(1).map((l) => cells(l)[4])).toEqual(["fork", "interrupt"]);
    expect(withRows.out).toContain(`forked from f1 at prompt ${prompt}`);
    expect(JSON.parse((await audit(["ff", "--db", dbPath, "--json"])).out)).toEqual([
      { kind: "fork", sessionId: "ff", time: "2026-01-02T00:01:00.000Z", forkedFrom: "f1", promptUuid: prompt },
      { kind: "interrupt", sessionId: "ff", time: "2026-01-02T00:02:00.000Z" },
    ]);
    expect((await audit(["s1", "--db", dbPath])).out).not.toContain("fork");
  });

  it("lists each file rewind in its place with the prompt and the files, those past the kept list counted", async () => {
    const dbPath = recorded(tempDir());
    const store = new StoreService({ dbPath });
    const prompt = "00000000-0000-4000-8000-000000000002";
    store.recordInterrupt({ sessionId: "s4", time: "2026-01-03T00:00:00.000Z" });
    store.recordRewind(rewindRecord("s4", prompt, ["/home/user/code/x/a.txt", "/home/user/code/x/sub/b.txt"], "2026-01-03T00:01:00.000Z"));
    const many = Array.from({ length: MaxRewindFiles + 3 }, (_, i) => `/home/user/code/x/f${i}.txt`);
    store.recordRewind(rewindRecord("s4", prompt, many, "2026-01-03T00:02:00.000Z"));
    store.close();
    const { code, out } = await audit(["s4", "--db", dbPath]);
    expect(code).toBe(0);
    const rows = out.trimEnd().split("\n").slice(1).map(cells);
    expect(rows.map((c) => c[4])).toEqual(["interrupt", "rewind", "rewind"]);
    expect(rows[1]).toEqual(["2026-01-03T00:01:00.000Z", "-", "-", "-", "rewind", "-", `rewound 2 files to just before prompt ${prompt}: /home/user/code/x/a.txt, /home/user/code/x/sub/b.txt`]);
    expect(rows[2]?.[6]).toMatch(new RegExp(`^rewound ${MaxRewindFiles + 3} files to just before prompt ${prompt}: /home/user/code/x/f0.txt, .*/f${MaxRewindFiles - 1}.txt and 3 more$`));
    const json = JSON.parse((await audit(["s4", "--db", dbPath, "--json"])).out) as Record<string, unknown>[];
    expect(json[1]).toEqual({ kind: "rewind", sessionId: "s4", promptUuid: prompt, files: ["/home/user/code/x/a.txt", "/home/user/code/x/sub/b.txt"], fileCount: 2, time: "2026-01-03T00:01:00.000Z" });
    expect((json[2]?.["files"] as string[]).length).toBe(MaxRewindFiles);
  });

  it("finds the trail by default in $XDG_CONFIG_HOME/baton, and takes audit.sqlite itself as --db", async () => {
    const dir = tempDir();
    const dbPath = recorded(dir);
    vi.stubEnv("XDG_CONFIG_HOME", path.join(dir, "xdg"));
    fs.mkdirSync(path.join(dir, "xdg"));
    fs.renameSync(path.dirname(dbPath), path.join(dir, "xdg", "baton"));
    const byDefault = await audit(["s2"]);
    expect(byDefault.code).toBe(0);
    expect(byDefault.out.trimEnd().split("\n").slice(1).map(cells)).toEqual([["2026-01-01T00:00:06.000Z", "main", "Bash", "git status", "allow", "rule:allow Bash(git status:*) (project)"]]);
    const direct = await audit(["s2", "--db", path.join(dir, "xdg", "baton", "audit.sqlite")]);
    expect(direct).toEqual(byDefault);
  });

  it("an unknown session exits 1 naming the session and the file", async () => {
    const dbPath = recorded(tempDir());
    const { code, out, err } = await audit(["no-such-session", "--db", dbPath]);
    expect(code).toBe(1);
    expect(out).toBe("");
    expect(err).toBe(`baton audit: no audit rows for session no-such-session in ${path.join(path.dirname(dbPath), "audit.sqlite")}\n`);
  });

  it("a missing audit file exits 1 with a message, and creates nothing", async () => {
    const dir = tempDir();
    const { code, out, err } = await audit(["s1", "--db", path.join(dir, "nowhere", "history.db")]);
    expect(code).toBe(1);
    expect(out).toBe("");
    expect(err).toContain(`baton audit: no audit trail at ${path.join(dir, "nowhere", "audit.sqlite")}`);
    expect(fs.existsSync(path.join(dir, "nowhere"))).toBe(false);
  });

  it("is listed by baton --help, and asks for exactly one session id", async () => {
    const help = bufferIO();
    expect(await main(["--help"], help)).toBe(0);
    expect(help.out()).toMatch(/^ {2}audit +Print a session's audit trail/m);
    expect(help.out()).toContain("baton audit <sessionId> [--db <file>] [--json]");
    const none = await audit([]);
    expect(none.code).toBe(2);
    expect(none.err).toContain("give one session id");
  });
});
