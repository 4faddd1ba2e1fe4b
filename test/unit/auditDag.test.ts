// The session DAG in the audit trail (issue 24), written by a live tab into a real audit.sqlite:
// spawns (parent → child, type, background), status changes (only changes), and the escalation
// chain (questions and answers, plan versions and reviews, routes, phases), in one ordered trail
// with the decisions; `baton audit` prints them one line each; and a session restored from disk
// shows its phases, questions and reviews exactly as the live tab did.
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ClientEvent } from "../../src/shared/events.js";
import { run as auditRun } from "../../src/main/commands/audit.js";
import { bufferIO } from "../../src/main/commands/commandIO.js";
import { restoreFirstScreen } from "../../src/main/history/firstScreen.js";
import { restoreSession } from "../../src/main/history/restore.js";
import { modelOf } from "../../src/main/hub/index.js";
import { recordingEvents } from "../../src/main/hub/recordingEvents.js";
import type { AuditOrchestration, AuditTrailRow } from "../../src/main/audit/audit.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { CoderCall, DagSessionId, dagLineEvents, recordingTab, trailOver, writeDagSession } from "../support/auditDagSession.js";
import { mainTranscriptFiles, needRecording, readJsonlLines } from "../support/recordings.js";
import { recordOf } from "./hubTestKit.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-audit-dag-");
const stores: StoreService[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});
function openStore(dir: string): { store: StoreService; dbPath: string } {
  const dbPath = path.join(dir, "baton", "history.db");
  const store = new StoreService({ dbPath });
  stores.push(store);
  return { store, dbPath };
}

/** The nested-subagents recording read by a live tab that writes its trail into a fresh store. */
async function nestedTab() {
  const recording = needRecording("nested-subagents");
  const events = recordingEvents(readJsonlLines(recording.streamFiles[0] as string));
  const { store } = openStore(tempDir());
  const trail = trailOver(store, []);
  const tab = recordingTab(trail);
  await tab.read(events);
  return { recording, events, store, trail, tab };
}

const orchestration = (trail: readonly AuditTrailRow[]): AuditOrchestration[] =>
  trail.filter((r): r is AuditOrchestration => r.kind !== "decision" && r.kind !== "interrupt");

const at = (s: number): string => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const plan1 = { goal: "Fix the parser", steps: ["Read parser.ts", "Fix the off-by-one"], version: 1 };
const plan2 = { goal: "Fix the parser", steps: ["Write a failing test", "Fix the off-by-one"], version: 2 };

/** What Baton's orchestration emits into the tab while the coder runs (the lead's events). */
const chain: readonly ClientEvent[][] = [
  [{ kind: "phase_changed", agentToolUseId: CoderCall, phase: "clarifying", at: at(2) }],
  [{ kind: "escalation_opened", id: "toolu_ask_1", agentToolUseId: CoderCall, at: at(3), question: "Which parser, JSON or YAML?", routedTo: "conductor", routeReason: "the conductor's turn has ended" }],
  [{ kind: "escalation_routed", id: "toolu_ask_1", agentToolUseId: CoderCall, routedTo: "person", reason: "no answer in 120 s" }],
  [{ kind: "escalation_settled", id: "toolu_ask_1", agentToolUseId: CoderCall, at: at(5), outcome: "answered", reply: "JSON", by: "person", answeredBy: "person" }],
  [{ kind: "phase_changed", agentToolUseId: CoderCall, phase: "review", at: at(6) }],
  [{ kind: "escalation_opened", id: "toolu_plan_1", agentToolUseId: CoderCall, at: at(6), plan: plan1, routedTo: "person", routeReason: "foreground agent: the conductor waits on it" }],
  [{ kind: "escalation_settled", id: "toolu_plan_1", agentToolUseId: CoderCall, at: at(8), outcome: "rejected", reply: "Write the failing test first", by: "person", answeredBy: "person" }],
  [{ kind: "escalation_opened", id: "toolu_plan_2", agentToolUseId: CoderCall, at: at(9), plan: plan2, routedTo: "person", routeReason: "foreground agent: the conductor waits on it" }],
  [
    { kind: "escalation_settled", id: "toolu_plan_2", agentToolUseId: CoderCall, at: at(10), outcome: "approved", approvedPlan: "Goal: Fix the parser\n\n1. Write a failing test\n2. Fix it", by: "person", answeredBy: "person" },
    { kind: "phase_changed", agentToolUseId: CoderCall, phase: "executing", at: at(10) },
  ],
  // A question Baton had to fail: the turn was interrupted before anyone answered.
  [{ kind: "escalation_opened", id: "toolu_ask_2", agentToolUseId: CoderCall, at: at(20), question: "May I also touch the lexer?", routedTo: "conductor", routeReason: "background agent" }],
  [{ kind: "escalation_settled", id: "toolu_ask_2", agentToolUseId: CoderCall, at: at(21), outcome: "failed", reply: "the session was interrupted", by: "baton", answeredBy: "baton" }],
];

