// The session manager's permission answers through the real CLI, each the answer to a
// `can_use_tool` request (AskUserQuestion's and ExitPlanMode's too): "allow for this session" is
// remembered by the CLI (as in fixtures/recordings/permission-variants), AskUserQuestion answers
// reach the model, and "approve and clear context" stops the planning session and starts a fresh
// one on the plan.

import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PendingPermission, TabInfo } from "../../src/shared/api.js";
import { applyDelta, denormalize, emptyTranscriptState, type TranscriptState } from "../../src/shared/delta/index.js";
import type { Block, Transcript } from "../../src/shared/transcript.js";
import { BatonService } from "../../src/main/core/batonService.js";
import type { SessionManager } from "../../src/main/core/sessionManager.js";
import { managerFor } from "../support/appManager.js";
import { createCliEnv, type CliEnv } from "../support/cliEnv.js";
import { startModelServer, type ModelServer } from "../support/modelServer.js";
import { bashCall, text } from "../support/scenarios/types.js";
import { value } from "../support/apiValue.js";

const WaitMs = 60_000;

/** What a window subscribed to one tab would hold. */
class TabWatcher {
  private state: TranscriptState = emptyTranscriptState();
  private readonly checks = new Set<() => void>();
  readonly pendingSeen: PendingPermission[] = [];
  readonly stop: () => void;

  constructor(service: BatonService, tabId: string) {
    this.stop = service.onTranscriptDelta(tabId, (delta) => {
      this.state = applyDelta(this.state, delta);
      for (const p of delta.pending ?? []) if (!this.pendingSeen.some((s) => s.requestId === p.requestId)) this.pendingSeen.push(p);
      for (const check of [...this.checks]) check();
    });
  }
  get transcript(): Transcript {
    return denormalize(this.state);
  }
  get pending(): readonly PendingPermission[] {
    return this.state.pending;
  }
  waitFor<T>(what: string, read: () => T | undefined): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const value = read();
        if (value === undefined) return;
        this.checks.delete(check);
        clearTimeout(timer);
        resolve(value);
      };
      const timer = setTimeout(() => {
        this.checks.delete(check);
        reject(new Error(`timed out waiting for ${what}`));
      }, WaitMs);
      this.checks.add(check);
      check();
    });
  }
  idleWith(textPart: string): Promise<Transcript> {
    return this.waitFor(`an idle transcript with "${textPart}"`, () => {
      const t = this.transcript;
      return t.status === "idle" && t.blocks.some((b) => b.kind === "text" && b.text?.includes(textPart)) ? t : undefined;
    });
  }
}

const toolBlocks = (t: Transcript, name: string): Block[] => t.blocks.filter((b) => b.call?.name === name);

