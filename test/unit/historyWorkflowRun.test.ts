// A Workflow run read while it runs (liveSession reads it every second once its card is open):
// its journal names an agent a moment before the agent's file is written, and the run's record
// with the labels comes only at its end. A card must not be shown under a name it cannot lose.
import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { ClientEvent } from "../../src/shared/events.js";
import { runRecordPath, unframedTask, workflowAgentIds, workflowEvents } from "../../src/main/history/workflowRuns.js";
import type { HistoryProblem } from "../../src/main/history/problems.js";
import { needRecording, type Recording, type RecordingVersion } from "../support/recordings.js";
import { jsonObjects, type JsonRecord } from "../support/recordedFacts.js";
import { tempDirs } from "../support/tempDirs.js";

const CallId = "toolu_workflow";

/** Each agent card the events open: its id and the name it is shown under. */
function cards(events: readonly ClientEvent[]): Array<[string, unknown]> {
  return events.flatMap((e) =>
    e.kind === "assistant_block" && e.block.type === "tool_use" && e.parentToolUseId === CallId ? [[e.block.id.split("/")[1]!, e.block.input["description"]] as [string, unknown]] : [],
  );
}

/** What the run's record (written at its end) says of one agent. */
interface RecordedAgent {
  readonly label: string;
  /** The task as the script gave it (the record's preview, without 2.1.332's frame). */
  readonly prompt: string;
}

interface CopiedRun {
  readonly recording: Recording;
  readonly runDir: string;
  /** From the record removed, in its order. */
  readonly agents: readonly RecordedAgent[];
  /** The record's agent ids, in its order. */
  readonly agentIds: readonly string[];
  /** The journal's first "started" line, as the recorded CLI wrote it. */
  readonly started: JsonRecord;
}

const tempDir = tempDirs("baton-wfrun-");

/** The recorded workflow scenario's projects, copied, with its run's record removed (as mid-run). */
function copiedRunWithoutRecord(version?: RecordingVersion): CopiedRun {
  const recording = needRecording("workflow", version);
  const projects = path.join(recording.dir, "projects");
  const recorded = fs
    .readdirSync(projects, { recursive: true, encoding: "utf8" })
    .find((f) => /workflows[/\\]wf_[^/\\]+$/.test(f) && fs.statSync(path.join(projects, f)).isDirectory())!;
  const tmp = tempDir();
  fs.cpSync(projects, tmp, { recursive: true });
  const runDir = path.join(tmp, recorded);
  const record = JSON.parse(fs.readFileSync(runRecordPath(runDir), "utf8")) as { workflowProgress: JsonRecord[] };
  const progress = record.workflowProgress.filter((p) => p["type"] === "workflow_agent");
  const agents = progress.map((p) => ({ label: String(p["label"]), prompt: String(p["promptPreview"]) }));
  const agentIds = progress.map((p) => String(p["agentId"]));
  fs.rmSync(runRecordPath(runDir));
  const started = jsonObjects(path.join(runDir, "journal.jsonl")).find((l) => l["type"] === "started")!;
  return { recording, runDir, agents, agentIds, started };
}

const sorted = (names: readonly unknown[]): unknown[] => [...names].sort();

