// "Fork from here" and "Edit and resend" through the session manager and the real CLI (issue 37):
// after a three-turn session, a fork from its second prompt opens a new live tab that holds the
// first turn, then the prompt and the new answer; the model's request holds only the first turn
// and the fork's prompt; the original session's file is unchanged byte for byte. Edit and resend
// is the same fork with other words (sent at once, or typed later in the fork's tab). A fork of a
// session opened from history works the same way, and a fork from the first prompt is a new
// session with that prompt. Runs on both CLIs (vitest.config.ts onBothClis).

import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TabInfo } from "../../src/shared/api.js";
import type { Transcript } from "../../src/shared/transcript.js";
import { BatonService } from "../../src/main/core/batonService.js";
import type { SessionManager } from "../../src/main/core/sessionManager.js";
import { cliSessionFile } from "../../src/main/core/sessionFork.js";
import { managerFor } from "../support/appManager.js";
import { createCliEnv, type CliEnv } from "../support/cliEnv.js";
import { startModelServer, type LoggedRequest, type ModelServer } from "../support/modelServer.js";
import { watchTab } from "../support/tabWatch.js";
import { answerLastPrompt } from "../support/echoAnswer.js";
import { value } from "../support/apiValue.js";
import { sessionLinesHolding } from "../support/cliTranscripts.js";

const WaitMs = 60_000;

/** The conversation as the person reads it: each prompt and answer, in order. */
const said = (t: Transcript) => t.blocks.filter((b) => b.kind === "user" || b.kind === "text").map((b) => `${b.kind}: ${b.text ?? ""}`);

/** What a model request carries: each message's role and its words (the CLI's own reminders left out). */
function conversation(request: LoggedRequest): string[] {
  return conversationOf(request.body["messages"] as { role: string; content: unknown }[]);
}

function conversationOf(messages: readonly { role: string; content: unknown }[]): string[] {
  return messages.flatMap((m) => {
    if (m.role !== "user" && m.role !== "assistant") return []; // 2.1.332 sends its environment as a message
    const content = m.content as string | { type: string; text?: string }[];
    const parts = typeof content === "string" ? [content] : content.filter((c) => c.type === "text").map((c) => c.text ?? "");
    return parts.filter((p) => !p.startsWith("<system-reminder>")).map((p) => `${m.role}: ${p}`);
  });
}

