// Issue 4, "Live and restored agree", with Baton's audit trail: for every recording, the decisions
// Baton made (the control_responses on its stdin) and the interrupts it sent are written to a real
// SQLite store, read back, and applied to the restore. The restored transcript must then show
// every block of the live replay with the same status and permission state — without the two
// tolerances historyRestore.test.ts needs when no trail exists (denied → failed, stopped → denied).

import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { PermissionRequestEvent } from "../../src/shared/events.js";
import type { Transcript } from "../../src/shared/transcript.js";
import { modelOf } from "../../src/main/hub/index.js";
import { readStdinRecording, recordingEvents } from "../../src/main/hub/recordingEvents.js";
import { restoreFirstScreen } from "../../src/main/history/firstScreen.js";
import { restoreSession } from "../../src/main/history/restore.js";
import type { AuditPermission, SessionAudit } from "../../src/main/audit/audit.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { findRecording, listRecordings, mainTranscriptFiles, needRecording, readJsonlLines, warnIfNoRecordings, type Recording } from "../support/recordings.js";
import { blockShapes } from "../support/transcriptWalk.js";
import { tempDirs } from "../support/tempDirs.js";

const noRecordings = warnIfNoRecordings("auditRestore");
const tempDir = tempDirs("baton-audit-restore-", "all");
const tempDb = (): string => path.join(tempDir(), "baton.db");

const mainFiles = mainTranscriptFiles;

/** stdin file of the same run as `streamFile` (stream.run2.jsonl ↔ stdin.run2.jsonl). */
function stdinOf(r: Recording, streamFile: string): string | undefined {
  const name = path.basename(streamFile).replace(/^stream/, "stdin");
  return r.stdinFiles.find((f) => path.basename(f) === name);
}

/** What Baton would have written while running this recording: one row per answer, per interrupt. */
function recordedAudit(r: Recording, streamFile: string, sessionId: string): { permissions: AuditPermission[]; interruptTimes: string[] } {
  const stdinFile = stdinOf(r, streamFile);
  if (stdinFile === undefined) return { permissions: [], interruptTimes: [] };
  const stdinLines = readJsonlLines(stdinFile);
  const answers = readStdinRecording(stdinLines).answers;
  const events = recordingEvents(readJsonlLines(streamFile));
  const requests = events.filter((e): e is PermissionRequestEvent => e.kind === "permission_request");
  // The CLI withdrew these (control_cancel_request): Baton records them as cancelled.
  const withdrawn = new Set(events.flatMap((e) => (e.kind === "permission_cancelled" ? [e.requestId] : [])));
  const permissions = requests.flatMap((q): AuditPermission[] => {
    const a = answers.get(q.requestId);
    if (a === undefined && withdrawn.has(q.requestId)) {
      const base = { sessionId, requestId: q.requestId, toolUseId: q.toolUseId, toolName: q.toolName, time: new Date().toISOString() };
      return [{ ...base, ...(q.agentId !== undefined ? { agentId: q.agentId } : {}), decision: "cancelled" } satisfies AuditPermission];
    }
    if (a === undefined) return [];
    return [{
      sessionId,
      requestId: q.requestId,
      toolUseId: q.toolUseId,
      toolName: q.toolName,
      ...(q.agentId !== undefined ? { agentId: q.agentId } : {}),
      decision: a.behavior,
      decidedBy: a.decidedBy,
      ...(a.message !== undefined ? { message: a.message } : {}),
      time: new Date().toISOString(),
    } satisfies AuditPermission];
  });
  const interruptIds = stdinLines
    .map((l) => JSON.parse(l.text) as { type?: string; request_id?: string; request?: { subtype?: string } })
    .filter((m) => m.type === "control_request" && m.request?.subtype === "interrupt")
    .map((m) => m.request_id);
  return { permissions, interruptTimes: interruptIds.length === 0 ? [] : interruptTimes(r, streamFile, interruptIds) };
}

/**
 * When each interrupt was written to stdin, on the wall clock: events.jsonl times lines in ms from
 * the run's start, and a stdout line that carries its own timestamp anchors that clock. Recordings
 * without events.jsonl (fixtures) use the newest timestamp streamed before the interrupt's answer:
 * no later than the send, and inside the turn it cut.
 */
