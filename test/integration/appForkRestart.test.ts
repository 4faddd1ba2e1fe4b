// A fork's link to the session it came from survives a restart (issue 37), through the app core
// and the real CLI: a fork is made from the second prompt of a two-turn session, then Baton closes
// (every tab, the store) and a new app core opens the same data folder. The session list names the
// fork's origin and prompt, the fork opened from history carries the link on its tab (the graph's
// edge), and so does its live tab once resumed; the origin carries none. The CLI's fork file does
// not name its origin (docs/protocol-notes.md): the link comes from Baton's audit trail. Runs on
// both CLIs (vitest.config.ts onBothClis).

import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppCore } from "../../src/main/app/createAppCore.js";
import { appCoreFor } from "../support/appManager.js";
import { cliSessionFile } from "../../src/main/core/sessionFork.js";
import { createCliEnv, type CliEnv } from "../support/cliEnv.js";
import { startModelServer, type ModelServer } from "../support/modelServer.js";
import { watchTab } from "../support/tabWatch.js";
import { answerLastPrompt } from "../support/echoAnswer.js";
import { value } from "../support/apiValue.js";
import { sessionLinesHolding } from "../support/cliTranscripts.js";

const WaitMs = 60_000;

/** Where a line holds `value`: `<line type>.<key path>` for each place. */
function placesOf(line: Record<string, unknown>, value: string): string[] {
  const places: string[] = [];
  const walk = (o: unknown, at: string): void => {
    if (o === value) places.push(at);
    else if (o !== null && typeof o === "object") for (const [k, v] of Object.entries(o)) walk(v, `${at}.${k}`);
  };
  walk(line, String(line["type"]));
  return places;
}

describe("a fork's link across a restart, through the real CLI", () => {
  let model: ModelServer;
  let env: CliEnv;
  let core: AppCore | undefined;

  const open = (): Promise<AppCore> => appCoreFor(env);

  beforeAll(async () => {
    model = await startModelServer({ main: [answerLastPrompt, answerLastPrompt, answerLastPrompt, answerLastPrompt] });
    env = await createCliEnv({ baseUrl: model.url, cwdName: "app-fork-restart" });
  });

  afterAll(async () => {
    await core?.close();
    await model?.close();
    await env?.cleanup();
  });

  it("the list, the restored fork's tab and its resumed live tab name the session and prompt it was forked from", async () => {
    core = await open();
    let release = core.manager.acquirePresence();
    const tab = value(await core.service.newSession({ cwd: env.cwd, permissionMode: "bypassPermissions" }));
    let watch = watchTab(core.service, tab.tabId, WaitMs);
    let originId: string;
    let second: string;
    try {
      value(await core.service.sendPrompt(tab.tabId, "first"));
      await watch.idleWith("Answer to first.");
      value(await core.service.sendPrompt(tab.tabId, "second"));
      const t = await watch.idleWith("Answer to second.");
      originId = t.sessionId;
      second = t.blocks.filter((b) => b.kind === "user").map((b) => b.id)[1]!;
      await sessionLinesHolding(env.env, originId, [second, "Answer to second."], WaitMs);
    } finally {
      watch.stop();
    }
    const fork = value(await core.service.forkSession(tab.tabId, second, "second again"));
    watch = watchTab(core.service, fork.tabId, WaitMs);
    let forkId: string;
    try {
      forkId = (await watch.idleWith("Answer to second again.")).sessionId;
    } finally {
      watch.stop();
    }
    expect(forkId).not.toBe(originId);
    const link = { sessionId: originId, promptUuid: second };
    release();
    await core.close();
    // The fork's own file does not say where it came from: at most 2.1.332's copied answers name the
    // session their request was made in (2.1.197's name none).
    const forkLines = readFileSync(cliSessionFile(env.env, forkId)!, "utf8").split("\n").filter((l) => l.trim() !== "");
    const naming = forkLines.flatMap((l) => placesOf(JSON.parse(l) as Record<string, unknown>, originId));
    expect(naming.filter((place) => place !== "assistant.requestSessionId")).toEqual([]);

    // A restart: a new app core on the same data folder, no tab open.
    core = await open();
    release = core.manager.acquirePresence();
    try {
      expect(value(await core.service.listTabs())).toEqual([]);
      const list = value(await core.service.listSessions());
      expect(list.find((s) => s.sessionId === forkId)?.forkedFrom).toEqual(link);
      expect(list.find((s) => s.sessionId === originId)).toBeDefined();
      expect(list.find((s) => s.sessionId === originId)?.forkedFrom).toBeUndefined();

      const restored = value(await core.service.openSession(forkId));
      expect(restored).toMatchObject({ kind: "restored", sessionId: forkId, forkedFrom: link });
      const origin = value(await core.service.openSession(originId));
      expect(origin.forkedFrom).toBeUndefined();
      value(await core.service.closeTab(restored.tabId));

      // Resumed in a live tab, the fork keeps its link, and its CLI goes on in the same session.
      const resumed = value(await core.service.newSession({ cwd: env.cwd, permissionMode: "bypassPermissions", resumeSessionId: forkId }));
      expect(resumed).toMatchObject({ kind: "live", forkedFrom: link });
      watch = watchTab(core.service, resumed.tabId, WaitMs);
      try {
        value(await core.service.sendPrompt(resumed.tabId, "third"));
        expect((await watch.idleWith("Answer to third.")).sessionId).toBe(forkId);
      } finally {
        watch.stop();
      }
      expect(value(await core.service.listTabs()).find((t) => t.tabId === resumed.tabId)?.forkedFrom).toEqual(link);
    } finally {
      release();
    }
  });
});