/** Plays the dag session live: its lines as the stream gave them, the task events, and the chain while the coder runs. */
async function playLive(store: StoreService, errors: string[]) {
  const trail = trailOver(store, errors);
  const tab = recordingTab(trail, DagSessionId);
  const [prompt, spawn, result, last] = dagLineEvents() as [ClientEvent[], ClientEvent[], ClientEvent[], ClientEvent[]];
  const task: ClientEvent = { kind: "task_started", taskId: "a0123456789abcdef", toolUseId: CoderCall, description: "Fix the parser", subagentType: "coder", taskType: "local_agent" };
  const reads: ClientEvent[][] = [
    prompt,
    spawn,
    [task],
    [{ kind: "task_progress", taskId: "a0123456789abcdef", toolUseId: CoderCall, description: "Reading" }],
    ...chain,
    [{ kind: "task_notification", taskId: "a0123456789abcdef", toolUseId: CoderCall, status: "completed", summary: "Fixed" }],
    result,
    [{ kind: "phase_changed", agentToolUseId: CoderCall, phase: "completed", at: at(60) }],
    last,
    [{ kind: "turn_result", subtype: "success", isError: false }],
  ];
  for (const read of reads) await tab.read(read);
  await trail.flush();
  return { live: tab.session.transcript, events: reads.flat() };
}

