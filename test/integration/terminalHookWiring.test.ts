// The app listens for terminal sessions' hooks (issue 35): createAppCore with terminalHooks starts
// the socket in the run folder of its environment, `baton hook`'s client (askBaton, with the
// endpoint's secret) reaches the core's handler, the person's answer on the card comes back as the
// verdict, a launch with --orchestration reaches it too (a preset's refusal), and closing the app
// removes the endpoint so a later hook asks in the terminal.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HookInput, HookVerdict } from "../../src/shared/terminalHooks.js";
import { createAppCore, type AppCore } from "../../src/main/app/createAppCore.js";
import { askBaton } from "../../src/main/terminal/hookClient.js";
import { readEndpoint } from "../../src/main/terminal/hookEndpoint.js";
import { runFolderPath } from "../../src/main/terminal/runFolder.js";
import { plantHistory, type PlantedHistory } from "../support/plantedHistory.js";
import { watchTab } from "../support/tabWatch.js";
import { tempDirs } from "../support/tempDirs.js";

const WaitMs = 30_000;

describe("Baton's socket reaches the terminal sessions' handler", () => {
  const tempDir = tempDirs("baton-terminal-wiring-", "all");
  let core: AppCore | undefined;
  let planted: PlantedHistory;
  let env: NodeJS.ProcessEnv;
  let release: () => void = () => undefined;

  beforeAll(async () => {
    const home = tempDir();
    planted = plantHistory(path.join(home, "projects"), "2.1.332");
    env = { HOME: home, PATH: process.env["PATH"] ?? "" };
    core = await createAppCore({ projectsDir: planted.projectsDir, claudePath: path.join(home, "no-claude-here"), env, terminalHooks: true });
    release = core.manager.acquirePresence();
  }, 60_000);

  afterAll(async () => {
    release();
    await core?.close();
  });

  it("answers a hook sent over the socket with the person's answer, and asks once Baton has closed", async () => {
    const folder = runFolderPath(env);
    const endpoint = readEndpoint(folder);
    expect(endpoint).toBeDefined();
    const input: HookInput = {
      session_id: planted.sessionId,
      transcript_path: planted.mainFile,
      cwd: "/home/user/code/deep-nesting",
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "npm publish" },
      tool_use_id: "toolu_over_the_socket",
    };
    // No rule decides it: Baton defers to the CLI, whose dialog then comes as a PermissionRequest.
    expect(await askBaton(endpoint!.socket, { secret: endpoint!.secret, input }, WaitMs)).toEqual({ decision: "defer" });
    const { tool_use_id: _, ...asked } = input;
    const verdict: Promise<HookVerdict> = askBaton(endpoint!.socket, { secret: endpoint!.secret, input: { ...asked, hook_event_name: "PermissionRequest" } }, WaitMs);
    const tabId = await new Promise<string>((resolve) => {
      const stop = core!.manager.onTabsChanged((tabs) => {
        const tab = tabs.find((t) => t.sessionId === planted.sessionId && t.terminal === "waiting");
        if (tab === undefined) return;
        queueMicrotask(stop);
        resolve(tab.tabId);
      });
    });
    const tab = watchTab(core!.service, tabId, WaitMs);
    const request = await tab.waitFor("the request on the main agent's card", () => tab.pending().find((p) => p.toolUseId === "toolu_over_the_socket"));
    expect(request.agentId).toBeUndefined();
    const answered = await core!.service.answerPermission(tabId, request.requestId, { behavior: "deny", message: "Publish from CI." });
    expect(answered.ok).toBe(true);
    expect(await verdict).toEqual({ decision: "deny", reason: "Publish from CI." });
    tab.stop();

    // Started with baton claude --orchestration: the envelope says so, and a preset's refusal comes back at once.
    const coder: HookInput = { ...input, agent_id: "a-coder", agent_type: "coder", tool_input: { command: "npm install left-pad" }, tool_use_id: "toolu_preset_over_the_socket" };
    const refused = await askBaton(endpoint!.socket, { secret: endpoint!.secret, input: coder, orchestration: true }, WaitMs);
    expect(refused.decision).toBe("deny");
    expect(refused.reason).toMatch(/coder/);

    await core!.close();
    core = undefined;
    expect(readEndpoint(folder)).toBeUndefined();
    expect(await askBaton(endpoint!.socket, { secret: endpoint!.secret, input }, WaitMs)).toMatchObject({ decision: "ask" });
  });
});
