// The warm session list: with the search index open (its worker, as in the app), a session whose
// main file the index read whole and that has not changed since is listed from the index, which
// fills in what the cold list could only mark (a title a rename in the middle set, the prompt
// count); a file changed or added since is read at its ends again.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHistorySource } from "../../src/main/core/historySource.js";
import { TailBytes } from "../../src/main/history/sessionEnds.js";
import { openStore, type StoreClient } from "../../src/main/store/storeClient.js";
import { needRecording } from "../support/recordings.js";
import { recordedSession, sentPrompts } from "../support/recordedFacts.js";
import { tempDirs } from "../support/tempDirs.js";
import { at, jsonl, turns } from "../support/listTurns.js";

const tempDir = tempDirs("baton-list-warm-", "all");
const Cwd = "/home/user/code/warm";
const Project = "-home-user-code-warm";
const Big = "9a9a9a9a-1111-4222-8333-444444444444";
const Later = "9b9b9b9b-1111-4222-8333-444444444444";
const Turns = 1500;
/** The big file's modification time, in seconds. */
const Modified = 1_795_000_000;

let root: string;
let projects: string;
let bigFile: string;
let store: StoreClient;
let workflowSession: { readonly sessionId: string; readonly prompts: number };

beforeAll(async () => {
  root = tempDir();
  projects = path.join(root, "projects");
  fs.mkdirSync(path.join(projects, Project), { recursive: true });
  bigFile = path.join(projects, Project, `${Big}.jsonl`);
  // Renamed in the middle, far from both ends.
  const half = jsonl(turns(Big, Cwd, Turns, Turns));
  expect(half.length).toBeGreaterThan(TailBytes);
  fs.writeFileSync(bigFile, jsonl(turns(Big, Cwd, 0, Turns)) + jsonl([{ type: "custom-title", customTitle: "Named in the middle", sessionId: Big }]) + half);
  // A whole second, so a test can put the time back exactly after changing the bytes.
  fs.utimesSync(bigFile, Modified, Modified);
  // A recorded session with a Workflow run (its agents counted by the index).
  const recording = needRecording("workflow");
  fs.cpSync(path.join(recording.dir, "projects"), projects, { recursive: true });
  workflowSession = { sessionId: recordedSession(recording).sessionId, prompts: sentPrompts(recording).length };
  store = await openStore({ dbPath: path.join(root, "index", "history.db") });
  await store.index(projects);
}, 60_000);

afterAll(async () => {
  await store?.close();
});

const byId = async (withStore: boolean) => {
  const source = createHistorySource({ projectsDir: projects, ...(withStore ? { store } : {}) });
  return new Map((await source.listSessions()).map((s) => [s.sessionId, s]));
};

// Starting a worker under tsx takes a second or more on a busy machine.
describe("the warm session list", { timeout: 30_000 }, () => {
  it("fills in from the index what the cold list could only mark", async () => {
    const cold = (await byId(false)).get(Big);
    expect(cold).toMatchObject({ title: expect.stringMatching(/^turn 0: /), titleMayChange: true });
    expect(cold?.promptCount).toBeUndefined();

    const warm = await byId(true);
    expect(warm.get(Big)).toMatchObject({ title: "Named in the middle", promptCount: 2 * Turns, subagentCount: 0, cwd: Cwd, gitBranch: "main", firstTimestamp: at(0), lastTimestamp: at(4 * Turns - 1), sizeBytes: fs.statSync(bigFile).size });
    expect(warm.get(Big)?.titleMayChange).toBeUndefined();
    const workflow = warm.get(workflowSession.sessionId);
    expect(workflow).toMatchObject({ promptCount: workflowSession.prompts });
    expect(workflow?.subagentCount).toBe((await byId(false)).get(workflowSession.sessionId)?.subagentCount);
  });

  it("lists a known file from the index without reading it", async () => {
    // The same size and time, other bytes: only a read would see the difference.
    const original = fs.readFileSync(bigFile);
    try {
      const other = Buffer.from(original.toString("latin1").replaceAll("Named in the middle", "Changed in place!!!"), "latin1");
      expect(other.length).toBe(original.length);
      fs.writeFileSync(bigFile, other);
      fs.utimesSync(bigFile, Modified, Modified);
      expect((await byId(true)).get(Big)?.title).toBe("Named in the middle");
      // Read at its ends, the file would show the first prompt, marked.
      expect((await byId(false)).get(Big)).toMatchObject({ title: expect.stringMatching(/^turn 0: /), titleMayChange: true });
    } finally {
      fs.writeFileSync(bigFile, original);
      fs.utimesSync(bigFile, Modified, Modified);
    }
  });

  it("reads the ends of a file changed or added since the index read it", async () => {
    const original = fs.readFileSync(bigFile);
    try {
      fs.appendFileSync(bigFile, jsonl(turns(Big, Cwd, 2 * Turns, 1)));
      fs.writeFileSync(path.join(projects, Project, `${Later}.jsonl`), jsonl(turns(Later, Cwd, 0, 2)));
      const warm = await byId(true);
      expect(warm.get(Big)).toMatchObject({ titleMayChange: true, lastTimestamp: at(4 * Turns + 1) });
      expect(warm.get(Big)?.promptCount).toBeUndefined();
      expect(warm.get(Later)).toMatchObject({ title: expect.stringMatching(/^turn 0: /), promptCount: 2 });
    } finally {
      fs.rmSync(path.join(projects, Project, `${Later}.jsonl`));
      fs.writeFileSync(bigFile, original);
      fs.utimesSync(bigFile, Modified, Modified);
    }
  });
});
