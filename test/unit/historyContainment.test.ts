// Nothing a history file says, and no link inside the history folder, makes Baton read a file
// outside it: a Workflow run naming an agent id full of `..`, symlinked project folders, session
// files, `subagents` folders and sidechains pointing elsewhere. A planted file outside holds a
// word that must never reach what the app shows, what `baton export` prints, the search index or
// the problems. Real files in a temp dir; the same readers the app and the command line use.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createHistorySource } from "../../src/main/core/historySource.js";
import { bufferIO } from "../../src/main/commands/commandIO.js";
import { run as exportRun } from "../../src/main/commands/export.js";
import { listSessions } from "../../src/main/history/sessionList.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { placedBlocks } from "../support/transcriptWalk.js";
import { needRecording } from "../support/recordings.js";
import { jsonObjects, lastAssistantText, recordedSession, sentPrompts, sidechainIds, theOne } from "../support/recordedFacts.js";
import { tempDirs } from "../support/tempDirs.js";

const Secret = "Outsidesecretzebra";

// The two recordings' ids, prompts and answers, read from the set in use (BATON_RECORDINGS): each
// CLI version's recording has its own.
const workflowRecording = needRecording("workflow");
const subagentRecording = needRecording("subagent");
const { sessionId: WorkflowSession, project: WorkflowProjectName } = recordedSession(workflowRecording);
const { sessionId: SubagentSession, project: SubagentProjectName } = recordedSession(subagentRecording);
const recordedWorkflowRuns = path.join(workflowRecording.dir, "projects", WorkflowProjectName, WorkflowSession, "subagents", "workflows");
const RunId = theOne(fs.readdirSync(recordedWorkflowRuns).filter((n) => n.startsWith("wf_")), "Workflow run");
/** What the run's agents answered, as its journal records it. */
const AgentResults = jsonObjects(path.join(recordedWorkflowRuns, RunId, "journal.jsonl")).flatMap((l) => (l["type"] === "result" && typeof l["result"] === "string" ? [l["result"]] : []));
const WorkflowPrompt = theOne(sentPrompts(workflowRecording), "prompt");
const recordedSubagentSession = path.join(subagentRecording.dir, "projects", SubagentProjectName, SubagentSession);
const SubagentId = theOne(sidechainIds(recordedSubagentSession), "sidechain");
/** The subagent's report, which its card shows as its summary. */
const SubagentReport = lastAssistantText(path.join(recordedSubagentSession, "subagents", `agent-${SubagentId}.jsonl`));

const tempDir = tempDirs("baton-contained-");

/** A history folder (`projects`) with the recordings' sessions, and a folder beside it that Baton must never read. */
function world() {
  const tmp = tempDir();
  const projects = path.join(tmp, "history", "projects");
  const outside = path.join(tmp, "outside");
  fs.mkdirSync(outside, { recursive: true });
  fs.cpSync(path.join(workflowRecording.dir, "projects"), projects, { recursive: true });
  fs.cpSync(path.join(subagentRecording.dir, "projects"), projects, { recursive: true });
  const workflowProject = path.join(projects, WorkflowProjectName);
  const runDir = path.join(workflowProject, WorkflowSession, "subagents", "workflows", RunId);
  const subagentProject = path.join(projects, SubagentProjectName);
  return { tmp, projects, outside, runDir, workflowProject, subagentProject, db: path.join(tmp, "db", "history.db") };
}
type World = ReturnType<typeof world>;

/** A sidechain line (or a main file's line) whose prompt is the secret. */
function secretLine(sessionId: string, extra: Record<string, unknown> = {}): string {
  const line = { type: "user", sessionId, uuid: "secret-u1", parentUuid: null, timestamp: "2026-01-01T00:00:00.000Z", cwd: "/home/user/code/x", message: { role: "user", content: `${Secret} in a file outside the history folder` }, ...extra };
  return `${JSON.stringify(line)}\n`;
}

