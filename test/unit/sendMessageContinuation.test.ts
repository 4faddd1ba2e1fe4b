// SendMessage continuations on real recordings (the selected set: 2.1.197 in the unit project,
// 2.1.332 in recordings-2.1.332). Two ways an agent runs again: `sendmessage-continue` sends to a
// finished foreground agent (both CLIs: the run's events name the SendMessage call, with a new
// run_id on 2.1.332); `sendmessage-queued-resume` sends to a background agent that then finishes
// before any tool round (2.1.332 resumes it under the Agent call's own id with a new run_id, its
// progress naming no call, docs/protocol-notes.md "Subagents"; 2.1.197 drops the message). Live,
// the card goes back to running when the run starts, counts its steps and tools on top of the
// first run's, and ends with the newer answer; restored, it ends the same. Expected values come
// from the recording.

import path from "node:path";
import { describe, expect, it } from "vitest";
import { modelOf } from "../../src/main/hub/index.js";
import { recordingEvents } from "../../src/main/hub/recordingEvents.js";
import { restoreSession } from "../../src/main/history/restore.js";
import type { SubagentRecord } from "../../src/shared/transcript.js";
import {
  mainTranscriptFiles,
  needRecording,
  readJsonlLines,
  selectedRecordingVersion,
  warnIfNoRecordings,
  type JsonlLine,
  type Recording,
} from "../support/recordings.js";
import { recordOf, toolUses, type Line } from "./hubTestKit.js";

const skip = warnIfNoRecordings("sendMessageContinuation");

interface Recorded {
  readonly recording: Recording;
  readonly raw: readonly JsonlLine[];
  readonly lines: readonly Line[];
  /** The main agent's Agent call. */
  readonly agentCall: string;
  readonly taskId: string;
  /** Index of each task_started / task_notification line of the agent's task, in order. */
  readonly starts: readonly number[];
  readonly notifications: readonly number[];
}

function recorded(name: string): Recorded {
  const r = needRecording(name);
  const raw = readJsonlLines(path.join(r.dir, "stream.jsonl"));
  const lines = raw.map((l) => JSON.parse(l.text) as Line);
  const agentCall = toolUses(lines).find((u) => u.name === "Agent" && u.parent === null)?.id;
  if (agentCall === undefined) throw new Error(`${name}: no Agent call`);
  const isTask = (subtype: string) => (l: Line) => l.type === "system" && l.subtype === subtype;
  const taskId = lines.find((l) => isTask("task_started")(l) && l.tool_use_id === agentCall)?.task_id as string;
  const indexes = (subtype: string) => lines.flatMap((l, i) => (isTask(subtype)(l) && l.task_id === taskId ? [i] : []));
  return { recording: r, raw, lines, agentCall, taskId, starts: indexes("task_started"), notifications: indexes("task_notification") };
}

/** The Agent call's card after the first `count` stdout lines, as the live hub has it. */
function cardAfter(rec: Recorded, count: number): SubagentRecord | undefined {
  return recordOf(modelOf(recordingEvents(rec.raw.slice(0, count))).transcript(), rec.agentCall);
}

/** The subagent's tool calls and answers among lines [from, to). */
function subagentLines(rec: Recorded, from: number, to: number): { tools: string[]; answers: string[] } {
  const own = rec.lines.slice(from, to).filter((l) => l.type === "assistant" && l.parent_tool_use_id === rec.agentCall);
  const blocks = own.flatMap((l) => l.message.content as Line[]);
  return {
    tools: blocks.filter((b) => b.type === "tool_use").map((b) => b.id as string),
    answers: blocks.filter((b) => b.type === "text").map((b) => b.text as string),
  };
}

const toolUsesOf = (rec: Recorded, index: number): number => (rec.lines[index]!.usage as { tool_uses: number }).tool_uses;
const toolIds = (card: SubagentRecord | undefined) => card?.blocks.filter((b) => b.kind === "tool").map((b) => b.id);