function interruptTimes(r: Recording, streamFile: string, requestIds: readonly (string | undefined)[]): string[] {
  const eventsFile = path.join(r.dir, "events.jsonl");
  if (!existsSync(eventsFile)) return requestIds.map((id) => streamedBefore(streamFile, id));
  const events = readJsonlLines(eventsFile).map((l) => JSON.parse(l.text) as { t: number; dir: string; msg?: { timestamp?: string; request_id?: string } });
  const anchor = events.find((e) => e.dir === "out" && typeof e.msg?.timestamp === "string");
  if (anchor === undefined) throw new Error(`${r.name}: no timestamped stdout line to anchor the interrupt time`);
  const base = Date.parse(anchor.msg!.timestamp!) - anchor.t;
  return events.filter((e) => e.dir === "in" && requestIds.includes(e.msg?.request_id)).map((e) => new Date(base + e.t).toISOString());
}

function streamedBefore(streamFile: string, requestId: string | undefined): string {
  let latest: string | undefined;
  for (const { text } of readJsonlLines(streamFile)) {
    const m = JSON.parse(text) as { timestamp?: string; response?: { request_id?: string } };
    if (m.response?.request_id === requestId) break;
    if (typeof m.timestamp === "string") latest = m.timestamp;
  }
  if (latest === undefined) throw new Error(`no timestamped line before the answer to ${String(requestId)}`);
  return latest;
}

/** Writes the trail into a real SQLite store and reads it back, as the app does. */
function storedAudit(sessionId: string, permissions: readonly AuditPermission[], interruptTimes: readonly string[]): SessionAudit {
  const store = new StoreService({ dbPath: tempDb() });
  try {
    for (const p of permissions) store.recordPermission(p);
    for (const time of interruptTimes) store.recordInterrupt({ sessionId, time });
    return store.readAudit(sessionId);
  } finally {
    store.close();
  }
}

const shapes = (t: Transcript) => blockShapes(t, true);

function mismatches(live: Transcript, restored: Transcript): string[] {
  const L = shapes(live);
  const R = shapes(restored);
  return [...L].filter(([id, l]) => JSON.stringify(R.get(id)) !== JSON.stringify(l)).map(([id, l]) => `${id}: live ${JSON.stringify(l)} vs restored ${JSON.stringify(R.get(id))}`);
}

interface Case {
  readonly live: Transcript;
  readonly file: string;
  readonly audit: SessionAudit;
}
function prepare(r: Recording, streamFile: string): Case {
  const stdinFile = stdinOf(r, streamFile);
  // Only the answers: prompts from stdin would be blocks with made-up ids the disk cannot have.
  const stdin = stdinFile === undefined ? undefined : { ...readStdinRecording(readJsonlLines(stdinFile)), prompts: [] };
  const live = modelOf(recordingEvents(readJsonlLines(streamFile), stdin)).transcript();
  const file = mainFiles(r).find((f) => path.basename(f, ".jsonl") === live.sessionId);
  if (file === undefined) throw new Error(`no history file for session ${live.sessionId}`);
  const { permissions, interruptTimes } = recordedAudit(r, streamFile, live.sessionId);
  return { live, file, audit: storedAudit(live.sessionId, permissions, interruptTimes) };
}

const need = needRecording;

