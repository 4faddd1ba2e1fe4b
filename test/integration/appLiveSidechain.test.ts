// A live tab reconciled with the files the CLI writes as it goes: the real CLI runs a main agent
// that starts an outer subagent that starts an inner one, which runs Bash.
//
// CLI 2.1.197: the inner agent's messages never reach stdout, only its task_* events do
// (docs/protocol-notes.md "Subagents"), so its card is empty live; loading it reads its sidechain,
// returns its Bash call with the output, and puts the steps in the live card too; a card opened
// while its agent still runs keeps up with the file.
//
// CLI 2.1.332 streams every depth (observed with main → A → B → C, A foreground and background:
// each level's prompt, texts, tool calls and results reach stdout tagged with parent_tool_use_id
// and agent_id; depth 3 is the deepest, its agent has no Agent tool). So the inner card is full
// live and needs no file. What still comes only from the file is what the card's cap dropped: a
// nested agent with more steps than a card keeps (MaxNestedBlocks) loads the earliest ones from its
// sidechain, and reading that file into a state that already streamed the rest keeps one copy of
// each step. That test runs on both CLIs (on 2.1.197 the file is the only source of all of them).

import { readFile, rename } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TranscriptDelta } from "../../src/shared/api.js";
import { applyDelta, denormalize, emptyTranscriptState } from "../../src/shared/delta/index.js";
import { MaxNestedBlocks, type Block, type Transcript } from "../../src/shared/transcript.js";
import { BatonService } from "../../src/main/core/batonService.js";
import { findSidechainFiles, projectFolderName } from "../../src/main/history/index.js";
import type { SessionManager } from "../../src/main/core/sessionManager.js";
import { managerFor } from "../support/appManager.js";
import { createCliEnv, testCliVersion, type CliEnv } from "../support/cliEnv.js";
import { startModelServer, type ModelServer, type ScriptTurn } from "../support/modelServer.js";
import { agentCall, bashCall, text } from "../support/scenarios/types.js";
import { gate } from "../support/gate.js";
import { value } from "../support/apiValue.js";

const WaitMs = 60_000;

/** What a subscribed window sees: deltas applied, re-checked on each one until `read` answers. */
function watch(service: BatonService, tabId: string) {
  let state = emptyTranscriptState();
  const waiters = new Set<() => void>();
  const stop = service.onTranscriptDelta(tabId, (delta: TranscriptDelta) => {
    state = applyDelta(state, delta);
    for (const w of [...waiters]) w();
  });
  const current = (): Transcript => denormalize(state);
  const waitFor = <T>(what: string, read: (t: Transcript) => T | undefined): Promise<T> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const found = read(current());
        if (found === undefined) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`timed out waiting for ${what}; last: ${JSON.stringify(current()).slice(0, 600)}`));
      }, WaitMs);
      waiters.add(check);
      check();
    });
  return { current, waitFor, stop };
}

