// Restoring recorded sessions from their on-disk history (projects/), and checking that what the
// history shows contains everything the live stream showed: a past session goes into the same hub
// as a live one (docs/architecture.md "Data flow").

import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bufferIO } from "../../src/main/commands/commandIO.js";
import { run as exportRun } from "../../src/main/commands/export.js";
import { modelOf } from "../../src/main/hub/index.js";
import { recordingEvents } from "../../src/main/hub/recordingEvents.js";
import { loadSubagentBlocks } from "../../src/main/history/historySession.js";
import type { HistoryProblem } from "../../src/main/history/problems.js";
import { restoreSession } from "../../src/main/history/restore.js";
import { annotatedTranscript } from "../../src/main/history/sidechainPaths.js";
import { StoreService } from "../../src/main/store/storeService.js";
import type { SubagentRecord, ToolCallRecord, Transcript } from "../../src/shared/transcript.js";
import { MaxNestedBlocks } from "../../src/shared/transcript.js";
import { findRecording, listRecordings, mainTranscriptFiles, needRecording, readJsonlLines, warnIfNoRecordings } from "../support/recordings.js";
import { blockShapes, placedBlocks } from "../support/transcriptWalk.js";
import { tempDirs } from "../support/tempDirs.js";

const noRecordings = warnIfNoRecordings("historyRestore");
const tempDir = tempDirs("baton-history-", "all");

const mainFiles = mainTranscriptFiles;
const walk = placedBlocks;
const calls = (t: Transcript): ToolCallRecord[] => walk(t).flatMap((p) => (p.block.call === undefined ? [] : [p.block.call]));
const record = (t: Transcript, toolUseId: string): SubagentRecord | undefined => calls(t).find((c) => c.toolUseId === toolUseId)?.subagent;
const agentCalls = (t: Transcript): ToolCallRecord[] => calls(t).filter((c) => c.subagent !== undefined);

const need = needRecording;

