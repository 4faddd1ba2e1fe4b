// A restored session's token shares (issue 37): after a restore, each subagent's file (nested
// agents and Workflow runs too) is read for its calls' usage only, so every card's record holds
// its file's calls and the session's total is what all its files record, while the steps stay
// unloaded; opening the cards later counts nothing twice; a closed tab stops the pass.

import { cpSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadAllSubagents, type HistorySession } from "../../src/main/history/historySession.js";
import { restoreSession } from "../../src/main/history/restore.js";
import { countSubagentUsage } from "../../src/main/history/subagentUsage.js";
import { createHistorySource } from "../../src/main/core/historySource.js";
import { tempDirs } from "../support/tempDirs.js";
import { EarlierBlocksNoticeId } from "../../src/main/history/firstScreen.js";
import { SessionWriter } from "./historyFirstScreenKit.js";
import type { Transcript } from "../../src/shared/transcript.js";
import { findRecording, mainTranscriptFiles, RECORDING_VERSIONS } from "../support/recordings.js";
import { recordOf } from "./hubTestKit.js";

/** Input, cache read and cache creation tokens of a history file's model calls, each message once (its blocks are lines of their own). */
function fileInputSide(file: string): number {
  const calls = new Map<string, number>();
  for (const text of readFileSync(file, "utf8").split("\n")) {
    if (text.trim() === "") continue;
    const line = JSON.parse(text) as { type?: string; isApiErrorMessage?: boolean; message?: { id?: string; model?: string; usage?: Record<string, number> } };
    const usage = line.message?.usage;
    if (line.type !== "assistant" || usage === undefined || line.isApiErrorMessage === true || line.message?.model === "<synthetic>") continue;
    calls.set(line.message!.id!, (usage["input_tokens"] ?? 0) + (usage["cache_read_input_tokens"] ?? 0) + (usage["cache_creation_input_tokens"] ?? 0));
  }
  return [...calls.values()].reduce((a, b) => a + b, 0);
}

/** Every agent with a file of its own: its Agent call id and the file. */
function agentFiles(session: HistorySession): Array<[string, string]> {
  const files: Array<[string, string]> = [...session.links].map(([id, file]) => [id, file.path]);
  for (const [callId, runDir] of session.workflows) {
    for (const name of readdirSync(runDir)) {
      const agent = /^agent-(\w+)\.jsonl$/.exec(name)?.[1];
      if (agent !== undefined) files.push([`${callId}/${agent}`, path.join(runDir, name)]);
    }
  }
  return files;
}

async function restored(name: string, version: (typeof RECORDING_VERSIONS)[number]): Promise<HistorySession> {
  const file = mainTranscriptFiles(findRecording(name, version)!)[0]!;
  const { session } = await restoreSession(file);
  return session;
}

describe.each(RECORDING_VERSIONS)("the usage pass after a restore (CLI %s)", (version) => {
  it.skipIf(findRecording("nested-subagents", version) === undefined)("nested agents: each card holds its own file's calls, the total every file's, no steps loaded", async () => {
    const session = await restored("nested-subagents", version);
    // Until every subagent file is counted, the session has no total.
    const counting = countSubagentUsage(session, new AbortController().signal);
    expect(session.model.transcript().sessionInputTokens).toBeUndefined();
    await counting;
    const counted: Transcript = session.model.transcript();
    // Still lazy: no card's steps were read into the model.
    expect(session.loaded.size).toBe(0);
    const files = agentFiles(session);
    expect(files.length).toBeGreaterThanOrEqual(2);
    expect(files.every(([, file]) => fileInputSide(file) > 0)).toBe(true);
    const total = fileInputSide(session.path) + files.reduce((sum, [, file]) => sum + fileInputSide(file), 0);
    expect(counted.sessionInputTokens).toBe(total);
    const firstLevel = counted.blocks.filter((b) => b.call?.subagent !== undefined).map((b) => b.id);
    expect(firstLevel.length).toBeGreaterThan(0);
    for (const id of firstLevel) expect(recordOf(counted, id)?.inputTokens).toBe(fileInputSide(files.find(([agent]) => agent === id)![1]));

    // Opening every card (nested ones too) reads the same lines again: nothing counts twice, and
    // the nested cards, made only now, hold what the pass counted for them.
    await loadAllSubagents(session);
    const opened = session.model.transcript();
    expect(opened.sessionInputTokens).toBe(total);
    for (const [id, file] of files) expect(recordOf(opened, id)?.inputTokens, id).toBe(fileInputSide(file));
  });

  it.skipIf(findRecording("workflow", version) === undefined)("a Workflow run: its agents' calls count in the total and on their cards once opened", async () => {
    const session = await restored("workflow", version);
    session.model.setFilesUncounted(true);
    await countSubagentUsage(session, new AbortController().signal);
    const files = agentFiles(session);
    const total = fileInputSide(session.path) + files.reduce((sum, [, file]) => sum + fileInputSide(file), 0);
    expect(files.length).toBeGreaterThanOrEqual(2);
    expect(session.model.transcript().sessionInputTokens).toBe(total);
    await loadAllSubagents(session);
    const opened = session.model.transcript();
    expect(opened.sessionInputTokens).toBe(total);
    for (const [id, file] of files) expect(recordOf(opened, id)?.inputTokens, id).toBe(fileInputSide(file));
  });

  it.skipIf(findRecording("nested-subagents", version) === undefined)("a closed tab stops the pass: nothing more is read or counted", async () => {
    const session = await restored("nested-subagents", version);
    session.model.setFilesUncounted(true);
    const stop = new AbortController();
    stop.abort();
    await countSubagentUsage(session, stop.signal);
    const t = session.model.transcript();
    expect(t.sessionInputTokens).toBeUndefined();
    expect(t.blocks.filter((b) => b.call?.subagent !== undefined).every((b) => b.call?.subagent?.inputTokens === undefined)).toBe(true);
  });
});