/** A subagent's answer (an assistant line of its sidechain) that is the secret. */
function secretAnswer(sessionId: string, agentId: string): string {
  const line = { type: "assistant", isSidechain: true, agentId, sessionId, uuid: "secret-a1", parentUuid: null, timestamp: "2026-01-01T00:00:01.000Z", message: { id: "msg_secret", type: "message", role: "assistant", content: [{ type: "text", text: `${Secret} said by an agent outside` }] } };
  return `${JSON.stringify(line)}\n`;
}

/** The agent id a journal would need to reach `<tmp>/outside/agent-x.jsonl` from the run's folder. */
function escapingAgentId(w: World): string {
  const up = path.relative(w.runDir, w.tmp).split(path.sep).length;
  return `x/${"../".repeat(up + 1)}outside/agent-x`;
}

/** Everything the app shows of a session once every subagent card is opened, as text. */
async function shownByApp(projects: string, sessionId: string): Promise<string> {
  const restored = await createHistorySource({ projectsDir: projects }).restore(sessionId);
  await restored.loaded;
  const opened = new Set<string>();
  for (;;) {
    const next = placedBlocks(restored.transcript())
      .map((p) => p.block.call?.subagent)
      .find((r) => r?.sidechainPath !== undefined && !opened.has(r.toolUseId));
    if (next === undefined) break;
    opened.add(next.toolUseId);
    await restored.loadSubagentBlocks(next.toolUseId);
  }
  restored.close?.();
  return JSON.stringify(restored.transcript());
}

/** What `baton export --json` prints (transcript and problems), and the problems it lists. */
async function exported(w: World, sessionId: string): Promise<{ text: string; problems: Array<{ kind: string; path: string; message: string }> }> {
  const io = bufferIO();
  const code = await exportRun([sessionId, "--projects-dir", w.projects, "--db", w.db, "--json"], io);
  const text = io.out() + io.err();
  return { text, problems: code === 0 ? (JSON.parse(io.out()) as { problems: Array<{ kind: string; path: string; message: string }> }).problems : [] };
}

async function indexedHits(w: World): Promise<number> {
  const store = new StoreService({ dbPath: w.db });
  try {
    await store.index(w.projects);
    return store.search(Secret).length;
  } finally {
    store.close();
  }
}

describe("a Workflow run naming an agent outside the history folder", () => {
  it("journal: the agent is refused with a notice; its file is never read", async () => {
    const w = world();
    const id = escapingAgentId(w);
    fs.writeFileSync(path.join(w.outside, "agent-x.jsonl"), secretLine(WorkflowSession, { isSidechain: true, agentId: "x" }));
    fs.appendFileSync(path.join(w.runDir, "journal.jsonl"), `${JSON.stringify({ type: "started", agentId: id })}\n${JSON.stringify({ type: "result", agentId: id, result: "done" })}\n`);

    const app = await shownByApp(w.projects, WorkflowSession);
    expect(app).not.toContain(Secret);
    // The run's own agents still show.
    expect(AgentResults).not.toEqual([]);
    for (const result of AgentResults) expect(app).toContain(result);
    const { text, problems } = await exported(w, WorkflowSession);
    expect(text).not.toContain(Secret);
    expect(problems).toContainEqual(expect.objectContaining({ kind: "refused_path", message: expect.stringContaining("not a plain name") }));
    expect(await indexedHits(w)).toBe(0);
  });

  it("run record: an agent id with `..` in workflowProgress is refused the same way", async () => {
    const w = world();
    const id = escapingAgentId(w);
    fs.writeFileSync(path.join(w.outside, "agent-x.jsonl"), secretLine(WorkflowSession, { isSidechain: true, agentId: "x" }));
    const recordFile = path.join(w.workflowProject, WorkflowSession, "workflows", `${RunId}.json`);
    const record = JSON.parse(fs.readFileSync(recordFile, "utf8")) as { workflowProgress: unknown[] };
    record.workflowProgress.push({ type: "workflow_agent", agentId: id, label: "Planted", state: "done" });
    fs.writeFileSync(recordFile, JSON.stringify(record));

    expect(await shownByApp(w.projects, WorkflowSession)).not.toContain(Secret);
    const { text, problems } = await exported(w, WorkflowSession);
    expect(text).not.toContain(Secret);
    expect(problems).toContainEqual(expect.objectContaining({ kind: "refused_path" }));
  });

  it("a `subagents` folder linked elsewhere: the run's files there are refused", async () => {
    const w = world();
    const subagents = path.join(w.workflowProject, WorkflowSession, "subagents");
    const moved = path.join(w.outside, "subagents");
    fs.renameSync(subagents, moved);
    fs.symlinkSync(moved, subagents);
    const runDir = path.join(moved, "workflows", RunId);
    for (const name of fs.readdirSync(runDir).filter((n) => n.startsWith("agent-") && n.endsWith(".jsonl"))) {
      fs.appendFileSync(path.join(runDir, name), secretAnswer(WorkflowSession, name.slice("agent-".length, -".jsonl".length)));
    }

    expect(await shownByApp(w.projects, WorkflowSession)).not.toContain(Secret);
    const { text, problems } = await exported(w, WorkflowSession);
    expect(text).not.toContain(Secret);
    expect(problems).toContainEqual(expect.objectContaining({ kind: "refused_path", message: expect.stringContaining("outside the history folder") }));
  });
});

