// Past sessions through the session manager with the real CLI: a finished session shows up in
// listSessions, opens read-only in a restored tab whose subagent card loads its own transcript on
// demand, and resumes (`--resume`) in a live tab that continues the same conversation.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Transcript } from "../../src/shared/transcript.js";
import type { BatonService } from "../../src/main/core/batonService.js";
import { serviceAppFor, type ServiceApp } from "../support/appManager.js";
import { transcriptWhen } from "../support/tabWatch.js";
import type { CliEnv } from "../support/cliEnv.js";
import { agentCall, bashCall, text } from "../support/scenarios/types.js";
import { value } from "../support/apiValue.js";

const WaitMs = 60_000;

/** Subscribes to a tab until `done` holds for its transcript. */
function waitForTranscript(service: BatonService, tabId: string, done: (t: Transcript) => boolean): Promise<Transcript> {
  return transcriptWhen(service, tabId, done, WaitMs);
}

describe("history through the session manager", () => {
  let app: ServiceApp;
  let env: CliEnv;
  let service: BatonService;
  let sessionId: string;

  beforeAll(async () => {
    app = await serviceAppFor({
      // Foreground on every CLI (2.1.332 backgrounds an Agent call unless told not to).
      main: [{ blocks: [agentCall("Echo via sub", "[[SUB]] echo something", { run_in_background: false })] }, { blocks: [text("First session done.")] }, { blocks: [text("Resumed and answering.")] }],
      SUB: [{ blocks: [bashCall("echo from-sub", "Echo")] }, { blocks: [text("Sub echoed.")] }],
    }, "app-history");
    ({ env, service } = app);

    const tab = value(await service.newSession({ cwd: env.cwd, permissionMode: "bypassPermissions" }));
    const done = waitForTranscript(service, tab.tabId, (t) => t.status === "idle" && t.blocks.some((b) => b.text === "First session done."));
    value(await service.sendPrompt(tab.tabId, "delegate an echo"));
    sessionId = (await done).sessionId;
    value(await service.closeTab(tab.tabId));
  });

  afterAll(() => app?.close());

  it("lists the finished session", async () => {
    const sessions = value(await service.listSessions());
    expect(sessions.map((s) => s.sessionId)).toContain(sessionId);
    expect(sessions.find((s) => s.sessionId === sessionId)).toMatchObject({ title: "delegate an echo", promptCount: 1 });
  });

  it("opens it read-only; the subagent card loads its own blocks on demand", async () => {
    const tab = value(await service.openSession(sessionId));
    expect(tab).toMatchObject({ live: false, sessionId });
    expect(value(await service.openSession(sessionId)).tabId).toBe(tab.tabId);
    expect(await service.sendPrompt(tab.tabId, "hi")).toMatchObject({ ok: false, error: { code: "read_only" } });

    const restored = await waitForTranscript(service, tab.tabId, (t) => t.blocks.some((b) => b.call?.name === "Agent"));
    const agent = restored.blocks.find((b) => b.call?.name === "Agent")!;
    expect(agent.call?.subagent?.sidechainPath).toBeDefined();

    const loadedView = waitForTranscript(service, tab.tabId, (t) =>
      t.blocks.some((b) => b.call?.subagent?.blocks.some((n) => n.call?.name === "Bash" && n.call.input["command"] === "echo from-sub") === true),
    );
    const blocks = value(await service.loadSubagentBlocks(tab.tabId, agent.id));
    expect(blocks.some((b) => b.call?.name === "Bash" && b.call.status === "completed")).toBe(true);
    const after = await loadedView;
    expect(after.blocks.find((b) => b.id === agent.id)?.call?.subagent?.sidechainPath).toBeUndefined();
    value(await service.closeTab(tab.tabId));
  });

  it("resumes it live: the same conversation goes on", async () => {
    const tab = value(await service.newSession({ cwd: env.cwd, permissionMode: "bypassPermissions", resumeSessionId: sessionId }));
    expect(tab.live).toBe(true);
    const done = waitForTranscript(service, tab.tabId, (t) => t.status === "idle" && t.blocks.some((b) => b.text === "Resumed and answering."));
    value(await service.sendPrompt(tab.tabId, "and now?"));
    const t = await done;
    expect(t.sessionId).toBe(sessionId);
    const last = app.model.requests.filter((r) => r.agent === "main" && r.kind === "agent").at(-1);
    expect(JSON.stringify(last?.body)).toContain("delegate an echo");
  });
});