describe("a Workflow run read while it runs", () => {
  let run: CopiedRun;
  /**
   * 2.1.197's journal names no labels: until the run's record comes, a card is named by its
   * agent's prompt, so an agent whose file is not written yet has no card. 2.1.332's journal gives
   * each agent's label in its "started" line: a card is named by it from the start.
   */
  let labelsInJournal: boolean;
  const NextLabel = "Reader next";

  beforeEach(() => {
    // The recorded run, copied, as it was mid-way: no record yet, and one more agent just started,
    // its journal line shaped as the recorded CLI writes one.
    run = copiedRunWithoutRecord();
    labelsInJournal = run.recording.cliVersion !== "2.1.197";
    const next = { ...run.started, key: "v2:next", agentId: "anext", ...(labelsInJournal ? { label: NextLabel } : {}) };
    fs.appendFileSync(path.join(run.runDir, "journal.jsonl"), `${JSON.stringify(next)}\n`);
  });

  it("names each agent by a name it keeps until the labels come (its prompt, or its journal's label), and waits for the file of one just started that has neither", async () => {
    expect(run.agents.length).toBeGreaterThan(0);
    expect("label" in run.started).toBe(labelsInJournal);
    const problems: HistoryProblem[] = [];
    const events = await workflowEvents("s", CallId, run.runDir, problems, true);
    const nextCard = (evs: readonly ClientEvent[]) => evs.some((e) => "parentToolUseId" in e && e.parentToolUseId === `${CallId}/anext`);
    if (labelsInJournal) {
      expect(sorted(cards(events).map(([, name]) => name))).toEqual(sorted([...run.agents.map((a) => a.label), NextLabel]));
      expect(cards(events)).toContainEqual(["anext", NextLabel]);
    } else {
      expect(sorted(cards(events).map(([, name]) => name))).toEqual(sorted(run.agents.map((a) => a.prompt)));
      expect(nextCard(events)).toBe(false);
    }
    expect(problems).toEqual([]);

    // Its file appears, with its prompt: now it has a card, named by that prompt (or still by its label), its prompt shown.
    const prompt = { type: "user", isSidechain: true, agentId: "anext", sessionId: "s", uuid: "u1", timestamp: "2026-12-01T10:00:00Z", message: { role: "user", content: "Read part three" } };
    fs.writeFileSync(path.join(run.runDir, "agent-anext.jsonl"), `${JSON.stringify(prompt)}\n`);
    const later = await workflowEvents("s", CallId, run.runDir, [], true);
    expect(cards(later)).toContainEqual(["anext", labelsInJournal ? NextLabel : "Read part three"]);
    expect(later).toContainEqual(expect.objectContaining({ kind: "user_prompt", parentToolUseId: `${CallId}/anext`, text: "Read part three" }));
  });

  it("once the run is over, a missing transcript is reported and its agent still has a card", async () => {
    const problems: HistoryProblem[] = [];
    const events = await workflowEvents("s", CallId, run.runDir, problems, false);
    // With neither label nor prompt, the card is named by the agent's id.
    expect(cards(events)).toContainEqual(["anext", labelsInJournal ? NextLabel : "anext"]);
    expect(problems).toEqual([expect.objectContaining({ kind: "unreadable_sidechain", path: path.join(run.runDir, "agent-anext.jsonl") })]);
  });

  it("gives an empty agent file the journal does not name no card, while the run runs or after; one the journal names keeps its card", async () => {
    // The journal names `anext` (beforeEach); `aempty` is named by nothing, and both files are empty.
    fs.writeFileSync(path.join(run.runDir, "agent-aempty.jsonl"), "");
    fs.writeFileSync(path.join(run.runDir, "agent-anext.jsonl"), "");
    for (const running of [true, false]) {
      const problems: HistoryProblem[] = [];
      const ids = cards(await workflowEvents("s", CallId, run.runDir, problems, running)).map(([id]) => id);
      expect(ids).not.toContain("aempty");
      expect(ids.includes("anext")).toBe(labelsInJournal || !running);
      expect(problems).toEqual([]);
    }
    expect(sorted(await workflowAgentIds(run.runDir))).toEqual(sorted([...run.agentIds, "anext"]));

    // Once a line is written to it, it is an agent like any other.
    const prompt = { type: "user", isSidechain: true, agentId: "aempty", sessionId: "s", uuid: "u1", timestamp: "2026-12-01T10:00:00Z", message: { role: "user", content: "Read part four" } };
    fs.writeFileSync(path.join(run.runDir, "agent-aempty.jsonl"), `${JSON.stringify(prompt)}\n`);
    expect(cards(await workflowEvents("s", CallId, run.runDir, [], true))).toContainEqual(["aempty", "Read part four"]);
  });
});

// CLI 2.1.332 writes each agent's label in the journal's "started" line, and frames each agent's
// task in a notice for the model ("[Workflow harness — computed task] …", its lines indented).
// Pinned to the 2.1.332 recording, so the unit project (the 2.1.197 set) checks the frame too.
describe("a CLI 2.1.332 Workflow run read while it runs", () => {
  let run: CopiedRun;

  beforeEach(() => {
    run = copiedRunWithoutRecord("2.1.332");
  });

  it("names each agent by the label its journal gives, and shows its task without the CLI's frame", async () => {
    const problems: HistoryProblem[] = [];
    const events = await workflowEvents("s", CallId, run.runDir, problems, true);
    const tasks = sorted(run.agents.map((a) => a.prompt));
    expect(tasks.length).toBeGreaterThan(0);
    expect(sorted(cards(events).map(([, name]) => name))).toEqual(sorted(run.agents.map((a) => a.label)));
    const prompts = events.flatMap((e) => (e.kind === "user_prompt" ? [e.text] : []));
    expect(sorted(prompts)).toEqual(tasks);
    const inputs = events.flatMap((e) => (e.kind === "assistant_block" && e.block.type === "tool_use" && e.parentToolUseId === CallId ? [e.block.input["prompt"]] : []));
    expect(sorted(inputs)).toEqual(tasks);
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