describe("links in the history folder", () => {
  it("a project folder linked to a folder outside: its sessions are neither listed nor opened", async () => {
    const w = world();
    const elsewhere = path.join(w.outside, "project");
    fs.mkdirSync(elsewhere);
    const id = "33333333-3333-4333-8333-333333333333";
    fs.writeFileSync(path.join(elsewhere, `${id}.jsonl`), secretLine(id));
    fs.symlinkSync(elsewhere, path.join(w.projects, "-home-user-code-linked"));

    const listed = await listSessions(w.projects);
    expect(JSON.stringify(listed)).not.toContain(Secret);
    expect(listed.map((s) => s.sessionId)).not.toContain(id);
    await expect(createHistorySource({ projectsDir: w.projects }).restore(id)).rejects.toMatchObject({ code: "refused", message: expect.stringContaining("outside the history folder") });
    const { text } = await exported(w, id);
    expect(text).not.toContain(Secret);
    expect(text).toContain("outside the history folder");
    expect(await indexedHits(w)).toBe(0);
  });

  it("a session file linked to a file outside is refused; one linked to a file inside is followed", async () => {
    const w = world();
    const outsideId = "44444444-4444-4444-8444-444444444444";
    const planted = path.join(w.outside, "session.jsonl");
    fs.writeFileSync(planted, secretLine(outsideId));
    fs.symlinkSync(planted, path.join(w.subagentProject, `${outsideId}.jsonl`));
    // A link to another session's file inside the folder: the same folder, so it opens.
    const insideId = "55555555-5555-4555-8555-555555555555";
    fs.symlinkSync(path.join(w.workflowProject, `${WorkflowSession}.jsonl`), path.join(w.subagentProject, `${insideId}.jsonl`));

    expect(JSON.stringify(await listSessions(w.projects))).not.toContain(Secret);
    await expect(createHistorySource({ projectsDir: w.projects }).restore(outsideId)).rejects.toMatchObject({ code: "refused" });
    expect(await shownByApp(w.projects, insideId)).toContain(WorkflowPrompt);
  });

  it("a sidechain file or a `subagents` folder linked outside is refused with a notice; the card keeps its summary", async () => {
    const w = world();
    const subagents = path.join(w.subagentProject, SubagentSession, "subagents");
    const sidechain = path.join(subagents, `agent-${SubagentId}.jsonl`);
    const planted = path.join(w.outside, "sidechain.jsonl");
    fs.writeFileSync(planted, fs.readFileSync(sidechain, "utf8") + secretAnswer(SubagentSession, SubagentId));
    fs.rmSync(sidechain);
    fs.symlinkSync(planted, sidechain);

    const app = await shownByApp(w.projects, SubagentSession);
    expect(app).not.toContain(Secret);
    expect(app).toContain(`"summaryMarkdown":${JSON.stringify(SubagentReport)}`);
    const first = await exported(w, SubagentSession);
    expect(first.text).not.toContain(Secret);
    expect(first.problems).toContainEqual(expect.objectContaining({ kind: "refused_path", path: sidechain }));

    // The whole folder linked instead.
    fs.rmSync(sidechain);
    fs.copyFileSync(planted, path.join(w.outside, `agent-${SubagentId}.jsonl`));
    fs.copyFileSync(path.join(subagents, `agent-${SubagentId}.meta.json`), path.join(w.outside, `agent-${SubagentId}.meta.json`));
    fs.rmSync(subagents, { recursive: true });
    fs.symlinkSync(w.outside, subagents);
    expect(await shownByApp(w.projects, SubagentSession)).not.toContain(Secret);
    const second = await exported(w, SubagentSession);
    expect(second.text).not.toContain(Secret);
    expect(second.problems).toContainEqual(expect.objectContaining({ kind: "refused_path" }));
  });

  it("an agent id with `..` in a call's result or a meta.json's toolUseId never becomes a path", async () => {
    const w = world();
    fs.writeFileSync(path.join(w.outside, "agent-x.jsonl"), secretLine(SubagentSession, { isSidechain: true, agentId: "x" }));
    const main = path.join(w.subagentProject, `${SubagentSession}.jsonl`);
    const up = path.relative(path.join(w.subagentProject, SubagentSession, "subagents"), w.tmp).split(path.sep).length;
    const id = `y/${"../".repeat(up + 1)}outside/agent-x`;
    fs.writeFileSync(main, fs.readFileSync(main, "utf8").replaceAll(SubagentId, id));
    const meta = path.join(w.subagentProject, SubagentSession, "subagents", `agent-${SubagentId}.meta.json`);
    fs.writeFileSync(meta, JSON.stringify({ ...JSON.parse(fs.readFileSync(meta, "utf8")), toolUseId: `../../${id}` }));

    expect(await shownByApp(w.projects, SubagentSession)).not.toContain(Secret);
    expect((await exported(w, SubagentSession)).text).not.toContain(Secret);
  });
});