describe("a followed session read again from its start (its file replaced)", () => {
  const tempDir = tempDirs("baton-subagent-usage-");
  it.skipIf(findRecording("nested-subagents") === undefined)("counts its subagents' files again into the new model", async () => {
    const recording = findRecording("nested-subagents")!;
    const projectsDir = tempDir();
    cpSync(path.join(recording.dir, "projects"), projectsDir, { recursive: true });
    const main = readdirSync(projectsDir).flatMap((folder) => readdirSync(path.join(projectsDir, folder)).filter((f) => f.endsWith(".jsonl")).map((f) => path.join(projectsDir, folder, f)))[0]!;
    const restored = await createHistorySource({ projectsDir }).restore(path.basename(main, ".jsonl"));
    await restored.usageCounted;
    const before = restored.transcript();
    const card = before.blocks.find((b) => b.call?.subagent !== undefined)!.id;
    expect(before.sessionInputTokens).toBeGreaterThan(0);
    expect(recordOf(before, card)?.inputTokens).toBeGreaterThan(0);

    const changes: Transcript[] = [];
    let settle: () => void = () => undefined;
    const again = new Promise<void>((resolve) => (settle = resolve));
    restored.follow!(
      () => {
        const t = restored.transcript();
        changes.push(t);
        if (changes.length > 1 && t.sessionInputTokens === before.sessionInputTokens && recordOf(t, card)?.inputTokens === recordOf(before, card)?.inputTokens) settle();
      },
      (error) => {
        throw error;
      },
    );
    // Replaced by a copy of itself: read again from its start into a new model.
    writeFileSync(`${main}.new`, readFileSync(main));
    renameSync(`${main}.new`, main);
    await again;
    restored.close?.();
    // Read again: right after the reset the total waited for the new count.
    expect(changes[0]?.sessionInputTokens).toBeUndefined();
  }, 20_000);
});

describe("a restored tab closed while its subagents' files are counted", () => {
  const tempDir = tempDirs("baton-subagent-usage-closed-");
  it.skipIf(findRecording("nested-subagents") === undefined)("stops the pass: no card and no total is counted after the close", async () => {
    const projectsDir = tempDir();
    cpSync(path.join(findRecording("nested-subagents")!.dir, "projects"), projectsDir, { recursive: true });
    const main = readdirSync(projectsDir).flatMap((folder) => readdirSync(path.join(projectsDir, folder)).filter((f) => f.endsWith(".jsonl")).map((f) => path.join(projectsDir, folder, f)))[0]!;
    const restored = await createHistorySource({ projectsDir }).restore(path.basename(main, ".jsonl"));
    restored.close?.();
    await restored.usageCounted;
    const t = restored.transcript();
    expect(t.sessionInputTokens).toBeUndefined();
    expect(t.blocks.filter((b) => b.call?.subagent !== undefined).map((b) => b.call?.subagent?.inputTokens)).toEqual([undefined]);
  });
});

