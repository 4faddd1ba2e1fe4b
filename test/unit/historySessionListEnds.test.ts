// The cold session list (no index) reads each file's ends and nothing between, counts subagents
// from the session's folders, and marks what only a full read could tell instead of guessing it:
// a title a rename in the unread middle would outrank, a subagent count the ends cannot settle.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bufferIO } from "../../src/main/commands/commandIO.js";
import { run as sessionsRun } from "../../src/main/commands/sessions.js";
import { HeadBytes, TailBytes } from "../../src/main/history/sessionEnds.js";
import { listSessions, listSessionsWithProblems } from "../../src/main/history/sessionList.js";
import { needRecording, RECORDING_VERSIONS } from "../support/recordings.js";
import { jsonObjects, recordedSession, sentPrompts } from "../support/recordedFacts.js";
import { tempDirs } from "../support/tempDirs.js";
import { at, jsonl, turns } from "../support/listTurns.js";

const tempDir = tempDirs("baton-list-ends-");
const Cwd = "/home/user/code/ends";
const Project = "-home-user-code-ends";

/** A session file with `middle` between two ends each larger than what the list reads there. */
function bigSession(dir: string, sessionId: string, middle: string | Buffer, tail: readonly object[] = []): string {
  const project = path.join(dir, Project);
  fs.mkdirSync(project, { recursive: true });
  const file = path.join(project, `${sessionId}.jsonl`);
  const end = jsonl(turns(sessionId, Cwd, 2000, 1000));
  fs.writeFileSync(file, Buffer.concat([Buffer.from(jsonl(turns(sessionId, Cwd, 0, 1000))), Buffer.from(middle), Buffer.from(end + jsonl(tail))]));
  expect(end.length).toBeGreaterThan(TailBytes);
  return file;
}

function agentCall(sessionId: string, id: string, n: number): object {
  return { sessionId, cwd: Cwd, type: "assistant", uuid: `call-${id}`, timestamp: at(n), message: { id: `m-${id}`, role: "assistant", model: "m", content: [{ type: "tool_use", id, name: "Agent", input: { description: "look around", prompt: "look around", subagent_type: "general-purpose" } }] } };
}

describe("the cold session list reads each file's ends only", () => {
  it("marks a title that a rename in the unread middle would outrank, and knows the one a rename near the end gives", async () => {
    const dir = tempDir();
    const renamed = "7a7a7a7a-1111-4222-8333-444444444444";
    bigSession(dir, renamed, jsonl([{ type: "custom-title", customTitle: "Named in the middle", sessionId: renamed }]));
    const [middle] = await listSessions(dir);
    expect(middle).toMatchObject({ title: expect.stringMatching(/^turn 0: /), titleSource: "prompt", titleMayChange: true });
    expect(middle?.promptCount).toBeUndefined();

    fs.rmSync(path.join(dir, Project), { recursive: true });
    bigSession(dir, renamed, "", [{ type: "custom-title", customTitle: "Named at the end", sessionId: renamed }]);
    const [end] = await listSessions(dir);
    expect(end).toMatchObject({ title: "Named at the end", titleSource: "custom" });
    expect(end?.titleMayChange).toBeUndefined();
  });

  it("knows a whole file's title wherever its rename is", async () => {
    const dir = tempDir();
    const id = "7b7b7b7b-1111-4222-8333-444444444444";
    fs.mkdirSync(path.join(dir, Project));
    fs.writeFileSync(path.join(dir, Project, `${id}.jsonl`), jsonl([...turns(id, Cwd, 0, 3), { type: "custom-title", customTitle: "Named in the middle", sessionId: id }, ...turns(id, Cwd, 3, 3)]));
    const [summary] = await listSessions(dir);
    expect(summary).toMatchObject({ title: "Named in the middle", titleSource: "custom", promptCount: 6 });
    expect(summary?.titleMayChange).toBeUndefined();
  });

  it("never reads the middle: damage there is not seen, damage at an end is counted", async () => {
    const dir = tempDir();
    const id = "7c7c7c7c-1111-4222-8333-444444444444";
    const garbage = Buffer.concat([Buffer.from("not json at all\n"), Buffer.from([0xff, 0xfe, 0x0a]), Buffer.from(`${"{".repeat(5000)}\n`)]);
    const file = bigSession(dir, id, Buffer.concat(Array.from({ length: 200 }, () => garbage)));
    expect(fs.statSync(file).size).toBeGreaterThan(HeadBytes + TailBytes + 1_000_000);
    const [clean] = await listSessions(dir);
    expect(clean).toMatchObject({ badLines: 0, firstTimestamp: at(0), lastTimestamp: at(2 * 2999 + 1), cwd: Cwd, gitBranch: "main" });

    fs.appendFileSync(file, "not json at the end\n");
    const [damaged] = await listSessions(dir);
    expect(damaged?.badLines).toBe(1);
  });

  it("leaves a big file's subagent count unknown when its ends name Agent calls no subagent file accounts for", async () => {
    const dir = tempDir();
    const id = "7d7d7d7d-1111-4222-8333-444444444444";
    // An old layout: the agent's lines live inside the file, no file of its own.
    bigSession(dir, id, "", [agentCall(id, "toolu_inline", 9000)]);
    const [summary] = await listSessions(dir);
    expect(summary?.subagentCount).toBeUndefined();

    // The same call in a file read whole is counted.
    fs.writeFileSync(path.join(dir, Project, `${id}.jsonl`), jsonl([...turns(id, Cwd, 0, 2), agentCall(id, "toolu_inline", 9000)]));
    const [whole] = await listSessions(dir);
    expect(whole?.subagentCount).toBe(1);
  });

  it("`baton sessions` shows what it could not know as \"-\", and a title that may change with \" *\"", async () => {
    const dir = tempDir();
    const id = "7e7e7e7e-1111-4222-8333-444444444444";
    bigSession(dir, id, jsonl([{ type: "custom-title", customTitle: "Named in the middle", sessionId: id }]), [agentCall(id, "toolu_inline", 9000)]);
    const table = bufferIO();
    expect(await sessionsRun(["--projects-dir", dir], table)).toBe(0);
    const [header, row] = table.out().split("\n");
    const cells = row!.split(/\s{2,}/);
    expect(header!.split(/\s+/)).toEqual(["SESSION", "LAST", "PROMPTS", "AGENTS", "SIZE", "CWD", "TITLE"]);
    expect(cells[2]).toBe("-");
    expect(cells[3]).toBe("-");
    expect(cells.at(-1)).toMatch(/^turn 0: .* \*$/);
    const json = bufferIO();
    expect(await sessionsRun(["--projects-dir", dir, "--json"], json)).toBe(0);
    const [listed] = (JSON.parse(json.out()) as { sessions: Record<string, unknown>[] }).sessions;
    expect(listed).toMatchObject({ sessionId: id, titleMayChange: true });
    expect(listed).not.toHaveProperty("subagentCount");
    expect(listed).not.toHaveProperty("promptCount");
  });
});

