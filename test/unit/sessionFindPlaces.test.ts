// Find in a session (issue 34): each hit of the index inside an open restored session is placed on
// the block that shows it and the subagent cards around that block, over real CLI history (both
// CLIs' deep-nesting recordings, with words planted at the end of a 3 MB output two agents deep and
// in the main agent's thinking). Every placed hit is checked against the blocks a card opened by
// hand loads: the block is there, under those cards, and holds the word.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FoundPlace } from "../../src/shared/api.js";
import type { Block } from "../../src/shared/transcript.js";
import { createHistorySource, type HistorySource, type RestoredSession } from "../../src/main/core/historySource.js";
import { findInSession } from "../../src/main/core/sessionFind.js";
import { blockOfEvent, lineEventsAt } from "../../src/main/history/index.js";
import { openStore, type StoreClient } from "../../src/main/store/storeClient.js";
import { Planted, plantHistory, type PlantedHistory, type RecordedCli } from "../support/plantedHistory.js";
import { tempDirs } from "../support/tempDirs.js";

/** Everything of a block the index could have matched, as text. */
function textOf(block: Block): string {
  const call = block.call;
  const parts = [block.text ?? ""];
  if (call !== undefined) parts.push(call.name, JSON.stringify(call.input), call.result?.text ?? "", call.subagent?.prompt ?? "", call.subagent?.description ?? "");
  return parts.join("\n");
}

/** The block a place names, found the way the window finds it: under each of its cards' full step lists. */
async function blockAt(session: RestoredSession, place: FoundPlace): Promise<Block | undefined> {
  let list: readonly Block[] = session.transcript().blocks;
  for (const card of place.cards) {
    if (list.find((b) => b.id === card)?.call?.subagent === undefined) return undefined;
    list = await session.loadSubagentBlocks(card);
  }
  return list.find((b) => b.id === place.blockId);
}

