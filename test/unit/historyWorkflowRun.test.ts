// A Workflow run read while it runs (liveSession reads it every second once its card is open):
// its journal names an agent a moment before the agent's file is written, and the run's record
// with the labels comes only at its end. A card must not be shown under a name it cannot lose.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ClientEvent } from "../../src/shared/events.js";
import { runRecordPath, unframedTask, workflowEvents } from "../../src/main/history/workflowRuns.js";
import type { HistoryProblem } from "../../src/main/history/problems.js";
import { needRecording } from "../support/recordings.js";

const CallId = "toolu_workflow";

/** Each agent card the events open: its id and the name it is shown under. */
function cards(events: readonly ClientEvent[]): Array<[string, unknown]> {
  return events.flatMap((e) =>
    e.kind === "assistant_block" && e.block.type === "tool_use" && e.parentToolUseId === CallId ? [[e.block.id.split("/")[1]!, e.block.input["description"]] as [string, unknown]] : [],
  );
}

/** The recorded workflow scenario's projects, copied, with its run's record removed (as mid-run). */
function copiedRunWithoutRecord(version?: "2.1.332"): { tmp: string; runDir: string } {
  const projects = path.join(needRecording("workflow", version).dir, "projects");
  const recorded = fs
    .readdirSync(projects, { recursive: true, encoding: "utf8" })
    .find((f) => /workflows[/\\]wf_[^/\\]+$/.test(f) && fs.statSync(path.join(projects, f)).isDirectory())!;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "baton-wfrun-"));
  fs.cpSync(projects, tmp, { recursive: true });
  const runDir = path.join(tmp, recorded);
  fs.rmSync(runRecordPath(runDir));
  return { tmp, runDir };
}

describe("a Workflow run read while it runs", () => {
  let runDir: string;
  let tmp: string;

  beforeEach(() => {
    // The recorded run, copied, as it was mid-way: no record yet, and one more agent just started.
    ({ tmp, runDir } = copiedRunWithoutRecord());
    fs.appendFileSync(path.join(runDir, "journal.jsonl"), `${JSON.stringify({ type: "started", key: "v2:next", agentId: "anext" })}\n`);
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it("names each agent by its prompt until the labels come, and waits for the file of one just started", async () => {
    const problems: HistoryProblem[] = [];
    const events = await workflowEvents("s", CallId, runDir, problems, true);
    expect(cards(events).map(([, name]) => name).sort()).toEqual(["[[SUB-A]] read part one", "[[SUB-B]] read part two"]);
    expect(events.some((e) => "parentToolUseId" in e && e.parentToolUseId === `${CallId}/anext`)).toBe(false);
    expect(problems).toEqual([]);

    // Its file appears, with its prompt: now it has a card, named by that prompt.
    const prompt = { type: "user", isSidechain: true, agentId: "anext", sessionId: "s", uuid: "u1", timestamp: "2026-12-01T10:00:00Z", message: { role: "user", content: "Read part three" } };
    fs.writeFileSync(path.join(runDir, "agent-anext.jsonl"), `${JSON.stringify(prompt)}\n`);
    const later = await workflowEvents("s", CallId, runDir, [], true);
    expect(cards(later)).toContainEqual(["anext", "Read part three"]);
  });

  it("once the run is over, a missing transcript is reported and its agent still has a card", async () => {
    const problems: HistoryProblem[] = [];
    const events = await workflowEvents("s", CallId, runDir, problems, false);
    expect(cards(events)).toContainEqual(["anext", "anext"]);
    expect(problems).toEqual([expect.objectContaining({ kind: "unreadable_sidechain", path: path.join(runDir, "agent-anext.jsonl") })]);
  });
});

// CLI 2.1.332 writes each agent's label in the journal's "started" line, and frames each agent's
// task in a notice for the model ("[Workflow harness — computed task] …", its lines indented).
describe("a CLI 2.1.332 Workflow run read while it runs", () => {
  let runDir: string;
  let tmp: string;

  beforeEach(() => {
    ({ tmp, runDir } = copiedRunWithoutRecord("2.1.332"));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it("names each agent by the label its journal gives, and shows its task without the CLI's frame", async () => {
    const problems: HistoryProblem[] = [];
    const events = await workflowEvents("s", CallId, runDir, problems, true);
    expect(cards(events).map(([, name]) => name).sort()).toEqual(["Reader one", "Reader two"]);
    const prompts = events.flatMap((e) => (e.kind === "user_prompt" ? [e.text] : [])).sort();
    expect(prompts).toEqual(["[[SUB-A]] read part one", "[[SUB-B]] read part two"]);
    const inputs = events.flatMap((e) => (e.kind === "assistant_block" && e.block.type === "tool_use" && e.parentToolUseId === CallId ? [e.block.input["prompt"]] : [])).sort();
    expect(inputs).toEqual(["[[SUB-A]] read part one", "[[SUB-B]] read part two"]);
    expect(problems).toEqual([]);
  });
});

describe("unframedTask", () => {
  it("keeps a prompt that only looks like the frame further in, and one with no frame", () => {
    expect(unframedTask("read part one")).toBe("read part one");
    expect(unframedTask("x [Workflow harness] The computed task text follows:\n  y")).toBe("x [Workflow harness] The computed task text follows:\n  y");
  });

  it("takes the task out of the frame, its lines unindented", () => {
    expect(unframedTask("[Workflow harness — computed task] Notice. The computed task text follows:\n  line one\n    nested\n  line two")).toBe("line one\n  nested\nline two");
  });
});