/** Polls `read` (a file read, which no event announces) until it answers. */
async function until<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + WaitMs;
  for (;;) {
    const found = await read();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const agentIn = (blocks: readonly Block[] | undefined, description: string): Block | undefined =>
  blocks?.find((b) => b.call?.subagent?.description === description);

/** The tab's transcript as a window subscribing now gets it (its first delta is the whole state). */
function snapshot(service: BatonService, tabId: string): Transcript {
  const fresh = watch(service, tabId);
  fresh.stop();
  return fresh.current();
}

/** What each step is: its Bash command, else its tool's name, else its text. */
const stepNames = (blocks: readonly Block[]): string[] =>
  blocks.map((b) => {
    const command = b.call?.input?.["command"];
    return typeof command === "string" ? command : (b.call?.name ?? b.text ?? b.kind);
  });

/**
 * Whether the CLI streams a nested agent's own lines (2.1.332 at every depth, 2.1.197 at none):
 * the tests that differ whole are chosen by it. testCliVersion() is the env.cliVersion createCliEnv
 * runs, known before beforeAll.
 */
const streamsNested = testCliVersion() !== "2.1.197";

const PerTurn = 25;
const Turns = 5;
const ManySteps = PerTurn * Turns;

/** Turns of cheap Bash calls: `echo step-1` … `echo step-125`, more than a card keeps. */
function manySteps(): ScriptTurn[] {
  return Array.from({ length: Turns }, (_, t) => ({
    blocks: Array.from({ length: PerTurn }, (_, i) => {
      const n = t * PerTurn + i + 1;
      return bashCall(`echo step-${n}`, `Step ${n}`);
    }),
  }));
}

describe("a live tab reads what the stream left out from the session's files", () => {
  let model: ModelServer;
  let env: CliEnv;
  let manager: SessionManager;
  let service: BatonService;
  let tabId: string;
  let view: ReturnType<typeof watch>;
  let outerId: string;
  let innerId: string;
  // The slow inner agent waits after its Bash call until the test has read it mid-run.
  const midRunRead = gate();

  beforeAll(async () => {
    model = await startModelServer({
      main: [
        // Foreground on every CLI (2.1.332 backgrounds a depth-1 Agent call unless told not to).
        { blocks: [text("Delegating."), agentCall("Outer agent", "[[SUB-A]] delegate further", { run_in_background: false })] },
        { blocks: [text("All finished.")] },
        { blocks: [agentCall("Slow outer", "[[SUB-C]] delegate something slow", { run_in_background: false })] },
        { blocks: [text("Slow work finished.")] },
        { blocks: [agentCall("Busy outer", "[[SUB-E]] delegate many steps", { run_in_background: false })] },
        { blocks: [text("Busy work finished.")] },
      ],
      "SUB-A": [
        { blocks: [text("Delegating to an inner agent."), agentCall("Inner agent", "[[SUB-B]] run echo")] },
        { blocks: [text("Inner agent reported back.")] },
      ],
      "SUB-B": [{ blocks: [bashCall("echo from-depth-two", "Echo from the inner agent")] }, { blocks: [text("Inner done.")] }],
      "SUB-C": [{ blocks: [agentCall("Slow inner", "[[SUB-D]] echo, then think a while")] }, { blocks: [text("Slow inner reported.")] }],
      "SUB-D": [{ blocks: [bashCall("echo first-of-slow", "First step")] }, { blocks: [text("Slow inner done.")], waitFor: () => midRunRead.opened }],
      "SUB-E": [{ blocks: [agentCall("Busy inner", "[[SUB-F]] run many commands")] }, { blocks: [text("Busy inner reported.")] }],
      "SUB-F": [...manySteps(), { blocks: [text("Ran every step.")] }],
    });
    env = await createCliEnv({ baseUrl: model.url, cwdName: "app-live-sidechain" });
    manager = managerFor(env, { withHistory: true });
    service = new BatonService(manager);
    const tab = value(await service.newSession({ cwd: env.cwd, permissionMode: "bypassPermissions" }));
    tabId = tab.tabId;
    view = watch(service, tabId);
    value(await service.sendPrompt(tabId, "nest two agents"));
    const done = await view.waitFor("the turn's end", (t) => (t.status === "idle" && t.blocks.some((b) => b.text === "All finished.") ? t : undefined));
    const outer = agentIn(done.blocks, "Outer agent");
    const inner = agentIn(outer?.call?.subagent?.blocks, "Inner agent");
    outerId = outer!.id;
    innerId = inner!.id;
  });

  afterAll(async () => {
    view?.stop();
    await manager?.shutdown();
    await model?.close();
    await env?.cleanup();
  });

  it("says the tab is a live one", async () => {
    expect(value(await service.listTabs()).find((t) => t.tabId === tabId)).toMatchObject({ kind: "live" });
  });

  it.skipIf(streamsNested)("shows the inner card empty live, offering its sidechain file", async () => {
    const inner = agentIn(agentIn(view.current().blocks, "Outer agent")?.call?.subagent?.blocks, "Inner agent")?.call?.subagent;
    expect(inner?.status).toBe("completed");
    expect(inner?.taskId).toMatch(/^a[0-9a-f]{16}$/);
    expect(inner?.blocks).toEqual([]);
    expect(inner?.sidechainPath).toMatch(new RegExp(`/subagents/agent-${inner?.taskId}\\.jsonl$`));
    // The outer card's steps as a load answers them (the window puts them in place of its own
    // copies, whichever came last) offer the inner card's file too: without it, it could not open.
    const outerSteps = value(await service.loadSubagentBlocks(tabId, outerId));
    expect(agentIn(outerSteps, "Inner agent")?.call?.subagent?.sidechainPath).toBe(inner?.sidechainPath);
  });

  it.skipIf(streamsNested)("loads nothing and fails nothing while the file is missing, then reads it once it is there", async () => {
    const path = agentIn(agentIn(view.current().blocks, "Outer agent")?.call?.subagent?.blocks, "Inner agent")!.call!.subagent!.sidechainPath!;
    // The CLI appends to the file a little after it streams: moved away while it still writes, the
    // file would be made again with the last lines only, and moving it back would lose them.
    await until("the inner agent's last line in its file", async () =>
      (await readFile(path, "utf8").catch(() => "")).includes("Inner done.") ? true : undefined,
    );
    await rename(path, `${path}.away`);
    try {
      expect(value(await service.loadSubagentBlocks(tabId, innerId))).toEqual([]);
    } finally {
      await rename(`${path}.away`, path);
    }

    // The card follows the file as the CLI writes it: wait until it shows the agent's last step too.
    const cardShowsBash = view.waitFor("the inner card's Bash call and last step", (t) => {
      const record = agentIn(agentIn(t.blocks, "Outer agent")?.call?.subagent?.blocks, "Inner agent")?.call?.subagent;
      const shown = record?.blocks ?? [];
      return shown.some((b) => b.call?.name === "Bash") && shown.some((b) => b.text === "Inner done.") ? record : undefined;
    });
    // The CLI writes a transcript a little after the lines it streams: read until the agent's last line is there.
    const blocks = await until("the inner agent's last step on disk", async () => {
      const read = value(await service.loadSubagentBlocks(tabId, innerId));
      return read.some((b) => b.text === "Inner done.") ? read : undefined;
    });
    const bash = blocks.find((b) => b.call?.name === "Bash")?.call;
    expect(bash).toMatchObject({ status: "completed", input: { command: "echo from-depth-two" } });
    expect(bash?.result?.text).toContain("from-depth-two");
    expect(blocks.map((b) => b.call?.name ?? b.text)).toEqual(["Bash", "Inner done."]);

    const record = await cardShowsBash;
    expect(record.blocks.map((b) => b.id)).toEqual(blocks.map((b) => b.id));
    expect(record.blocks.find((b) => b.call?.name === "Bash")?.call?.result?.text).toContain("from-depth-two");
    expect(record.sidechainPath).toBeUndefined();
  });

  it.runIf(streamsNested)("shows the inner card's steps live as they streamed, and loads them without its file", async () => {
    const inner = agentIn(agentIn(view.current().blocks, "Outer agent")?.call?.subagent?.blocks, "Inner agent")?.call?.subagent;
    expect(inner?.status).toBe("completed");
    expect(inner?.spawnDepth).toBe(2);
    expect(stepNames(inner?.blocks ?? [])).toEqual(["echo from-depth-two", "Inner done."]);
    expect(inner?.blocks.find((b) => b.call?.name === "Bash")?.call?.result?.text).toContain("from-depth-two");
    // Nothing to load: a file offered here would make the window read what it already shows.
    expect(inner?.sidechainPath).toBeUndefined();
    const outerSteps = value(await service.loadSubagentBlocks(tabId, outerId));
    expect(agentIn(outerSteps, "Inner agent")?.call?.subagent?.sidechainPath).toBeUndefined();

    // The steps are the streamed ones, with the file there or not.
    const file = await until("the inner agent's sidechain file", async () => {
      const files = await findSidechainFiles(join(env.projectsDir, projectFolderName(env.cwd)), view.current().sessionId);
      const path = files.find((f) => f.agentId === inner?.taskId)?.path;
      // Moved away only once the CLI has written its last line (see the test above).
      return path && (await readFile(path, "utf8")).includes("Inner done.") ? path : undefined;
    });
    await rename(file, `${file}.away`);
    try {
      expect(value(await service.loadSubagentBlocks(tabId, innerId)).map((b) => b.id)).toEqual(inner?.blocks.map((b) => b.id));
    } finally {
      await rename(`${file}.away`, file);
    }
  });

  it("reads again without doubling anything, and leaves the streamed cards as they were", async () => {
    const before = view.current();
    const again = value(await service.loadSubagentBlocks(tabId, innerId));
    expect(again.map((b) => b.call?.name ?? b.text)).toEqual(["Bash", "Inner done."]);
    const outer = agentIn(before.blocks, "Outer agent")?.call?.subagent;
    // The outer agent streamed its calls: its card is the in-memory one, no disk read needed.
    const outerBlocks = value(await service.loadSubagentBlocks(tabId, outerId));
    expect(outerBlocks.map((b) => b.id)).toEqual(outer?.blocks.map((b) => b.id));
    expect(outerBlocks.filter((b) => b.id === innerId)).toHaveLength(1);
  });

  it("follows a nested agent that is still running: a read mid-run, then the card keeps up by itself", async () => {
    const slowInner = (t: Transcript) => agentIn(agentIn(t.blocks, "Slow outer")?.call?.subagent?.blocks, "Slow inner")?.call?.subagent;
    value(await service.sendPrompt(tabId, "now something slow"));
    const started = await view.waitFor("the slow inner agent", (t) => (slowInner(t)?.taskId ? slowInner(t) : undefined));
    const midRun = await until("the slow inner agent's Bash call on disk", async () => {
      const blocks = value(await service.loadSubagentBlocks(tabId, started.toolUseId));
      return blocks.some((b) => b.call?.name === "Bash" && b.call.status === "completed") ? blocks : undefined;
    });
    expect(slowInner(view.current())?.status).toBe("running");
    expect(midRun.map((b) => b.call?.name ?? b.text)).toEqual(["Bash"]);
    midRunRead.open();

    // No further load: the card gets the later lines by itself (2.1.197: the tab follows the file it
    // read; 2.1.332: they stream), once each.
    const final = await view.waitFor("the slow inner agent's last text in its card", (t) => {
      const record = slowInner(t);
      return record?.status === "completed" && record.blocks.some((b) => b.text === "Slow inner done.") ? record : undefined;
    });
    expect(final.blocks.map((b) => b.call?.name ?? b.text)).toEqual(["Bash", "Slow inner done."]);
    await view.waitFor("the second turn's end", (t) => (t.status === "idle" && t.blocks.some((b) => b.text === "Slow work finished.") ? t : undefined));
  });

  it("loads the steps a nested card's cap left out from its file, and keeps one copy of each", async () => {
    const busyInner = (t: Transcript) => agentIn(agentIn(t.blocks, "Busy outer")?.call?.subagent?.blocks, "Busy inner")?.call?.subagent;
    value(await service.sendPrompt(tabId, "now many steps"));
    const done = await view.waitFor("the third turn's end", (t) => (t.status === "idle" && t.blocks.some((b) => b.text === "Busy work finished.") ? t : undefined));
    const live = busyInner(done)!;
    const expected = [...Array.from({ length: ManySteps }, (_, i) => `echo step-${i + 1}`), "Ran every step."];
    expect(expected.length).toBeGreaterThan(MaxNestedBlocks);
    if (env.cliVersion === "2.1.197") {
      // No nested agent's line streamed: the card is empty and offers its file.
      expect(live.blocks).toEqual([]);
      expect(live.sidechainPath).toBeDefined();
    } else {
      // Every step streamed, and the card kept the newest: the earliest are only in the file.
      expect(stepNames(live.blocks)).toEqual(expected.slice(-MaxNestedBlocks));
      expect(live.droppedBlockCount).toBe(expected.length - MaxNestedBlocks);
      expect(live.sidechainPath).toBeUndefined();
    }

    const all = await until("the busy agent's last step on disk", async () => {
      const read = value(await service.loadSubagentBlocks(tabId, live.toolUseId));
      return read.at(-1)?.text === "Ran every step." ? read : undefined;
    });
    expect(stepNames(all)).toEqual(expected);
    expect(all[0]?.call?.result?.text).toContain("step-1");
    // The card as a window gets it now: the file's newest steps, once each, the others counted.
    const card = busyInner(snapshot(service, tabId))!;
    expect(card.blocks.map((b) => b.id)).toEqual(all.slice(-MaxNestedBlocks).map((b) => b.id));
    expect(card.droppedBlockCount).toBe(expected.length - MaxNestedBlocks);

    const again = value(await service.loadSubagentBlocks(tabId, live.toolUseId));
    expect(again.map((b) => b.id)).toEqual(all.map((b) => b.id));
    expect(busyInner(snapshot(service, tabId))?.blocks.map((b) => b.id)).toEqual(card.blocks.map((b) => b.id));
  });

  it("answers not_found for an agent the tab does not have", async () => {
    expect(await service.loadSubagentBlocks(tabId, "toolu_nope")).toMatchObject({ ok: false, error: { code: "not_found" } });
  });

  it("reopens the closed session as a restored tab whose inner card loads the same steps", async () => {
    const liveInner = agentIn(agentIn(view.current().blocks, "Outer agent")?.call?.subagent?.blocks, "Inner agent")!.call!.subagent!;
    const sessionId = view.current().sessionId;
    view.stop();
    value(await service.closeTab(tabId));
    const restored = value(await service.openSession(sessionId));
    expect(restored).toMatchObject({ kind: "restored", live: false, sessionId });
    value(await service.loadSubagentBlocks(restored.tabId, outerId));
    const blocks = value(await service.loadSubagentBlocks(restored.tabId, innerId));
    expect(blocks.map((b) => b.id)).toEqual(liveInner.blocks.map((b) => b.id));
  });
});