describe.skipIf(noRecordings)("live and restored agree, with Baton's audit trail", () => {
  const cases = listRecordings()
    .filter((r) => mainFiles(r).length > 0)
    .flatMap((r) => r.streamFiles.map((f) => [`${r.name}/${path.basename(f)}`, r, f] as const));

  it.each(cases)("%s: every live block restores with the same status and permission state", async (_label, r, streamFile) => {
    const { live, file, audit } = prepare(r, streamFile);
    const restored = (await restoreSession(file, { loadSidechains: true, audit })).transcript;
    expect(mismatches(live, restored)).toEqual([]);
  });

  it.skipIf(!findRecording("g1-permissions-stdio"))("g1: Baton's denials restore as denied, with who decided and why, for the main agent and a subagent", async () => {
    const { live, file, audit } = prepare(need("g1-permissions-stdio"), need("g1-permissions-stdio").streamFiles[0]!);
    expect(audit.permissions.map((p) => p.decision)).toEqual(["allow", "deny", "allow", "deny"]);
    const restored = (await restoreSession(file, { loadSidechains: true, audit })).transcript;
    const denied = [...shapes(restored)].filter(([, s]) => s.status === "denied");
    expect(denied.map(([id, s]) => [id, s.owner, s.permission?.replace(/^\S+ /, "")])).toEqual([
      ["toolu_main_t1_0", "top", "denied by recorded: Denied by harness"],
      ["toolu_subA_t1_0", "toolu_main_t2_0", "denied by recorded: Denied by harness"],
    ]);
    // Without the trail the disk alone says "failed": this is what the trail adds.
    const plain = (await restoreSession(file, { loadSidechains: true })).transcript;
    expect(mismatches(live, plain).length).toBeGreaterThan(0);
    expect(shapes(plain).get("toolu_main_t1_0")?.status).toBe("failed");
  });

  it.skipIf(!findRecording("i1-interrupt-subagent"))("i1: the subagent's call cut by Baton's interrupt restores as stopped, not denied", async () => {
    const { file, audit } = prepare(need("i1-interrupt-subagent"), need("i1-interrupt-subagent").streamFiles[0]!);
    expect(audit.interrupts).toHaveLength(1);
    const restored = (await restoreSession(file, { loadSidechains: true, audit })).transcript;
    expect(shapes(restored).get("toolu_subA_t0_1")).toMatchObject({ owner: "toolu_main_t0_0", status: "stopped" });
    const plain = (await restoreSession(file, { loadSidechains: true })).transcript;
    expect(shapes(plain).get("toolu_subA_t0_1")?.status).toBe("denied");
  });

  it.skipIf(!findRecording("i1-interrupt-subagent"))("i1: an interrupt recorded in another turn does not touch the rejection", async () => {
    const { file, audit } = prepare(need("i1-interrupt-subagent"), need("i1-interrupt-subagent").streamFiles[0]!);
    const sessionId = path.basename(file, ".jsonl");
    // After the next prompt ("are you still there?"): a later turn, not the one that was cut.
    const later = storedAudit(sessionId, [], ["2026-11-30T02:24:03.950Z"]);
    const restored = (await restoreSession(file, { loadSidechains: true, audit: later })).transcript;
    expect(shapes(restored).get("toolu_subA_t0_1")?.status).toBe("denied");
    // An interrupt after the rejection was written cannot have caused it either.
    const first = audit.interrupts[0]!;
    const after = storedAudit(sessionId, [], [new Date(Date.parse("2026-11-30T02:24:03.579Z") + 1).toISOString()]);
    expect(Date.parse(first.time)).toBeLessThanOrEqual(Date.parse("2026-11-30T02:24:03.579Z"));
    expect(shapes((await restoreSession(file, { loadSidechains: true, audit: after })).transcript).get("toolu_subA_t0_1")?.status).toBe("denied");
  });

  // 2.1.332 kills background agents on an interrupt and streams their cut calls' rejections (and
  // lists a withdrawn question in the turn's permission_denials): still the interrupt's, not a refusal.
  for (const [name, toolUseId] of [["interrupt-subagent", "toolu_SUB-A_t0_0"], ["interrupt-pending-permission", "toolu_SUB-A_t0_1"]] as const) {
    it.skipIf(!findRecording(name))(`${name}: the subagent's call the interrupt cut is stopped, live and restored`, async () => {
      const { live, file, audit } = prepare(need(name), need(name).streamFiles[0]!);
      expect(audit.interrupts).toHaveLength(1);
      const restored = (await restoreSession(file, { loadSidechains: true, audit })).transcript;
      for (const t of [live, restored]) expect(shapes(t).get(toolUseId)).toMatchObject({ owner: "toolu_main_t0_0", name: "Bash", status: "stopped" });
    });
  }

  it.skipIf(!findRecording("h2-plan-mode-exit"))("h2: the first screen applies the trail as the full restore does", async () => {
    const { live, file, audit } = prepare(need("h2-plan-mode-exit"), need("h2-plan-mode-exit").streamFiles[0]!);
    const first = await restoreFirstScreen(file, { audit });
    expect(first.complete).toBe(true);
    expect(mismatches(live, first.transcript)).toEqual([]);
    expect(shapes(first.transcript).get("toolu_main_t1_1")).toMatchObject({ status: "denied" });
  });
});
