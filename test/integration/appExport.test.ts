// The window's export through the typed API (issue 34) on a live session of the real CLI: nothing
// to export before the CLI has written the session; after a turn, the session's own history file,
// with the subagent's steps read from its sidechain, comes back as the file the page saves.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BatonService } from "../../src/main/core/batonService.js";
import { serviceAppFor, type ServiceApp } from "../support/appManager.js";
import { watchTab } from "../support/tabWatch.js";
import type { CliEnv } from "../support/cliEnv.js";
import { agentCall, bashCall, text } from "../support/scenarios/types.js";
import { value } from "../support/apiValue.js";
import { sessionLinesHolding } from "../support/cliTranscripts.js";

const WaitMs = 60_000;

/** Resolves once the tab's transcript is idle with `answer` in it (a subscribed window's view of it). */
async function answered(service: BatonService, tabId: string, answer: string): Promise<void> {
  const watch = watchTab(service, tabId, WaitMs);
  try {
    await watch.idleWith(answer);
  } finally {
    watch.stop();
  }
}

describe("exportSession on a live session", () => {
  let app: ServiceApp;
  let env: CliEnv;
  let service: BatonService;

  beforeAll(async () => {
    app = await serviceAppFor({
      main: [{ blocks: [agentCall("Echo via sub", "[[SUB]] echo something", { run_in_background: false })] }, { blocks: [text("Export session done.")] }],
      SUB: [{ blocks: [bashCall("echo from-the-sidechain", "Echo")] }, { blocks: [text("Sub echoed.")] }],
    }, "app-export");
    ({ env, service } = app);
  });

  afterAll(() => app?.close());

  it("has nothing to export before the first turn, then the whole session with its subagent's steps", async () => {
    const tab = value(await service.newSession({ cwd: env.cwd, permissionMode: "bypassPermissions" }));
    const choices = { format: "md", toolOutputs: true, thinking: true } as const;
    // No id yet, or an id whose file the CLI has not written: either way, nothing to export.
    expect(await service.exportSession(tab.tabId, choices)).toMatchObject({ ok: false, error: { code: "not_found" } });

    const done = answered(service, tab.tabId, "Export session done.");
    value(await service.sendPrompt(tab.tabId, "delegate an echo for the export"));
    await done;
    const sessionId = value(await service.listTabs()).find((t) => t.tabId === tab.tabId)?.sessionId ?? "";
    await sessionLinesHolding(env.env, sessionId, ["Export session done."], WaitMs);
    const md = value(await service.exportSession(tab.tabId, choices));
    expect(md.mediaType).toBe("text/markdown; charset=utf-8");
    expect(md.fileName).toMatch(/^delegate-an-echo-for-the-export-[0-9a-f]{8}\.md$/);
    expect(md.text.startsWith("# delegate an echo for the export\n")).toBe(true);
    expect(md.text).toContain("<summary>✓ Subagent general-purpose: Echo via sub (completed");
    // The subagent's own Bash call and its output come from its sidechain file.
    expect(md.text).toContain("echo from-the-sidechain");
    expect(md.text).toContain("Export session done.");

    const html = value(await service.exportSession(tab.tabId, { format: "html", toolOutputs: false, thinking: true }));
    expect(html.fileName.endsWith(".html")).toBe(true);
    expect(html.text).toContain('<details class="agent depth-1" data-depth="1">');
    expect(html.text).toContain("Left out of this export: tool outputs.");
    expect(html.text).not.toContain("<script");
  });

  it("refuses a tab that does not exist", async () => {
    expect(await service.exportSession("no-such-tab", { format: "md", toolOutputs: true, thinking: true })).toMatchObject({ ok: false, error: { code: "not_found" } });
  });
});