describe("the cold session list's files", () => {
  it.skipIf(process.platform === "win32")("skips a link to a FIFO inside the folder with a notice, and lists the session beside it", { timeout: 10_000 }, async () => {
    const dir = tempDir();
    const id = "81818181-1111-4222-8333-444444444444";
    const project = path.join(dir, Project);
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, `${id}.jsonl`), jsonl(turns(id, Cwd, 0, 1)));
    execFileSync("mkfifo", [path.join(project, "pipe")]);
    fs.symlinkSync(path.join(project, "pipe"), path.join(project, "linked.jsonl"));
    const { sessions, problems } = await listSessionsWithProblems(dir);
    expect(sessions.map((s) => s.sessionId)).toEqual([id]);
    expect(problems).toEqual([{ kind: "not_regular_file", path: path.join(project, "linked.jsonl"), message: "skipped: not a regular file (a FIFO)" }]);
  });
});

describe("the cold session list counts subagents from the session's folders", () => {
  it.each(RECORDING_VERSIONS.map((v) => [v]))("counts a recorded (%s) Workflow run's agents, and not an empty file its journal does not name", async (version) => {
    const recording = needRecording("workflow", version);
    const dir = tempDir();
    fs.cpSync(path.join(recording.dir, "projects"), dir, { recursive: true });
    const { sessionId, project } = recordedSession(recording);
    const runs = path.join(dir, project, sessionId, "subagents", "workflows");
    const [run] = fs.readdirSync(runs);
    const journal = jsonObjects(path.join(runs, run!, "journal.jsonl"));
    const agents = new Set(journal.flatMap((l) => (typeof l["agentId"] === "string" ? [l["agentId"]] : [])));
    expect(agents.size).toBeGreaterThan(0);
    fs.writeFileSync(path.join(runs, run!, "agent-aempty.jsonl"), "");
    const [summary] = await listSessions(dir);
    expect(summary).toMatchObject({ sessionId, subagentCount: agents.size, promptCount: sentPrompts(recording).length });
  });

  it("counts 2.0.x sidechains at the project root that name the session, not a warm-up, a side request or another session's", async () => {
    const dir = tempDir();
    const id = "7f7f7f7f-1111-4222-8333-444444444444";
    const other = "80808080-1111-4222-8333-444444444444";
    const project = path.join(dir, Project);
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, `${id}.jsonl`), jsonl([...turns(id, Cwd, 0, 2), agentCall(id, "toolu_1", 10), agentCall(id, "toolu_2", 11)]));
    fs.writeFileSync(path.join(project, `${other}.jsonl`), jsonl(turns(other, Cwd, 0, 1)));
    const sidechain = (sessionId: string, prompt: string): string => jsonl([{ type: "user", isSidechain: true, sessionId, cwd: Cwd, uuid: "s1", timestamp: at(20), message: { role: "user", content: prompt } }]);
    fs.writeFileSync(path.join(project, "agent-a1.jsonl"), sidechain(id, "look around"));
    fs.writeFileSync(path.join(project, "agent-a2.jsonl"), sidechain(id, "look further"));
    fs.writeFileSync(path.join(project, "agent-a3.jsonl"), sidechain(id, "look further still"));
    fs.writeFileSync(path.join(project, "agent-awarm.jsonl"), sidechain(id, "Warmup"));
    fs.writeFileSync(path.join(project, "agent-acompact-1.jsonl"), sidechain(id, "summarise"));
    fs.writeFileSync(path.join(project, "agent-aother.jsonl"), sidechain(other, "elsewhere"));
    const { sessions, problems } = await listSessionsWithProblems(dir);
    expect(problems).toEqual([]);
    // Three files for two calls: the files are the count.
    expect(sessions.find((s) => s.sessionId === id)?.subagentCount).toBe(3);
    expect(sessions.find((s) => s.sessionId === other)?.subagentCount).toBe(1);
  });
});