describe("the session DAG in the audit trail", () => {
  it("records the spawn, each status change once, and every question, plan, route, answer, review and phase, in order", async () => {
    const { store } = openStore(tempDir());
    const errors: string[] = [];
    await playLive(store, errors);
    expect(errors).toEqual([]);
    const rows = orchestration(store.readAudit(DagSessionId).trail);
    expect(rows.map((r) => r.kind)).toEqual([
      "spawn", "status", "phase", "question", "route", "answer", "phase", "plan", "review", "plan", "review", "phase", "question", "answer", "status", "phase",
    ]);
    // Every row is linked to the session and the coder's record; its agent id once known.
    expect(rows.every((r) => r.sessionId === DagSessionId && r.agentToolUseId === CoderCall)).toBe(true);
    expect(rows.slice(1).every((r) => r.agentId === "a0123456789abcdef")).toBe(true);
    expect(rows[0]).toEqual({ kind: "spawn", sessionId: DagSessionId, time: expect.any(String) as string, agentToolUseId: CoderCall, subagentType: "coder", description: "Fix the parser", background: false });
    expect(rows.filter((r) => r.kind === "status").map((r) => r.kind === "status" && r.status)).toEqual(["running", "completed"]);
    expect(rows.filter((r) => r.kind === "phase").map((r) => r.kind === "phase" && [r.phase, r.time])).toEqual([
      ["clarifying", at(2)], ["review", at(6)], ["executing", at(10)], ["completed", at(60)],
    ]);
    expect(rows[3]).toMatchObject({ kind: "question", toolUseId: "toolu_ask_1", question: "Which parser, JSON or YAML?", routedTo: "conductor", reason: "the conductor's turn has ended", time: at(3) });
    expect(rows[4]).toMatchObject({ kind: "route", toolUseId: "toolu_ask_1", routedTo: "person", reason: "no answer in 120 s" });
    expect(rows[5]).toMatchObject({ kind: "answer", toolUseId: "toolu_ask_1", outcome: "answered", reply: "JSON", by: "person", answeredBy: "person", time: at(5) });
    expect(rows[7]).toMatchObject({ kind: "plan", toolUseId: "toolu_plan_1", plan: plan1, routedTo: "person" });
    expect(rows[8]).toMatchObject({ kind: "review", toolUseId: "toolu_plan_1", outcome: "rejected", reply: "Write the failing test first", by: "person" });
    expect(rows[9]).toMatchObject({ kind: "plan", toolUseId: "toolu_plan_2", plan: plan2 });
    expect(rows[10]).toMatchObject({ kind: "review", outcome: "approved", approvedPlan: "Goal: Fix the parser\n\n1. Write a failing test\n2. Fix it", by: "person" });
    // A failed question is still a question's answer, not a review.
    expect(rows[13]).toMatchObject({ kind: "answer", toolUseId: "toolu_ask_2", outcome: "failed", reply: "the session was interrupted", by: "baton", answeredBy: "baton" });
  });

  it("interleaves with the decisions in one trail", async () => {
    const { store } = openStore(tempDir());
    store.recordInterrupt({ sessionId: DagSessionId, time: at(0) });
    await playLive(store, []);
    store.recordPermission({ sessionId: DagSessionId, requestId: "req-1", toolUseId: "toolu_w", toolName: "Write", decision: "allow", decidedBy: "user", time: at(70) });
    const kinds = store.readAudit(DagSessionId).trail.map((r) => r.kind);
    expect(kinds[0]).toBe("interrupt");
    expect(kinds[1]).toBe("spawn");
    expect(kinds.at(-1)).toBe("decision");
  });

  it("spawns and status changes of a recording: one spawn per Agent call with its parent, and only changes of status", async () => {
    const recording = needRecording("parallel-subagents");
    const events = recordingEvents(readJsonlLines(recording.streamFiles[0] as string));
    const { store } = openStore(tempDir());
    const trail = trailOver(store, []);
    const tab = recordingTab(trail);
    // One event per read: the most checks the trail can be asked for.
    for (const event of events) await tab.read([event]);
    await trail.flush();
    const live = tab.session.transcript;
    const rows = orchestration(store.readAudit(live.sessionId).trail);
    const calls = live.blocks.flatMap((b) => (b.call?.subagent !== undefined ? [b.call] : []));
    const agents = calls.map((c) => c.subagent!);
    expect(agents.length).toBeGreaterThan(1);
    const spawns = rows.filter((r) => r.kind === "spawn");
    expect(spawns.map((r) => r.agentToolUseId).sort()).toEqual(agents.map((a) => a.toolUseId).sort());
    for (const [i, a] of agents.entries()) {
      // Background or not as the call asked (a CLI may move a foreground agent to the background later).
      const background = calls[i]!.input["run_in_background"] === true;
      expect(spawns.find((r) => r.agentToolUseId === a.toolUseId)).toMatchObject({ subagentType: a.subagentType, background });
      expect(spawns.find((r) => r.agentToolUseId === a.toolUseId)).not.toHaveProperty("parentToolUseId");
      const statuses = rows.flatMap((r) => (r.kind === "status" && r.agentToolUseId === a.toolUseId ? [r.status] : []));
      expect(statuses).toEqual(["running", a.status]);
      expect(rows.find((r) => r.kind === "status" && r.agentToolUseId === a.toolUseId)?.agentId).toBe(a.taskId);
    }
  });

  it("a nested agent's spawn names its caller's Agent call", async () => {
    const { store, trail, tab } = await nestedTab();
    await trail.flush();
    const live = tab.session.transcript;
    const spawns = orchestration(store.readAudit(live.sessionId).trail).filter((r) => r.kind === "spawn");
    const top = live.blocks.flatMap((b) => (b.call?.subagent !== undefined ? [b.call.subagent] : []));
    const nested = top.flatMap((t) => t.blocks.flatMap((b) => (b.call?.subagent !== undefined ? [[t.toolUseId, b.call.subagent] as const] : [])));
    expect(nested.length).toBeGreaterThan(0);
    for (const [parent, child] of nested) expect(spawns.find((r) => r.agentToolUseId === child.toolUseId)).toMatchObject({ parentToolUseId: parent });
    for (const t of top) expect(spawns.find((r) => r.agentToolUseId === t.toolUseId)).not.toHaveProperty("parentToolUseId");
  });
});

