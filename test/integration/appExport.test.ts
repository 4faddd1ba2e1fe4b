// The window's export through the typed API (issue 34) on a live session of the real CLI: nothing
// to export before the CLI has written the session; after a turn, the session's own history file,
// with the subagent's steps read from its sidechain, comes back as the file the page saves.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BatonService } from "../../src/main/core/batonService.js";
import { serviceAppFor, type ServiceApp } from "../support/appManager.js";
import { watchTab } from "../support/tabWatch.js";
import type { CliEnv } from "../support/cliEnv.js";
import { agentCall, bashCall, text } from "../support/scenarios/types.js";
import fsp from "node:fs/promises";
import path from "node:path";
import { value } from "../support/apiValue.js";

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

/**
 * Resolves once the session's main file holds `text`: the CLI writes its history as it goes, and
 * may write a turn's last line after the turn's result (2.1.197); an export reads that file.
 */
async function fileHolds(projectsDir: string, sessionId: string, text: string): Promise<void> {
  const deadline = Date.now() + WaitMs;
  for (;;) {
    for (const project of await fsp.readdir(projectsDir).catch(() => [])) {
      const content = await fsp.readFile(path.join(projectsDir, project, `${sessionId}.jsonl`), "utf8").catch(() => "");
      if (content.includes(text)) return;
    }
    if (Date.now() > deadline) throw new Error(`the CLI never wrote ${JSON.stringify(text)} to session ${sessionId}'s file`);
    await new Promise((resolve) => setTimeout(resolve, 50)); // looked at again: polling for the state, not waiting out a time
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
    await fileHolds(env.projectsDir, sessionId, "Export session done.");
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