async function restoredCard(rec: Recorded, loadSidechains: boolean): Promise<SubagentRecord | undefined> {
  const files = mainTranscriptFiles(rec.recording);
  expect(files).toHaveLength(1);
  const restored = await restoreSession(files[0]!, { loadSidechains });
  return recordOf(restored.transcript, rec.agentCall);
}

const continued = selectedRecordingVersion() === "2.1.197" ? ["sendmessage-continue"] : ["sendmessage-continue", "sendmessage-queued-resume"];

describe.skipIf(skip).each(continued)("%s: the agent runs again", (name) => {
  const rec = skip ? undefined! : recorded(name);
  const [, resumedAt] = rec?.starts ?? [];
  const firstEnd = rec?.notifications[0] ?? 0;
  const lastEnd = rec?.notifications.at(-1) ?? 0;
  const firstRun = skip ? undefined! : subagentLines(rec, 0, resumedAt!);
  const secondRun = skip ? undefined! : subagentLines(rec, resumedAt!, rec.lines.length);

  it("is recorded as a second run of the same task", () => {
    expect(rec.starts).toHaveLength(2);
    expect(rec.notifications).toHaveLength(2);
    expect(firstEnd).toBeLessThan(resumedAt!);
    expect(secondRun.answers.at(-1)).not.toBe(firstRun.answers.at(-1));
  });

  it("live: the finished card goes back to running when the continuation starts", () => {
    expect(cardAfter(rec, resumedAt!)).toMatchObject({ status: "completed", summaryMarkdown: firstRun.answers.at(-1) });
    expect(cardAfter(rec, resumedAt! + 1)?.status).toBe("running");
  });

  it("live: while it runs, the card counts the new run's steps and tools on top of the first run's", () => {
    const progress = rec.lines.flatMap((l, i) => (i > resumedAt! && i < lastEnd && l.subtype === "task_progress" && l.task_id === rec.taskId ? [i] : []));
    expect(progress.length).toBeGreaterThan(0);
    for (const at of progress) {
      const card = cardAfter(rec, at + 1);
      expect(card).toMatchObject({ status: "running", progressLine: rec.lines[at]!.description, toolUses: toolUsesOf(rec, firstEnd) + toolUsesOf(rec, at) });
      expect(toolIds(card)).toEqual([...firstRun.tools, ...subagentLines(rec, resumedAt!, at + 1).tools]);
    }
  });

  it("live: the card ends with the newer answer and both runs' tools", () => {
    const card = cardAfter(rec, rec.raw.length);
    expect(card).toMatchObject({ status: "completed", summaryMarkdown: secondRun.answers.at(-1), toolUses: toolUsesOf(rec, firstEnd) + toolUsesOf(rec, lastEnd) });
    expect(toolIds(card)).toEqual([...firstRun.tools, ...secondRun.tools]);
  });

  it("restored: the card ends the same, before and after its steps are loaded", async () => {
    const expected = { status: "completed", summaryMarkdown: secondRun.answers.at(-1), toolUses: toolUsesOf(rec, firstEnd) + toolUsesOf(rec, lastEnd) };
    expect(await restoredCard(rec, false)).toMatchObject(expected);
    const loaded = await restoredCard(rec, true);
    expect(loaded).toMatchObject(expected);
    expect(toolIds(loaded)).toEqual([...firstRun.tools, ...secondRun.tools]);
  });
});

describe.skipIf(skip || selectedRecordingVersion() !== "2.1.197")("sendmessage-queued-resume on 2.1.197: the message came too late and is dropped", () => {
  const rec = skip ? undefined! : recorded("sendmessage-queued-resume");
  const only = skip ? undefined! : subagentLines(rec, 0, rec.lines.length);

  it("one run only, whose answer the card keeps, live and restored", async () => {
    expect(rec.starts).toHaveLength(1);
    const expected = { status: "completed", summaryMarkdown: only.answers.at(-1), toolUses: toolUsesOf(rec, rec.notifications[0]!) };
    expect(cardAfter(rec, rec.raw.length)).toMatchObject(expected);
    expect(await restoredCard(rec, false)).toMatchObject(expected);
  });
});