describe.skipIf(noRecordings)("restoring recorded sessions", () => {
  const recordings = listRecordings().filter((r) => mainFiles(r).length > 0);

  it.each(recordings.map((r) => [r.name, r] as const))("%s: main file and every sidechain restore, subagents under their Agent call", async (_name, r) => {
    for (const file of mainFiles(r)) {
      const lazy = await restoreSession(file);
      expect(lazy.transcript.sessionId).toBe(path.basename(file, ".jsonl"));
      expect(lazy.transcript.status).toBe("idle");
      for (const call of agentCalls(lazy.transcript)) {
        // Lazy: no nested blocks until the card is opened.
        expect(call.subagent?.blocks).toEqual([]);
        expect(call.subagent?.status).not.toBe("running");
      }
      const eager = await restoreSession(file, { loadSidechains: true });
      expect(eager.problems.filter((p) => p.kind !== "bad_lines")).toEqual([]);
      for (const call of agentCalls(lazy.transcript)) {
        const loaded = record(eager.transcript, call.toolUseId);
        // A subagent stopped before it answered has a sidechain with nothing to show but its prompt.
        const sidechain = call.subagent?.sidechainPath;
        // (A Workflow's card names its run's folder: its agents are cards of their own.)
        const file = sidechain !== undefined && statSync(sidechain).isFile() ? sidechain : undefined;
        if (file !== undefined && readFileSync(file, "utf8").includes('"type":"assistant"')) expect(loaded?.blocks.length).toBeGreaterThan(0);
        expect(loaded?.sidechainPath).toBeUndefined();
      }
    }
  });

  it.skipIf(!findRecording("a-subagent"))("a: loads the subagent's thinking, text and Bash lazily, once", async () => {
    const { session, transcript } = await restoreSession(mainFiles(need("a-subagent"))[0]!);
    const before = record(transcript, "toolu_main_t0_1")!;
    expect(before).toMatchObject({ taskId: "a7073c239220a4f89", status: "completed", summaryMarkdown: "Sub finished: saw hello-from-sub.", blocks: [] });
    expect(before.sidechainPath).toMatch(/subagents\/agent-a7073c239220a4f89\.jsonl$/);
    const blocks = await loadSubagentBlocks(session, "toolu_main_t0_1");
    expect(blocks.map((b) => b.kind)).toEqual(["thinking", "text", "tool", "text"]);
    expect(blocks[2]?.call).toMatchObject({ name: "Bash", status: "completed", result: { text: "hello-from-sub" } });
    const after = record(annotatedTranscript(session), "toolu_main_t0_1")!;
    expect(after.blocks.map((b) => b.id)).toEqual(blocks.map((b) => b.id));
    expect(after.sidechainPath).toBeUndefined();
    expect(await loadSubagentBlocks(session, "toolu_main_t0_1")).toBe(blocks);
    // Nothing from the sidechain reached the top level.
    expect(annotatedTranscript(session).blocks.map((b) => b.kind)).toEqual(["user", "text", "tool", "text"]);
  });

  it("taskstop-background: the Bash that TaskStop cut restores as stopped, in the card's loaded steps too, as it was live", async () => {
    const recording = need("taskstop-background");
    const { session } = await restoreSession(mainFiles(recording)[0]!);
    const blocks = await loadSubagentBlocks(session, "toolu_main_t0_0");
    const bash = blocks.find((b) => b.call?.name === "Bash")?.call;
    expect(bash?.status).toBe("stopped");
    expect(record(annotatedTranscript(session), "toolu_main_t0_0")?.blocks.find((b) => b.call?.name === "Bash")?.call?.status).toBe("stopped");
    // Live, the same call ended the same way.
    const live = modelOf(recordingEvents(readJsonlLines(recording.streamFiles[0]!)));
    expect(live.findToolCall(bash!.toolUseId)?.status).toBe("stopped");
  });

  it("workflow: the Workflow card offers its run, whose agents load as cards with their own steps, labels and totals", async () => {
    const { session, transcript } = await restoreSession(mainFiles(need("workflow"))[0]!);
    const card = record(transcript, "toolu_main_t0_0")!;
    expect(card).toMatchObject({ subagentType: "workflow", description: "Two agents in parallel", status: "completed", background: true, blocks: [] });
    expect(card.sidechainPath).toMatch(/subagents\/workflows\/wf_[\w-]+$/);
    const blocks = await loadSubagentBlocks(session, "toolu_main_t0_0");
    const agents = blocks.map((b) => b.call?.subagent);
    expect(agents.map((a) => [a?.description, a?.subagentType, a?.status])).toEqual([
      ["Reader one", "workflow-subagent", "completed"],
      ["Reader two", "workflow-subagent", "completed"],
    ]);
    expect(agents[0]?.blocks.find((b) => b.kind === "tool")?.call).toMatchObject({ name: "Bash", status: "completed", result: { text: "part-one" } });
    expect(agents[1]).toMatchObject({ summaryMarkdown: "Part two read.", totalTokens: 101, toolUses: 0, prompt: "[[SUB-B]] read part two" });
    // The same cards in the session's state (what export prints), nothing at the top level.
    expect(record(annotatedTranscript(session), "toolu_main_t0_0")?.blocks.map((b) => b.id)).toEqual(blocks.map((b) => b.id));
    expect(annotatedTranscript(session).blocks.filter((b) => b.call?.subagent !== undefined)).toHaveLength(1);
  });

  it.skipIf(!findRecording("e-nested-agents"))("e: the depth-2 agent sits under its parent's card, loadable directly", async () => {
    const { session } = await restoreSession(mainFiles(need("e-nested-agents"))[0]!);
    // Ask for the inner agent first: its call lives in the outer sidechain, which is read on the way.
    const inner = await loadSubagentBlocks(session, "toolu_subA_t0_1");
    expect(inner.map((b) => b.call?.name ?? b.kind)).toEqual(["Bash", "text"]);
    const t = annotatedTranscript(session);
    const placed = walk(t);
    expect(placed.find((p) => p.block.id === "toolu_subA_t0_1")?.owner).toBe("toolu_main_t0_0");
    expect(placed.find((p) => p.block.id === "toolu_subB_t0_0")?.owner).toBe("toolu_subA_t0_1");
    expect(record(t, "toolu_subA_t0_1")).toMatchObject({ status: "completed", spawnDepth: 2, taskId: "a592eba834fed5e8b" });
    expect(t.blocks.filter((b) => b.kind === "tool").map((b) => b.id)).toEqual(["toolu_main_t0_0"]);
  });

  it.skipIf(!findRecording("d1-background-agent"))("d1: the background agent completes from its task-notification, which is not a chat prompt", async () => {
    const { transcript } = await restoreSession(mainFiles(need("d1-background-agent"))[0]!, { loadSidechains: true });
    const r = record(transcript, "toolu_main_t0_1")!;
    expect(r).toMatchObject({ background: true, status: "completed", taskId: "afcaf63a0bb3495bd", summaryMarkdown: "Background work complete: bg-done.", totalTokens: 103 });
    expect(r.blocks.some((b) => b.call?.name === "Bash")).toBe(true);
    expect(walk(transcript).some((p) => p.block.text?.includes("<task-notification>") === true)).toBe(false);
    expect(transcript.blocks.filter((b) => b.kind === "user")).toHaveLength(1);
  });

  it.skipIf(!findRecording("i1-interrupt-subagent"))("i1: the interrupted subagent is stopped, and nothing inside it still runs", async () => {
    const { transcript } = await restoreSession(mainFiles(need("i1-interrupt-subagent"))[0]!, { loadSidechains: true });
    const [agent] = agentCalls(transcript);
    expect(agent?.subagent?.status).toBe("stopped");
    expect(agent?.subagent?.blocks.length).toBeGreaterThan(0);
    expect(calls(transcript).filter((c) => c.status === "running" || c.status === "pending")).toEqual([]);
    expect(transcript.blocks.some((b) => b.kind === "notice" && b.text?.startsWith("[Request interrupted") === true)).toBe(true);
  });

  it.skipIf(!findRecording("j-multiturn-resume"))("j: a resumed session keeps every turn; a fork finds its agent's sidechain in the original session", async () => {
    const files = mainFiles(need("j-multiturn-resume"));
    const restored = await Promise.all(files.map((f) => restoreSession(f, { loadSidechains: true })));
    const prompts = restored.map((r) => r.transcript.blocks.filter((b) => b.kind === "user").map((b) => b.text));
    const original = prompts.find((p) => p.length === 3);
    const fork = prompts.find((p) => p.length === 4);
    expect(original).toEqual(["first message", "second message, please delegate", "third message after resume"]);
    expect(fork?.slice(0, 3)).toEqual(original);
    for (const r of restored) {
      const [agent] = agentCalls(r.transcript);
      expect(agent?.subagent?.blocks.some((b) => b.call?.name === "Bash")).toBe(true);
    }
  });

  it.skipIf(!findRecording("l-misc-system-messages"))("l: a compacted session shows the boundary, keeps older turns, and hides the summary prompt", async () => {
    const { transcript } = await restoreSession(mainFiles(need("l-misc-system-messages"))[0]!);
    const notices = transcript.blocks.filter((b) => b.kind === "notice").map((b) => b.text ?? "");
    expect(notices.some((t) => t.startsWith("Conversation compacted, manual"))).toBe(true);
    const users = transcript.blocks.filter((b) => b.kind === "user").map((b) => b.text ?? "");
    expect(users.some((t) => t.startsWith("This session is being continued"))).toBe(false);
    const boundary = transcript.blocks.findIndex((b) => b.kind === "notice" && b.text?.startsWith("Conversation compacted") === true);
    expect(transcript.blocks.slice(0, boundary).some((b) => b.kind === "text" || b.kind === "tool")).toBe(true);
  });

  it.skipIf(!findRecording("a-subagent"))("a missing sidechain folder leaves the card with its summary, and no error", async () => {
    const dir = tempDir();
    cpSync(path.join(need("a-subagent").dir, "projects"), dir, { recursive: true });
    const file = findMain(dir);
    rmSync(file.replace(/\.jsonl$/, ""), { recursive: true, force: true });
    const { transcript, problems, session } = await restoreSession(file);
    const r = record(transcript, "toolu_main_t0_1")!;
    expect(r).toMatchObject({ status: "completed", summaryMarkdown: "Sub finished: saw hello-from-sub.", blocks: [] });
    expect(r.sidechainPath).toBeUndefined();
    expect(problems).toEqual([]);
    expect(await loadSubagentBlocks(session, "toolu_main_t0_1")).toEqual([]);
  });
});

