// Side requests the CLI keeps beside the real subagents (issue 21): prompt suggestions
// (`agent-aprompt_suggestion-*`), `/btw` side questions (`agent-aside_question-*`) and 2.0.x
// `Warmup` files at the project root are not subagents. They are not counted, not reported as
// unlinked, not handed to an Agent call (even one with no result, which the linker's last resort
// would otherwise fill), and not indexed as subagents; a `/btw` answer shows as a side note.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { restoreSession } from "../../src/main/history/restore.js";
import { restoreFirstScreen } from "../../src/main/history/firstScreen.js";
import { listSessions } from "../../src/main/history/sessionList.js";
import { discoverTranscripts } from "../../src/main/search/discover.js";
import { StoreService } from "../../src/main/store/storeService.js";
import type { Block } from "../../src/shared/transcript.js";
import { writeSideConversations, type Project } from "../support/sideConversationFiles.js";
import { tempDirs } from "../support/tempDirs.js";

const SessionId = "5e5e5e5e-0000-4000-8000-000000000001";
const tempDir = tempDirs("baton-side-conv-", "all");
let tmp: string;
let p: Project;

beforeAll(() => {
  tmp = tempDir();
  p = writeSideConversations(path.join(tmp, "projects"), SessionId);
});

const sideFiles = (): string[] => [
  path.join(p.subagentsDir, "agent-aprompt_suggestion-0123456789abcdef.jsonl"),
  path.join(p.subagentsDir, "agent-aside_question-fedcba9876543210.jsonl"),
  path.join(p.projectDir, "agent-1a2b3c4d.jsonl"),
];

describe("side conversations in a restore", () => {
  it("are not subagents: not listed, not unlinked, not linked to the Agent call without a result", async () => {
    const { session, problems, transcript } = await restoreSession(p.mainFile, { loadSidechains: true });
    expect(session.files).toEqual([]);
    expect(session.links.size).toBe(0);
    expect(problems.filter((x) => x.kind === "unlinked_sidechain")).toEqual([]);
    const card = transcript.blocks.find((b) => b.call?.toolUseId === "toolu_open")?.call?.subagent;
    expect(card).toBeDefined();
    expect(card?.sidechainPath).toBeUndefined();
    // Nothing the side requests said shows in the card.
    expect(JSON.stringify(card)).not.toMatch(/suggestedzebra|warmupzebra|bigger one/);
  });

  it("shows a /btw answer as a side note where it was asked, marked as not part of the conversation", async () => {
    const { transcript } = await restoreSession(p.mainFile);
    const note = transcript.blocks.findIndex((b) => b.kind === "notice" && (b.text ?? "").includes("The bigger one is main.ts."));
    expect(note).toBeGreaterThan(-1);
    const block = transcript.blocks[note]!;
    expect(block.text).toMatch(/^Side question \(\/btw\), not part of the conversation/);
    expect(block.text).toContain("which file is bigger?");
    const at = (pred: (b: Block) => boolean): number => transcript.blocks.findIndex(pred);
    // Asked after the answer "The app has two files." and before the next prompt.
    expect(at((b) => b.kind === "text" && b.text === "The app has two files.")).toBe(note - 1);
    expect(at((b) => b.kind === "user" && b.text === "now look deeper")).toBe(note + 1);
  });

  it("shows the side note on the first screen too", async () => {
    const screen = await restoreFirstScreen(p.mainFile, { projectsDir: p.projectsDir });
    expect(screen.transcript.blocks.some((b) => b.kind === "notice" && (b.text ?? "").includes("The bigger one is main.ts."))).toBe(true);
  });

  it("are not counted in the session list's subagent count", async () => {
    const [summary] = await listSessions(p.projectsDir);
    expect(summary?.sessionId).toBe(SessionId);
    // The one Agent call is the only subagent.
    expect(summary?.subagentCount).toBe(1);
  });
});

describe("side conversations in the index", () => {
  let store: StoreService;
  beforeAll(async () => {
    store = new StoreService({ dbPath: path.join(tmp, "history.db") });
    await store.index(p.projectsDir);
  });
  afterAll(() => store?.close());

  it("are not discovered as subagent transcripts", () => {
    const found = discoverTranscripts(p.projectsDir).map((f) => f.path);
    expect(found).toContain(p.mainFile);
    for (const file of sideFiles()) expect(found).not.toContain(file);
  });

  it("are not listed as the session's subagents, and what they said is not found as a subagent's", () => {
    expect(store.listSubagents(SessionId)).toEqual([]);
    expect(store.search("suggestedzebra")).toEqual([]);
    expect(store.search("warmupzebra")).toEqual([]);
  });
});
