// The session list read straight from the projects folder: titles, prompt counts (for a session
// read whole), and where and when each session ran.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listSessions } from "../../src/main/history/sessionList.js";
import { findRecording, listRecordings, warnIfNoRecordings } from "../support/recordings.js";
import { initializeRequest, jsonObjects, recordedSession, recordingMeta, sentPrompts } from "../support/recordedFacts.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-list-");

describe("session list", () => {
  it("counts a slash command as a prompt but not its output, and takes the title from the first typed prompt", async () => {
    const dir = tempDir();
    const sessionId = "0e0e0e0e-1111-4222-8333-444444444444";
    const project = path.join(dir, "-home-user-code-x");
    mkdirSync(project, { recursive: true });
    let n = 0;
    const prompt = (content: string) =>
      `${JSON.stringify({ type: "user", sessionId, cwd: "/home/user/code/x", uuid: `u${++n}`, timestamp: `2026-11-30T02:00:0${n}.000Z`, message: { role: "user", content } })}\n`;
    writeFileSync(
      path.join(project, `${sessionId}.jsonl`),
      prompt("<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args>opus</command-args>") +
        prompt("<local-command-stdout>Set model to opus</local-command-stdout>") +
        prompt("hotel: review the diff"),
    );
    const [session] = await listSessions(dir);
    expect(session).toMatchObject({ sessionId, promptCount: 2, title: "hotel: review the diff", titleSource: "prompt" });
  });

  it("shows where and when the session ran, and the name the person gave it over the model's", async () => {
    const dir = tempDir();
    const sessionId = "1f1f1f1f-1111-4222-8333-444444444444";
    const project = path.join(dir, "-home-user-code-y");
    mkdirSync(project, { recursive: true });
    const envelope = { sessionId, cwd: "/home/user/code/y", version: "2.1.197", userType: "external" };
    const lines = [
      // The queue line comes first and carries the earliest time, but no cwd or branch.
      { type: "queue-operation", operation: "enqueue", timestamp: "2026-11-30T02:00:00.000Z", sessionId, content: "fix the parser" },
      { type: "custom-title", customTitle: "Old name", sessionId },
      { ...envelope, type: "user", gitBranch: "main", uuid: "u1", parentUuid: null, timestamp: "2026-11-30T02:00:01.000Z", message: { role: "user", content: "fix the parser" } },
      { type: "ai-title", aiTitle: "Parser fix suggested by the model", sessionId },
      { ...envelope, type: "assistant", gitBranch: "main", uuid: "a1", parentUuid: "u1", timestamp: "2026-11-30T02:00:02.000Z", message: { id: "m1", role: "assistant", model: "m", content: [{ type: "text", text: "On it." }] } },
      { type: "custom-title", customTitle: "Parser: the real fix", sessionId },
      // The session moved to another branch (and the shell to a subfolder) on its way.
      { ...envelope, cwd: "/home/user/code/y/src", type: "user", gitBranch: "fix/parser", uuid: "u2", parentUuid: "a1", timestamp: "2026-11-30T02:05:00.000Z", message: { role: "user", content: "and the tests" } },
      { type: "ai-title", aiTitle: "A later model title", sessionId },
    ];
    writeFileSync(path.join(project, `${sessionId}.jsonl`), lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
    const [session] = await listSessions(dir);
    expect(session).toMatchObject({
      sessionId,
      title: "Parser: the real fix",
      titleSource: "custom",
      cwd: "/home/user/code/y",
      gitBranch: "fix/parser",
      firstTimestamp: "2026-11-30T02:00:00.000Z",
      lastTimestamp: "2026-11-30T02:05:00.000Z",
      promptCount: 2,
    });
  });

  it("a big session is read at its ends only: named by the title appended last, with no prompt count it did not make", async () => {
    const dir = tempDir();
    const sessionId = "2a2a2a2a-1111-4222-8333-444444444444";
    const project = path.join(dir, "-home-user-code-z");
    mkdirSync(project, { recursive: true });
    const at = (n: number) => new Date(Date.UTC(2026, 10, 30, 2, 0, 0) + n * 1000).toISOString();
    const envelope = { sessionId, cwd: "/home/user/code/z", version: "2.1.197" };
    const lines: object[] = [{ type: "ai-title", aiTitle: "The model's name for it", sessionId }];
    // 3,000 turns of about 700 bytes: 2 MB, well past what the list reads at either end.
    for (let t = 0; t < 3000; t++) {
      lines.push({ ...envelope, type: "user", gitBranch: "main", uuid: `u${t}`, timestamp: at(2 * t), message: { role: "user", content: `turn ${t}: ${"words ".repeat(50)}` } });
      lines.push({ ...envelope, type: "assistant", gitBranch: "main", uuid: `a${t}`, timestamp: at(2 * t + 1), message: { id: `m${t}`, role: "assistant", model: "m", content: [{ type: "text", text: "ok ".repeat(50) }] } });
    }
    lines.push({ ...envelope, type: "user", gitBranch: "feature/z", uuid: "last", timestamp: at(6000), message: { role: "user", content: "the last prompt" } });
    // The CLI appends a rename, and writes the session's metadata again, at the end of the file.
    lines.push({ type: "custom-title", customTitle: "Renamed at the end", sessionId });
    writeFileSync(path.join(project, `${sessionId}.jsonl`), lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
    const [session] = await listSessions(dir);
    expect(session).toMatchObject({
      sessionId,
      title: "Renamed at the end",
      titleSource: "custom",
      cwd: "/home/user/code/z",
      gitBranch: "feature/z",
      firstTimestamp: at(0),
      lastTimestamp: at(6000),
    });
    expect(session?.sizeBytes).toBeGreaterThan(2 * 1024 * 1024);
    // Counting prompts would take every line; the list says nothing rather than a wrong number.
    expect(session?.promptCount).toBeUndefined();
  });

  const recorded = findRecording("hooks-and-agents");
  it.skipIf(recorded === undefined)("lists a recorded session with its custom title, cwd, branch, first time and prompt count", async () => {
    // Each fact as the recording holds it: the title Baton's initialize gave, the cwd it ran in,
    // the branch and first time its transcript wrote, the prompts it was sent.
    const { sessionId, file } = recordedSession(recorded!);
    const lines = jsonObjects(file);
    const branches = lines.flatMap((l) => (typeof l["gitBranch"] === "string" ? [l["gitBranch"]] : []));
    const times = lines.flatMap((l) => (typeof l["timestamp"] === "string" ? [l["timestamp"]] : []));
    const title = initializeRequest(recorded!)?.["title"];
    expect(title).toEqual(expect.any(String));
    const [session] = await listSessions(path.dirname(path.dirname(file)));
    expect(session).toMatchObject({
      sessionId,
      title,
      titleSource: "custom",
      cwd: recordingMeta(recorded!).cwd,
      gitBranch: branches.at(-1),
      firstTimestamp: times[0],
      promptCount: sentPrompts(recorded!).length,
    });
  });

  // Every recorded session of the set, whatever new lines its CLI writes (2.1.332's request
  // records, prompt snapshots, isMeta reminders): titled by the first prompt it was sent, and
  // counted by the prompts it was sent. The recordings with a title of their own are left out.
  const untitled = warnIfNoRecordings("historySessionList") ? [] : listRecordings().filter((r) => r.source === "fixtures" && initializeRequest(r)?.["title"] === undefined);
  it.each(untitled.map((r) => [r.name, r] as const))("lists the recorded %s under its first prompt, with the prompts it was sent", async (_name, r) => {
    const { sessionId, file } = recordedSession(r);
    const prompts = sentPrompts(r);
    const [session] = await listSessions(path.dirname(path.dirname(file)));
    expect(session).toMatchObject({ sessionId, title: prompts[0], titleSource: "prompt", promptCount: prompts.length, badLines: 0 });
  });
});