function findMain(dir: string): string {
  for (const p of readdirSync(dir)) for (const f of readdirSync(path.join(dir, p))) if (f.endsWith(".jsonl")) return path.join(dir, p, f);
  throw new Error("no main file");
}

describe("a subagent with more blocks than a card keeps", () => {
  it("caps the record at MaxNestedBlocks with a dropped count, while loadSubagentBlocks returns all", async () => {
    const dir = path.join(tempDir(), "-home-user-code-big");
    const sessionId = "0b0b0b0b-1111-4222-8333-444444444444";
    const base = { sessionId, cwd: "/home/user/code/big", version: "2.1.197", timestamp: "2026-01-01T00:00:00.000Z" };
    const main = [
      { ...base, type: "user", uuid: "u0", parentUuid: null, isSidechain: false, message: { role: "user", content: "go" } },
      { ...base, type: "assistant", uuid: "a0", isSidechain: false, message: { id: "m0", role: "assistant", model: "m", content: [{ type: "tool_use", id: "toolu_big", name: "Agent", input: { prompt: "many", description: "Many steps", subagent_type: "general-purpose" } }] } },
      { ...base, type: "user", uuid: "u1", isSidechain: false, message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_big", content: [{ type: "text", text: "done" }] }] }, toolUseResult: { status: "completed", agentId: "abig0000000000000", content: [{ type: "text", text: "done" }] } },
    ];
    const side = [
      { ...base, type: "user", uuid: "s0", parentUuid: null, isSidechain: true, agentId: "abig0000000000000", message: { role: "user", content: "many" } },
      ...Array.from({ length: 200 }, (_, i) => ({ ...base, type: "assistant", uuid: `s${i + 1}`, isSidechain: true, agentId: "abig0000000000000", message: { id: `ms${i}`, role: "assistant", model: "m", content: [{ type: "text", text: `step ${i}` }] } })),
    ];
    mkdirSync(path.join(dir, sessionId, "subagents"), { recursive: true });
    writeFileSync(path.join(dir, `${sessionId}.jsonl`), main.map((l) => JSON.stringify(l)).join("\n") + "\n");
    writeFileSync(path.join(dir, sessionId, "subagents", "agent-abig0000000000000.jsonl"), side.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const { session, transcript } = await restoreSession(path.join(dir, `${sessionId}.jsonl`));
    expect(record(transcript, "toolu_big")?.sidechainPath).toContain("agent-abig0000000000000.jsonl");
    const blocks = await loadSubagentBlocks(session, "toolu_big");
    expect(blocks.map((b) => b.text)).toEqual(Array.from({ length: 200 }, (_, i) => `step ${i}`));
    const r = record(annotatedTranscript(session), "toolu_big")!;
    expect(r.blocks).toHaveLength(MaxNestedBlocks);
    expect(r.droppedBlockCount).toBe(200 - MaxNestedBlocks);
    expect(r.blocks.at(-1)?.text).toBe("step 199");
  });
});

// ---- live and restored agree --------------------------------------------------------------------

const shapes = (t: Transcript) => blockShapes(t);

/**
 * Statuses the disk alone cannot tell apart (sessions Baton has no audit trail for, e.g. run in a
 * terminal). A permission denial is an ordinary error tool_result on disk (the denial list lives
 * only in the stream's `result`), and a subagent's call cut off by an interrupt has a "rejected"
 * result in its sidechain where the live stream showed none. With Baton's audit trail both restore
 * exactly (auditRestore.test.ts).
 */
function sameStatus(live: string | undefined, disk: string | undefined): boolean {
  if (live === disk) return true;
  if (live === "denied" && disk === "failed") return true;
  return live === "stopped" && disk === "denied";
}

describe.skipIf(noRecordings)("live and restored agree", () => {
  const cases = listRecordings().flatMap((r) => r.streamFiles.map((f) => [`${r.name}/${path.basename(f)}`, r, f] as const));

  it.each(cases)("%s: the restored transcript contains everything the live replay shows", async (_label, r, streamFile) => {
    const live = modelOf(recordingEvents(readJsonlLines(streamFile))).transcript();
    const file = mainFiles(r).find((f) => path.basename(f, ".jsonl") === live.sessionId);
    expect(file, `no history file for session ${live.sessionId}`).toBeDefined();
    const restored = (await restoreSession(file!, { loadSidechains: true })).transcript;
    const L = shapes(live);
    const R = shapes(restored);
    const mismatches: string[] = [];
    for (const [id, l] of L) {
      const d = R.get(id);
      if (d === undefined) {
        mismatches.push(`${id}: ${l.kind} in ${l.owner} missing from history`);
        continue;
      }
      if (d.kind !== l.kind || d.owner !== l.owner || d.name !== l.name) mismatches.push(`${id}: live ${JSON.stringify(l)} vs disk ${JSON.stringify(d)}`);
      if (!sameStatus(l.status, d.status) || l.subagent !== d.subagent) mismatches.push(`${id}: status live ${l.status}/${l.subagent} vs disk ${d.status}/${d.subagent}`);
    }
    expect(mismatches).toEqual([]);
    // The disk holds at least as much: prompts, foreground subagent text, depth-2 agents.
    expect(R.size).toBeGreaterThanOrEqual([...L.keys()].length);
    const liveTop = live.blocks.filter((b) => b.kind !== "notice").map((b) => b.id);
    const diskTop = restored.blocks.map((b) => b.id);
    expect(diskTop.filter((id) => liveTop.includes(id))).toEqual(liveTop);
  });
});

// ---- a subagent whose meta.json outlived its transcript -----------------------------------------

/** A recording's projects tree with every sidechain `.jsonl` deleted and its `.meta.json` kept. */
function metaWithoutTranscripts(name: string): string {
  const dir = tempDir();
  cpSync(path.join(need(name).dir, "projects"), dir, { recursive: true });
  const metas: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const file = path.join(dir, entry);
    if (/\/subagents\/agent-[^/]+\.jsonl$/.test(file)) rmSync(file);
    if (file.endsWith(".meta.json")) metas.push(file);
  }
  expect(metas.length).toBeGreaterThan(0);
  return dir;
}

async function exportJson(sessionId: string, projectsDir: string): Promise<{ code: number; err: string; transcript: Transcript; problems: HistoryProblem[] }> {
  const io = bufferIO();
  const code = await exportRun([sessionId, "--projects-dir", projectsDir, "--db", path.join(tempDir(), "history.db"), "--json"], io);
  return { code, err: io.err(), ...(JSON.parse(io.out()) as { transcript: Transcript; problems: HistoryProblem[] }) };
}

describe.skipIf(noRecordings)("a subagent whose meta.json is there but whose transcript is gone", () => {
  it.skipIf(!findRecording("a-subagent"))("keeps the card's summary from the main file in restore, export and the index, with no error", async () => {
    const dir = metaWithoutTranscripts("a-subagent");
    const file = findMain(dir);
    const sessionId = path.basename(file, ".jsonl");
    const summary = { status: "completed", summaryMarkdown: "Sub finished: saw hello-from-sub.", blocks: [] };

    const { transcript, problems, session } = await restoreSession(file);
    expect(record(transcript, "toolu_main_t0_1")).toMatchObject(summary);
    // No path: the card must not offer to open a transcript that is not there.
    expect(record(transcript, "toolu_main_t0_1")?.sidechainPath).toBeUndefined();
    expect(await loadSubagentBlocks(session, "toolu_main_t0_1")).toEqual([]);
    expect([...problems, ...session.problems]).toEqual([]);

    const exported = await exportJson(sessionId, dir);
    expect(exported).toMatchObject({ code: 0, err: "", problems: [] });
    expect(record(exported.transcript, "toolu_main_t0_1")).toMatchObject(summary);

    const store = new StoreService({ dbPath: path.join(tempDir(), "history.db") });
    try {
      expect(await store.index(dir)).toMatchObject({ sessionsTotal: 1, badLines: 0 });
      const hits = store.search('"Sub finished"');
      expect(hits.map((h) => ({ sessionId: h.sessionId, subagent: h.subagent, kind: h.kind }))).toEqual([{ sessionId, subagent: null, kind: "tool_output" }]);
    } finally {
      store.close();
    }
  });

  it.skipIf(!findRecording("j-multiturn-resume"))("a fork does not link the original session's meta.json to a transcript that is gone", async () => {
    const dir = metaWithoutTranscripts("j-multiturn-resume");
    const projectDir = path.join(dir, readdirSync(dir)[0]!);
    const mains = readdirSync(projectDir).filter((f) => f.endsWith(".jsonl"));
    expect(mains).toHaveLength(2);
    for (const name of mains) {
      const lazy = await restoreSession(path.join(projectDir, name));
      expect(record(lazy.transcript, "toolu_main_t1_0")).toMatchObject({ status: "completed", summaryMarkdown: "Sub done.", blocks: [] });
      expect(record(lazy.transcript, "toolu_main_t1_0")?.sidechainPath).toBeUndefined();
      const exported = await exportJson(path.basename(name, ".jsonl"), dir);
      expect(exported).toMatchObject({ code: 0, err: "", problems: [] });
      expect(record(exported.transcript, "toolu_main_t1_0")).toMatchObject({ summaryMarkdown: "Sub done.", blocks: [] });
    }
  });
});
