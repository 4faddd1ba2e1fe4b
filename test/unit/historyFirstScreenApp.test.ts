// Opening a big past session in the app core: the tab shows its newest blocks at once (with a
// notice that the rest is loading), then the whole session replaces them; closing the tab early
// stops the background read.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TranscriptDelta } from "../../src/shared/api.js";
import { applyDelta, denormalize, emptyTranscriptState } from "../../src/shared/delta/index.js";
import type { Transcript } from "../../src/shared/transcript.js";
import { createHistorySource } from "../../src/main/core/historySource.js";
import { SessionManager } from "../../src/main/core/sessionManager.js";
import { EarlierBlocksNoticeId } from "../../src/main/history/firstScreen.js";
import { restoreSession } from "../../src/main/history/restore.js";
import { writeBigSession, type SessionWriter } from "./historyFirstScreenKit.js";
import { tempDirs } from "../support/tempDirs.js";

const WaitMs = 60_000;

/** Every transcript the tab's subscribers see, until `done` holds. */
function watch(manager: SessionManager, tabId: string, done: (t: Transcript) => boolean): Promise<Transcript[]> {
  return new Promise((resolve, reject) => {
    let state = emptyTranscriptState();
    const seen: Transcript[] = [];
    const timer = setTimeout(() => reject(new Error(`timed out after ${seen.length} transcripts`)), WaitMs);
    const stop = manager.subscribeTranscript(tabId, (delta: TranscriptDelta) => {
      state = applyDelta(state, delta);
      const t = denormalize(state);
      seen.push(t);
      if (!done(t)) return;
      clearTimeout(timer);
      queueMicrotask(stop);
      resolve(seen);
    });
  });
}

describe("opening a big past session in a tab", () => {
  const tempDir = tempDirs("baton-first-screen-app-", "all");
  let dir: string;
  let session: SessionWriter;
  let manager: SessionManager;

  beforeAll(() => {
    dir = tempDir();
    session = writeBigSession(dir, 4 * 1024 * 1024);
    manager = new SessionManager({ claudePath: "claude-not-needed", history: createHistorySource({ projectsDir: dir }), publishIntervalMs: 5 });
  }, 60_000);

  afterAll(async () => {
    await manager?.shutdown();
  });

  it("shows the newest blocks first, then the whole session", async () => {
    const full = await restoreSession(session.file);
    const tab = await manager.openSession(session.sessionId);
    expect(tab).toMatchObject({ live: false, sessionId: session.sessionId, title: "Conducting a big session" });
    const seen = await watch(manager, tab.tabId, (t) => t.blocks.length === full.transcript.blocks.length);
    const first = seen[0]!;
    expect(first.blocks[0]?.id).toBe(EarlierBlocksNoticeId);
    expect(first.blocks.length).toBeLessThan(full.transcript.blocks.length / 4);
    const last = seen.at(-1)!;
    expect(last.blocks.some((b) => b.id === EarlierBlocksNoticeId)).toBe(false);
    expect(last.blocks.map((b) => b.id)).toEqual(full.transcript.blocks.map((b) => b.id));
    // Subagent cards load their sidechains once the session is whole.
    const agent = last.blocks.find((b) => b.call?.subagent?.sidechainPath !== undefined)!;
    const blocks = await manager.loadSubagentBlocks(tab.tabId, agent.id);
    expect(blocks.length).toBeGreaterThan(0);
    await manager.closeTab(tab.tabId);
  });

  it("a tab closed while the rest still loads stops the read, and nothing is published for it", async () => {
    const history = createHistorySource({ projectsDir: dir });
    const restored = await history.restore(session.sessionId);
    expect(restored.loaded).toBeDefined();
    restored.close?.();
    const outcome = await restored.loaded!;
    expect(outcome.error).toBeDefined();
    expect(restored.transcript().blocks[0]).toMatchObject({ id: EarlierBlocksNoticeId, level: "error" });
  });
});