describe("fork from a prompt through the real CLI", () => {
  let model: ModelServer;
  let env: CliEnv;
  let manager: SessionManager;
  let service: BatonService;
  let releasePresence: () => void;
  let original: { tab: TabInfo; sessionId: string; file: string; bytes: Buffer; prompts: string[] };

  const lastMainRequest = () => [...model.requests].reverse().find((r) => r.agent === "main")!;

  beforeAll(async () => {
    model = await startModelServer({ main: [answerLastPrompt, answerLastPrompt, answerLastPrompt] });
    env = await createCliEnv({ baseUrl: model.url, cwdName: "app-fork" });
    manager = managerFor(env, { withHistory: true });
    service = new BatonService(manager);
    releasePresence = manager.acquirePresence();

    const tab = value(await service.newSession({ cwd: env.cwd, permissionMode: "bypassPermissions" }));
    const watch = watchTab(service, tab.tabId, WaitMs);
    try {
      value(await service.sendPrompt(tab.tabId, "first"));
      await watch.idleWith("Answer to first.");
      value(await service.sendPrompt(tab.tabId, "second"));
      await watch.idleWith("Answer to second.");
      value(await service.sendPrompt(tab.tabId, "third"));
      const t = await watch.idleWith("Answer to third.");
      const sessionId = t.sessionId;
      const file = cliSessionFile(env.env, sessionId)!;
      expect(file).toBeDefined();
      const prompts = t.blocks.filter((b) => b.kind === "user").map((b) => b.id);
      // 2.1.197 writes a turn's lines after its result: the file is whole once it holds the last prompt and answer.
      await sessionLinesHolding(env.env, sessionId, [prompts[2]!, "Answer to third."], WaitMs);
      original = { tab, sessionId, file, bytes: readFileSync(file), prompts };
    } finally {
      watch.stop();
    }
  });

  afterAll(async () => {
    releasePresence?.();
    await manager?.shutdown();
    await model?.close();
    await env?.cleanup();
  });

  it("a live tab's prompts carry the uuids the CLI wrote to disk", () => {
    const onDisk = readFileSync(original.file, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as { type?: string; uuid?: string; message?: { content?: unknown } })
      .filter((l) => l.type === "user" && typeof l.message?.content === "string")
      .map((l) => l.uuid);
    expect(original.prompts).toEqual(onDisk);
  });

  it("Fork from here (the second prompt): a new tab with the first turn, then the prompt and the new answer; the original is unchanged", async () => {
    const second = original.prompts[1]!;
    const fork = value(await service.forkSession(original.tab.tabId, second, "second again"));
    expect(fork.tabId).not.toBe(original.tab.tabId);
    expect(fork.forkedFrom).toEqual({ sessionId: original.sessionId, promptUuid: second });
    const watch = watchTab(service, fork.tabId, WaitMs);
    try {
      const t = await watch.idleWith("Answer to second again.");
      expect(said(t)).toEqual(["user: first", "text: Answer to first.", "user: second again", "text: Answer to second again."]);
      expect(t.sessionId).not.toBe(original.sessionId);
      expect(conversation(lastMainRequest())).toEqual(["user: first", "assistant: Answer to first.", "user: second again"]);
      expect(value(await service.listTabs()).find((i) => i.tabId === fork.tabId)?.forkedFrom).toEqual({ sessionId: original.sessionId, promptUuid: second });
    } finally {
      watch.stop();
    }
    expect(readFileSync(original.file).equals(original.bytes)).toBe(true);
    value(await service.closeTab(fork.tabId));
  });

  it("Edit and resend: the fork sends the edited words, at once or typed later in the fork's tab", async () => {
    const second = original.prompts[1]!;
    const edited = value(await service.forkSession(original.tab.tabId, second, "second, edited"));
    let watch = watchTab(service, edited.tabId, WaitMs);
    try {
      const t = await watch.idleWith("Answer to second, edited.");
      expect(said(t)).toEqual(["user: first", "text: Answer to first.", "user: second, edited", "text: Answer to second, edited."]);
      expect(conversation(lastMainRequest())).toEqual(["user: first", "assistant: Answer to first.", "user: second, edited"]);
    } finally {
      watch.stop();
    }
    value(await service.closeTab(edited.tabId));

    // No words yet: the tab shows the turns before the prompt and waits for the person's.
    const waiting = value(await service.forkSession(original.tab.tabId, second));
    watch = watchTab(service, waiting.tabId, WaitMs);
    try {
      const before = await watch.waitFor("the first turn", () => (said(watch.transcript()).length === 2 ? watch.transcript() : undefined));
      expect(said(before)).toEqual(["user: first", "text: Answer to first."]);
      value(await service.sendPrompt(waiting.tabId, "typed later"));
      const t = await watch.idleWith("Answer to typed later.");
      expect(said(t)).toEqual(["user: first", "text: Answer to first.", "user: typed later", "text: Answer to typed later."]);
      expect(conversation(lastMainRequest())).toEqual(["user: first", "assistant: Answer to first.", "user: typed later"]);
    } finally {
      watch.stop();
    }
    value(await service.closeTab(waiting.tabId));
    expect(readFileSync(original.file).equals(original.bytes)).toBe(true);
  });

  it("a session opened from history forks the same way, and a fork from the first prompt is a new session with it", async () => {
    // Its CLI writes its last lines as it stops: the file from then on is the one to keep intact.
    value(await service.closeTab(original.tab.tabId));
    const bytes = readFileSync(original.file);
    const restored = value(await service.openSession(original.sessionId));
    expect(restored.kind).toBe("restored");
    const third = original.prompts[2]!;
    const fork = value(await service.forkSession(restored.tabId, third, "third again"));
    let watch = watchTab(service, fork.tabId, WaitMs);
    try {
      const t = await watch.idleWith("Answer to third again.");
      expect(said(t)).toEqual(["user: first", "text: Answer to first.", "user: second", "text: Answer to second.", "user: third again", "text: Answer to third again."]);
      expect(conversation(lastMainRequest())).toEqual(["user: first", "assistant: Answer to first.", "user: second", "assistant: Answer to second.", "user: third again"]);
    } finally {
      watch.stop();
    }

    const fresh = value(await service.forkSession(restored.tabId, original.prompts[0]!, "first, reworded"));
    expect(fresh.forkedFrom).toEqual({ sessionId: original.sessionId, promptUuid: original.prompts[0] });
    watch = watchTab(service, fresh.tabId, WaitMs);
    try {
      const t = await watch.idleWith("Answer to first, reworded.");
      expect(said(t)).toEqual(["user: first, reworded", "text: Answer to first, reworded."]);
      expect(conversation(lastMainRequest())).toEqual(["user: first, reworded"]);
    } finally {
      watch.stop();
    }
    expect(readFileSync(original.file).equals(bytes)).toBe(true);

    // A uuid that is no prompt of the session: nothing starts.
    const unknown = await service.forkSession(restored.tabId, randomUUID(), "nothing");
    expect(unknown).toMatchObject({ ok: false, error: { code: "not_found" } });
  });
});