describe("baton audit with the session DAG", () => {
  it("prints each row on one line, in order with the decisions, readable: time, agent, kind, a digest", async () => {
    const { store, dbPath } = openStore(tempDir());
    await playLive(store, []);
    store.close();
    const io = bufferIO();
    expect(await auditRun([DagSessionId, "--db", dbPath], io)).toBe(0);
    expect(io.err()).toBe("");
    const lines = io.out().trimEnd().split("\n");
    const cells = lines.slice(1).map((l) => l.split(/ {2,}/));
    expect(cells).toHaveLength(16);
    const agent = "a0123456789abcdef/coder";
    // The agent is named by its id wherever the trail learnt it, its spawn's row too.
    expect(cells[0]).toEqual([expect.any(String), agent, "Agent", "coder: Fix the parser", "spawn", "by conductor", "foreground"]);
    expect(cells[1]).toEqual([expect.any(String), agent, "-", "running", "status", "-"]);
    expect(cells[3]).toEqual([at(3), agent, "ask_conductor", "Which parser, JSON or YAML?", "question", "to conductor", "the conductor's turn has ended"]);
    expect(cells[4]).toEqual([expect.any(String), agent, "ask_conductor", "-", "route", "to person", "no answer in 120 s"]);
    expect(cells[5]).toEqual([at(5), agent, "ask_conductor", "answered", "answer", "by person", "JSON"]);
    expect(cells[7]).toEqual([at(6), agent, "submit_plan", "v1: Fix the parser (2 steps)", "plan", "to person", "foreground agent: the conductor waits on it"]);
    expect(cells[8]).toEqual([at(8), agent, "submit_plan", "rejected", "review", "by person", "Write the failing test first"]);
    expect(cells[10]).toEqual([at(10), agent, "submit_plan", "approved with edits", "review", "by person", "edited plan: Goal: Fix the parser⏎⏎1. Write a failing test⏎2. Fix it"]);
    expect(cells[11]).toEqual([at(10), agent, "-", "executing", "phase", "-"]);
    expect(cells[13]).toEqual([at(21), agent, "ask_conductor", "failed", "answer", "by baton", "the session was interrupted"]);
  });

  it("--json gives the rows as recorded", async () => {
    const { store, dbPath } = openStore(tempDir());
    await playLive(store, []);
    const expected = store.readAudit(DagSessionId).trail;
    store.close();
    const io = bufferIO();
    expect(await auditRun([DagSessionId, "--db", dbPath, "--json"], io)).toBe(0);
    expect(JSON.parse(io.out())).toEqual(JSON.parse(JSON.stringify(expected)));
  });
});

