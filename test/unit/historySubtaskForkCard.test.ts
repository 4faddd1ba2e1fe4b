// `/subtask` forks (issue 21): a background subagent with no Agent call anywhere. A restore shows
// it as a card where the fork was made (after the main line its `fork-context-ref` names), titled
// by its name, with its steps loaded from its file when opened and its answer from the
// `<task-notification>` that no call would otherwise match.
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadSubagentBlocks } from "../../src/main/history/historySession.js";
import { restoreSession } from "../../src/main/history/restore.js";
import { annotatedTranscript } from "../../src/main/history/sidechainPaths.js";
import { restoreFirstScreen } from "../../src/main/history/firstScreen.js";
import { StoreService } from "../../src/main/store/storeService.js";
import type { Block, Transcript } from "../../src/shared/transcript.js";
import { ForkId, writeSubtaskFork, type Project } from "../support/sideConversationFiles.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-fork-", "all");
let tmp: string;
beforeAll(() => {
  tmp = tempDir();
});

const forkCardIndex = (t: Transcript): number => t.blocks.findIndex((b) => b.call?.subagent?.subagentType === "fork");
const indexOf = (t: Transcript, pred: (b: Block) => boolean): number => t.blocks.findIndex(pred);

describe("a /subtask fork in a restore", () => {
  let p: Project;
  const SessionId = "f0f0f0f0-0000-4000-8000-000000000001";
  beforeAll(() => {
    p = writeSubtaskFork(path.join(tmp, "a", "projects"), SessionId);
  });

  it("is a card after the line it was forked at, titled by its name, with the notification's answer", async () => {
    const { transcript, problems } = await restoreSession(p.mainFile);
    const at = forkCardIndex(transcript);
    expect(at).toBeGreaterThan(-1);
    expect(indexOf(transcript, (b) => b.kind === "text" && b.text === "Two files.")).toBe(at - 1);
    const record = transcript.blocks[at]!.call!.subagent!;
    expect(record).toMatchObject({ description: "summarise", taskId: ForkId, status: "completed", summaryMarkdown: "Summary: main.ts and util.ts." });
    expect(record.sidechainPath).toBe(path.join(p.subagentsDir, `agent-${ForkId}.jsonl`));
    // Lazy, like any card: its steps wait for the card to open.
    expect(record.blocks).toEqual([]);
    expect(problems.filter((x) => x.kind === "unlinked_sidechain")).toEqual([]);
  });

  it("loads its steps from its file when opened", async () => {
    const restored = await restoreSession(p.mainFile);
    const toolUseId = restored.transcript.blocks[forkCardIndex(restored.transcript)]!.call!.toolUseId;
    const blocks = await loadSubagentBlocks(restored.session, toolUseId);
    expect(blocks.map((b) => b.call?.name ?? b.text)).toEqual(["Bash", "Summary: main.ts and util.ts."]);
    expect(blocks[0]?.call?.result?.text).toBe("main.ts\nutil.ts");
    const after = annotatedTranscript(restored.session).blocks[forkCardIndex(restored.transcript)]!.call!.subagent!;
    expect(after.sidechainPath).toBeUndefined();
  });

  it("is not handed to the Agent call that has no result", async () => {
    const { transcript } = await restoreSession(p.mainFile, { loadSidechains: true });
    const open = transcript.blocks.find((b) => b.call?.toolUseId === "toolu_open")?.call?.subagent;
    expect(open).toBeDefined();
    expect(open?.sidechainPath).toBeUndefined();
    expect(open?.blocks).toEqual([]);
  });

  it("is on the first screen too, in the same place", async () => {
    const screen = await restoreFirstScreen(p.mainFile, { projectsDir: p.projectsDir });
    const at = forkCardIndex(screen.transcript);
    expect(at).toBeGreaterThan(-1);
    expect(indexOf(screen.transcript, (b) => b.kind === "text" && b.text === "Two files.")).toBe(at - 1);
    expect(screen.transcript.blocks[at]!.call!.subagent).toMatchObject({ status: "completed", summaryMarkdown: "Summary: main.ts and util.ts." });
  });

  it("is indexed as a subagent named by its fork name", async () => {
    const store = new StoreService({ dbPath: path.join(tmp, "a", "history.db") });
    try {
      await store.index(p.projectsDir);
      expect(store.listSubagents(SessionId)).toMatchObject([{ agentId: ForkId, agentType: "fork", description: "summarise" }]);
    } finally {
      store.close();
    }
  });
});

describe("a /subtask fork whose fork point is not in the main file", () => {
  it("is a card at the end", async () => {
    const p = writeSubtaskFork(path.join(tmp, "b", "projects"), "f0f0f0f0-0000-4000-8000-000000000002", "gone-uuid");
    const { transcript } = await restoreSession(p.mainFile);
    const at = forkCardIndex(transcript);
    expect(at).toBe(transcript.blocks.length - 1);
    expect(transcript.blocks[at]!.call!.subagent).toMatchObject({ description: "summarise", status: "completed" });
  });
});