describe("a file in the history folder that is not a transcript", () => {
  it("is reported by counts only: none of its lines is printed", async () => {
    const w = world();
    const id = "66666666-6666-4666-8666-666666666666";
    fs.writeFileSync(path.join(w.subagentProject, `${id}.jsonl`), `root:x:0:0:${Secret}:/root:/bin/bash\ndaemon:x:1:1:${Secret}:/usr/sbin\n`);
    const { text, problems } = await exported(w, id);
    expect(text).not.toContain(Secret);
    expect(problems).toEqual([expect.objectContaining({ kind: "bad_lines", message: expect.stringContaining("2 not JSON") })]);
    expect(await shownByApp(w.projects, id)).not.toContain(Secret);
  });

  it("whose first lines are not JSON shows none of them, even when JSON follows", async () => {
    const w = world();
    const id = "77777777-7777-4777-8777-777777777777";
    const file = path.join(w.subagentProject, `${id}.jsonl`);
    fs.writeFileSync(file, `${Secret} first line\n${Secret} second line\n${JSON.stringify({ type: "user", sessionId: id, uuid: "u1", message: { role: "user", content: "hello" } })}\nnot json after a record\n`);
    const { text, problems } = await exported(w, id);
    expect(text).not.toContain(Secret);
    // A damaged line after the transcript has shown itself to be one still gets its excerpt.
    expect(text).toContain("not json after a record");
    expect(problems).toEqual([expect.objectContaining({ kind: "bad_lines", count: 3 })]);
    // The app's first screen reads the file backwards; it quotes no line before the first record either.
    const restored = await createHistorySource({ projectsDir: w.projects }).restore(id);
    await restored.loaded;
    const shown = JSON.stringify(restored.problems?.() ?? []);
    expect(shown).not.toContain(Secret);
    expect(shown).toContain("not json after a record");
  });
});