describe("permission answers through the real CLI", () => {
  let model: ModelServer;
  let env: CliEnv;
  let manager: SessionManager;
  let service: BatonService;
  let releasePresence: () => void;

  beforeAll(async () => {
    model = await startModelServer({
      RULES: [
        { blocks: [bashCall("touch remembered.txt", "Create a file")] },
        { blocks: [bashCall("touch remembered.txt", "Create the same file again")] },
        { blocks: [text("Rules done.")] },
      ],
      ASK: [
        {
          blocks: [
            {
              type: "tool_use",
              name: "AskUserQuestion",
              input: {
                questions: [
                  { question: "Which color?", header: "Color", options: [{ label: "Red", description: "Warm" }, { label: "Blue", description: "Cool" }], multiSelect: false },
                  { question: "Which sizes?", header: "Sizes", options: [{ label: "S", description: "Small" }, { label: "L", description: "Large" }], multiSelect: true },
                ],
              },
            },
          ],
        },
        { blocks: [text("Questions answered.")] },
      ],
      PLAN: [{ blocks: [{ type: "tool_use", name: "ExitPlanMode", input: { plan: "# Plan\n[[FRESH]] do the thing" } }] }, { blocks: [text("Planning session went on.")] }],
      FRESH: [{ blocks: [text("Fresh session on the plan.")] }],
    });
    env = await createCliEnv({ baseUrl: model.url, cwdName: "app-permissions" });
    manager = managerFor(env);
    service = new BatonService(manager);
    releasePresence = manager.acquirePresence();
  });

  afterAll(async () => {
    releasePresence?.();
    await manager?.shutdown();
    await model?.close();
    await env?.cleanup();
  });

  it("'allow for this session' sends the request's rule with destination session; the CLI does not ask again", async () => {
    const tab = value(await service.newSession({ cwd: env.cwd, permissionMode: "default" }));
    const watch = new TabWatcher(service, tab.tabId);
    value(await service.sendPrompt(tab.tabId, "[[RULES]] create a file twice"));
    const request = await watch.waitFor("the Bash request", () => watch.pending.find((p) => p.toolName === "Bash"));
    expect(request.suggestions?.some((s) => s.type === "addRules")).toBe(true);
    value(await service.answerPermission(tab.tabId, request.requestId, { behavior: "allow", scope: "session" }));
    const t = await watch.idleWith("Rules done.");
    const calls = toolBlocks(t, "Bash");
    expect(calls.map((b) => b.call?.status)).toEqual(["completed", "completed"]);
    expect(watch.pendingSeen.filter((p) => p.toolName === "Bash")).toHaveLength(1);
    expect(existsSync(path.join(env.cwd, "remembered.txt"))).toBe(true);
    watch.stop();
  });

  it("AskUserQuestion answers go back keyed by question, multi-select comma-joined", async () => {
    const tab = value(await service.newSession({ cwd: env.cwd, permissionMode: "default" }));
    const watch = new TabWatcher(service, tab.tabId);
    value(await service.sendPrompt(tab.tabId, "[[ASK]] ask me"));
    const request = await watch.waitFor("the question", () => watch.pending.find((p) => p.toolName === "AskUserQuestion"));
    value(await service.answerPermission(tab.tabId, request.requestId, { behavior: "allow", answers: { "Which color?": "Blue", "Which sizes?": ["S", "L"] } }));
    const t = await watch.idleWith("Questions answered.");
    const call = toolBlocks(t, "AskUserQuestion")[0]?.call;
    expect(call?.status).toBe("completed");
    expect(call?.result?.text).toContain('"Which color?"="Blue"');
    expect(call?.result?.text).toContain('"Which sizes?"="S, L"');
    const lastRequest = model.requests.filter((r) => r.agent === "ASK").at(-1);
    expect(JSON.stringify(lastRequest?.body)).toContain("S, L");
    watch.stop();
  });

  it("'approve and clear context' stops the planning turn and opens a fresh tab that starts on the edited plan", async () => {
    const tab = value(await service.newSession({ cwd: env.cwd, permissionMode: "plan" }));
    const watch = new TabWatcher(service, tab.tabId);
    const tabLists: (readonly TabInfo[])[] = [];
    const stopTabs = service.onTabsChanged((tabs) => tabLists.push(tabs));
    value(await service.sendPrompt(tab.tabId, "[[PLAN]] plan something"));
    const request = await watch.waitFor("the plan review", () => watch.pending.find((p) => p.toolName === "ExitPlanMode"));
    const edited = "# Plan (edited)\n[[FRESH]] do the thing carefully";
    value(await service.answerPermission(tab.tabId, request.requestId, { behavior: "allow", plan: edited, clearContext: true }));

    // answerPermission resolves once the fresh tab has started; it is the newest tab.
    const fresh = tabLists.at(-1)?.at(-1);
    expect(fresh?.tabId).not.toBe(tab.tabId);
    expect(fresh?.live).toBe(true);
    const freshWatch = new TabWatcher(service, fresh!.tabId);
    const freshT = await freshWatch.idleWith("Fresh session on the plan.");
    expect(freshT.blocks[0]).toMatchObject({ kind: "user", text: edited });

    const old = await watch.waitFor("the planning turn to stop", () => {
      const t = watch.transcript;
      return t.status !== "running" ? t : undefined;
    });
    expect(toolBlocks(old, "ExitPlanMode")[0]?.call?.permission).toMatchObject({ state: "denied", decidedBy: "user" });
    expect(old.blocks.some((b) => b.text === "Planning session went on.")).toBe(false);
    stopTabs();
    watch.stop();
    freshWatch.stop();
  });
});