describe.each<RecordedCli>(["2.1.197", "2.1.332"])("find in a restored session, real CLI %s history", { timeout: 60_000 }, (cli) => {
  const tempDir = tempDirs(`baton-find-${cli}-`, "all");
  let h: PlantedHistory;
  let store: StoreClient;
  let history: HistorySource;
  let session: RestoredSession;
  beforeAll(async () => {
    const tmp = tempDir();
    h = plantHistory(path.join(tmp, "projects"), cli);
    store = await openStore({ dbPath: path.join(tmp, "history.db") });
    await store.index(h.projectsDir);
    history = createHistorySource({ projectsDir: h.projectsDir, store });
    session = await history.restore(h.sessionId, h.project);
    await session.loaded;
  });
  afterAll(async () => {
    session?.close?.();
    await store?.close();
  });

  it("the end of a 3 MB output two agents deep: its Bash call, under the Top and the Middle agent's cards", async () => {
    const found = await findInSession(history, session, Planted.deepOutput);
    expect(found.places).toHaveLength(1);
    const place = found.places[0]!;
    expect(place).toMatchObject({ kind: "tool_output", file: h.depth2File, blockId: "toolu_planted_deep_output" });
    expect(place.cards).toHaveLength(2);
    const top = session.transcript().blocks.find((b) => b.id === place.cards[0]);
    expect(top?.call?.subagent?.description).toBe("Top agent");
    const middle = (await session.loadSubagentBlocks(place.cards[0]!)).find((b) => b.id === place.cards[1]);
    expect(middle?.call?.subagent?.description).toBe("Middle agent");
    const call = (await blockAt(session, place))?.call;
    expect(call?.name).toBe("Bash");
    expect(call?.result?.text.endsWith(`${Planted.deepOutput} mismatch`)).toBe(true);
  });

  it("thinking of the main agent: its block at the top level, no card around it", async () => {
    const found = await findInSession(history, session, Planted.thinking);
    expect(found.places).toHaveLength(1);
    expect(found.places[0]).toMatchObject({ kind: "thinking", cards: [] });
    const block = await blockAt(session, found.places[0]!);
    expect(block?.kind).toBe("thinking");
    expect(block?.text).toContain(Planted.thinking);
  });

  it("the session's own hits only, none of the copy's in the other project folder", async () => {
    const found = await findInSession(history, session, Planted.shared);
    expect(found.places.map((p) => p.file)).toEqual([h.mainFile]);
    expect((await blockAt(session, found.places[0]!))?.text).toContain(Planted.shared);
  });

  it("every hit of common words: placed on a block that holds the word, under the cards that hold it, in transcript order", async () => {
    const kinds = new Set<string>();
    for (const word of ["nest", "delegate", "agent", "the", "Bash", "echo", "deepest"]) {
      const found = await findInSession(history, session, word);
      expect(found.places.length, word).toBeGreaterThan(0);
      for (const place of found.places) kinds.add(`${place.kind}${place.cards.length > 0 ? ` at depth ${place.cards.length}` : ""}`);
      // Unplaced: only what no block shows (a title, a prompt the CLI injected as a reminder).
      const rows = await history.searchIn!(word, { sessionId: h.sessionId, project: h.project }, 500);
      const placed = await session.locate!(rows);
      const unshown = rows.filter((_, i) => placed[i] === undefined);
      expect(unshown.length, word).toBe(found.unplaced);
      for (const row of unshown) {
        const event = lineEventsAt(row.file, row.offset)?.[row.event];
        expect(row.kind === "title" || (event?.kind === "user_prompt" && event.isMeta === true), `${word} ${row.ref}`).toBe(true);
      }
      for (const place of found.places) {
        const block = await blockAt(session, place);
        expect(block, `${word} ${place.file} ${place.ref}`).toBeDefined();
        expect(textOf(block!).toLowerCase(), `${word} ${place.ref}`).toContain(word.toLowerCase());
      }
      // Hits of the main file come in the order of its lines.
      const mainLines = found.places.filter((p) => p.file === h.mainFile).map((p) => Number(p.ref.split("#")[0]));
      expect(mainLines).toEqual([...mainLines].sort((a, b) => a - b));
    }
    // Every kind of row a block shows, at every depth, was among them.
    for (const kind of ["prompt", "prompt at depth 1", "text at depth 1", "tool_input", "tool_input at depth 2", "tool_output", "tool_output at depth 1"]) expect([...kinds]).toContain(kind);
  });

  it("a search hit names its tool (an output's call found before it), its agent and the project's folder", async () => {
    const [deep] = await history.search!(Planted.deepOutput, 10);
    expect(deep).toMatchObject({ kind: "tool_output", tool: "Bash", subagentDescription: "Middle agent", cwd: "/home/user/code/deep-nesting", file: h.depth2File });
    expect(deep!.ref).toMatch(/^\d+#\d+$/);
    const spawns = (await history.search!("Middle", 50)).filter((x) => x.kind === "tool_input");
    expect(spawns.map((x) => [x.tool, x.toolDescription])).toContainEqual(["Agent", "Middle agent"]);
  });

  it("a text block's id counts the blocks of its line before it, as the hub numbers them", () => {
    const base = { parentToolUseId: null, messageId: "m1", uuid: "u1" } as const;
    const events = [
      { kind: "assistant_block", ...base, block: { type: "thinking", thinking: "t", signature: "" } },
      { kind: "assistant_block", ...base, block: { type: "tool_use", id: "toolu_1", name: "Bash", input: {} } },
      { kind: "assistant_block", ...base, block: { type: "text", text: "x" } },
    ] as const;
    expect(blockOfEvent(events as never, 0, false)).toBe("u1:0");
    expect(blockOfEvent(events as never, 1, false)).toBe("toolu_1");
    expect(blockOfEvent(events as never, 2, false)).toBe("u1:2");
    const prompt = [{ kind: "user_prompt", parentToolUseId: null, uuid: "u2", text: "hi" }] as const;
    expect(blockOfEvent(prompt as never, 0, false)).toBe("u2");
    expect(blockOfEvent(prompt as never, 0, true)).toBe("card");
  });
});