describe("a restored session shows its escalation chain as live", () => {
  it("the coder's record restores with the live escalations and phase, from the trail", async () => {
    const dir = tempDir();
    const { store } = openStore(dir);
    const { live, events } = await playLive(store, []);
    const file = writeDagSession(path.join(dir, "projects"));
    const audit = store.readAudit(DagSessionId);
    const liveRecord = recordOf(live, CoderCall);
    expect(liveRecord?.phase).toBe("completed");
    expect(liveRecord?.escalations).toHaveLength(4);
    // The live tab's record is the hub's for those events.
    expect(recordOf(modelOf(events).transcript(), CoderCall)?.escalations).toEqual(liveRecord?.escalations);

    const restored = recordOf((await restoreSession(file, { audit })).transcript, CoderCall);
    expect(restored?.escalations).toEqual(liveRecord?.escalations);
    expect(restored?.phase).toEqual(liveRecord?.phase);
    const first = recordOf((await restoreFirstScreen(file, { audit })).transcript, CoderCall);
    expect({ escalations: first?.escalations, phase: first?.phase }).toEqual({ escalations: liveRecord?.escalations, phase: liveRecord?.phase });

    // Without the trail, the disk alone has none of it.
    const plain = recordOf((await restoreSession(file)).transcript, CoderCall);
    expect(plain?.escalations).toBeUndefined();
    expect(plain?.phase).toBeUndefined();
  });

  it("an open question at the end restores open, waiting on whom it waited on", async () => {
    const dir = tempDir();
    const { store } = openStore(dir);
    const trail = trailOver(store, []);
    const tab = recordingTab(trail, DagSessionId);
    const [prompt, spawn] = dagLineEvents() as [ClientEvent[], ClientEvent[]];
    for (const read of [prompt, spawn, ...chain.slice(0, 3)]) await tab.read(read);
    await trail.flush();
    const liveRecord = recordOf(tab.session.transcript, CoderCall);
    expect(liveRecord?.escalations?.[0]).toMatchObject({ state: "open", routedTo: "person", routeReason: "no answer in 120 s" });
    const file = writeDagSession(path.join(dir, "projects"));
    const restored = recordOf((await restoreSession(file, { audit: store.readAudit(DagSessionId) })).transcript, CoderCall);
    expect(restored?.escalations).toEqual(liveRecord?.escalations);
    expect(restored?.phase).toBe("clarifying");
  });

  it("a nested agent's chain restores onto its record once its caller's sidechain is read, as live", async () => {
    const { recording, events, store, trail, tab } = await nestedTab();
    const sessionId = tab.session.transcript.sessionId;
    const file = mainTranscriptFiles(recording).find((f) => path.basename(f, ".jsonl") === sessionId);
    if (file === undefined) throw new Error(`no history file for session ${sessionId}`);
    const full = (await restoreSession(file, { loadSidechains: true })).transcript;
    const nested = full.blocks.flatMap((b) => b.call?.subagent?.blocks.flatMap((n) => (n.call?.subagent !== undefined ? [n.call.subagent] : [])) ?? [])[0];
    if (nested === undefined) throw new Error("nested-subagents has no nested agent");
    const call = nested.toolUseId;
    const nestedChain: ClientEvent[][] = [
      [{ kind: "phase_changed", agentToolUseId: call, phase: "review", at: at(1) }],
      [{ kind: "escalation_opened", id: "toolu_plan_n", agentToolUseId: call, at: at(2), plan: plan1, routedTo: "conductor", routeReason: "background agent" }],
      [{ kind: "escalation_settled", id: "toolu_plan_n", agentToolUseId: call, at: at(3), outcome: "approved", by: "conductor", answeredBy: "main" }],
      [{ kind: "phase_changed", agentToolUseId: call, phase: "executing", at: at(3) }],
    ];
    for (const read of nestedChain) await tab.read(read);
    await trail.flush();
    const live = modelOf([...events, ...nestedChain.flat()]).transcript();
    const restored = recordOf((await restoreSession(file, { loadSidechains: true, audit: store.readAudit(sessionId) })).transcript, call);
    const expected = { phase: "executing", escalations: [expect.objectContaining({ id: "toolu_plan_n", state: "approved", settledBy: "conductor", plan: plan1 })] };
    expect({ phase: restored?.phase, escalations: restored?.escalations }).toEqual(expected);
    // Live, the hub placed the nested record from its task_started and shows them there.
    const liveRecord = recordOf(live, call);
    expect(liveRecord).toBeDefined();
    expect({ phase: liveRecord?.phase, escalations: liveRecord?.escalations }).toEqual({ phase: restored?.phase, escalations: restored?.escalations });
  });
});
