// The agents a Workflow script ran (CLI 2.1.197) keep their transcripts in
// `<session>/subagents/workflows/<runId>/`: search finds what they said, and a hit names the agent
// by the label the script gave it (from the run's record, `<session>/workflows/<runId>.json`).
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { discoverTranscripts } from "../../src/main/search/discover.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { needRecording } from "../support/recordings.js";
import { tempDirs } from "../support/tempDirs.js";

describe("a Workflow's agents in the index", () => {
  const projects = path.join(needRecording("workflow").dir, "projects");
  const tempDir = tempDirs("baton-workflow-", "all");
  let tmp: string;
  let store: StoreService;

  beforeAll(async () => {
    tmp = tempDir();
    store = new StoreService({ dbPath: path.join(tmp, "history.db") });
    await store.index(projects);
  });
  afterAll(() => {
    store?.close();
  });

  it("discovers each agent's transcript, and not the run's journal", () => {
    const found = discoverTranscripts(projects).filter((f) => f.agentId !== null);
    const onDisk = fs
      .readdirSync(projects, { recursive: true, encoding: "utf8" })
      .filter((f) => f.includes(`workflows${path.sep}wf_`) && /agent-\w+\.jsonl$/.test(f))
      .map((f) => path.join(projects, f));
    expect(onDisk).toHaveLength(2);
    expect(found.map((f) => f.path).sort()).toEqual(onDisk.sort());
  });

  it("finds what each agent said, named by its label", () => {
    const hits = store.search('"Part two read"');
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ kind: "text", subagent: { description: "Reader two", agentType: "workflow-subagent" } });
    expect(store.search("part-one").some((h) => h.subagent?.description === "Reader one" && h.kind === "tool_input")).toBe(true);
  });
});