describe("a big session, opened on its newest blocks", () => {
  const tempDir = tempDirs("baton-subagent-usage-big-");
  it("shows no total on its first screen, then every file's once read whole and counted", async () => {
    const dir = tempDir();
    const w = new SessionWriter(path.join(dir, "-home-user-code-x"), "5e55f1e5-0000-4000-8000-0000000005a5");
    const agents: string[] = [];
    for (let turn = 0; turn < 40; turn++) {
      w.prompt(`Turn ${turn}`);
      // An agent early on (off the first screen) and one late: 7 + 3 input-side tokens each.
      if (turn === 2 || turn === 38) agents.push(w.agent(`Agent of turn ${turn} done.`, { usage: { input_tokens: 7, cache_read_input_tokens: 3, output_tokens: 1 } }).toolUseId);
      w.assistant({ type: "text", text: `Answer ${turn}.` }, { input_tokens: 10, output_tokens: 2 });
    }
    w.flush();
    const restored = await createHistorySource({ projectsDir: dir }).restore(w.sessionId);
    expect(restored.loaded).toBeDefined();
    const first = restored.transcript();
    expect(first.blocks[0]?.id).toBe(EarlierBlocksNoticeId);
    // The newest answers' calls are in the window, but they are not the session's total.
    expect(first.sessionInputTokens).toBeUndefined();
    await restored.usageCounted;
    const counted = restored.transcript();
    expect(counted.blocks[0]?.id).not.toBe(EarlierBlocksNoticeId);
    expect(counted.sessionInputTokens).toBe(40 * 10 + 2 * 10);
    for (const id of agents) expect(recordOf(counted, id)?.inputTokens).toBe(10);
    restored.close?.();
  });
});

describe("an old layout: a subagent's lines kept in the main file", () => {
  const tempDir = tempDirs("baton-subagent-usage-old-");
  it("counts them on its card and in the total, without loading them", async () => {
    const sessionId = "0ld1a40u-0000-4000-8000-000000000001";
    const dir = path.join(tempDir(), "-home-user-code-x");
    mkdirSync(dir, { recursive: true });
    const env = { sessionId, cwd: "/home/user/code/x", version: "2.0.0", isSidechain: false };
    const usage = (input: number) => ({ input_tokens: input, cache_creation_input_tokens: 5, output_tokens: 3 });
    const assistant = (uuid: string, parentUuid: string | null, id: string, content: unknown[], tokens: number, sidechain = false) => ({
      ...env,
      isSidechain: sidechain,
      type: "assistant",
      uuid,
      parentUuid,
      message: { id, role: "assistant", model: "claude-opus-4-8", content, usage: usage(tokens) },
    });
    const lines = [
      { ...env, type: "user", uuid: "p1", parentUuid: null, message: { role: "user", content: "look around" } },
      assistant("a1", "p1", "msg_main_1", [{ type: "tool_use", id: "toolu_T1", name: "Task", input: { prompt: "first job", description: "one", subagent_type: "general-purpose" } }], 15),
      { ...env, isSidechain: true, type: "user", uuid: "r1", parentUuid: null, message: { role: "user", content: "first job" } },
      assistant("r1b", "r1", "msg_side_1", [{ type: "text", text: "working on first" }], 20, true),
      assistant("r1c", "r1b", "msg_side_2", [{ type: "text", text: "first done" }], 30, true),
      { ...env, type: "user", uuid: "t1", parentUuid: "a1", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_T1", content: "first done" }] } },
      assistant("a2", "t1", "msg_main_2", [{ type: "text", text: "All looked." }], 25),
    ];
    writeFileSync(path.join(dir, `${sessionId}.jsonl`), lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const { session } = await restoreSession(path.join(dir, `${sessionId}.jsonl`));
    expect(session.embedded.has("toolu_T1")).toBe(true);
    session.model.setFilesUncounted(true);
    await countSubagentUsage(session, new AbortController().signal);
    const t = session.model.transcript();
    expect(session.loaded.size).toBe(0);
    expect(recordOf(t, "toolu_T1")?.inputTokens).toBe(25 + 35);
    expect(t.sessionInputTokens).toBe(20 + 30 + 25 + 35);
    await loadAllSubagents(session);
    expect(session.model.transcript().sessionInputTokens).toBe(20 + 30 + 25 + 35);
  });
});
