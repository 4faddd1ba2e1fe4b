// Faults survived: a permission request pending when the CLI dies, and when the window closes.
// Killed, the request leaves the queue and its card says it was withdrawn (never answered, no live
// Allow); the window gone past the grace period, the request fails closed: answered deny, and the
// CLI hands the denial to the model. Either way nothing ran, and the tab takes a new prompt.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectFolderName } from "../../src/main/platform/projectsDir.js";
import { bashCall, text } from "../support/scenarios/types.js";
import { childrenRunning, theChild } from "../support/faults/cliProcesses.js";
import { allBlocks, noticesOf, startFaultApp, stillSpinning, value, type FaultApp } from "../support/faults/faultApp.js";
import { toolResultText } from "../support/model/toolResults.js";

const GraceMs = 2000;

describe("faults: a permission request pending when the CLI dies or the window closes", () => {
  let app: FaultApp;
  let cliName: string;

  beforeAll(async () => {
    const resumed = { blocks: [text("Carrying on without the file.")] };
    app = await startFaultApp(
      {
        // A marker per tab: each tab's conversation is its own scripted agent.
        main: [{ blocks: [text("unused")] }],
        DIES: [{ blocks: [bashCall("touch killed-while-asking.txt", "Create a file")] }, resumed, resumed],
        AWAY: [{ blocks: [bashCall("touch nobody-answered.txt", "Create a file")] }, { blocks: [text("Told no, so I stopped.")] }, { blocks: [text("Here again.")] }],
      },
      { cwdName: "fault-permission", manager: { permissionGraceMs: GraceMs } },
    );
    cliName = path.basename(app.env.claudePath);
  });
  afterAll(() => app?.close());

  it("the CLI killed while a request waits: the request leaves the queue, its card says withdrawn, the next prompt resumes", async () => {
    const { service, env } = app;
    const { tab, watch } = await app.open();
    value(await service.sendPrompt(tab.tabId, "[[DIES]] make the file"));
    const asked = await watch.waitFor("the Bash request", () => watch.pending()[0]);
    expect(asked).toMatchObject({ toolName: "Bash" });
    // Killed once the CLI has saved the call it asks about, so the next prompt can resume (a CLI
    // killed before it saved anything: faultCliDeath.test.ts).
    const file = path.join(env.projectsDir, projectFolderName(env.cwd), `${watch.transcript().sessionId}.jsonl`);
    await expect.poll(() => fs.existsSync(file) && fs.readFileSync(file, "utf8").includes(asked.toolUseId), { timeout: 30_000 }).toBe(true);

    process.kill(theChild(cliName).pid, "SIGKILL");
    const after = await watch.waitFor("the tab to say the CLI stopped", () => (watch.transcript().status === "error" ? watch.transcript() : undefined));
    expect(noticesOf(after, "error").join("\n")).toMatch(/killed by SIGKILL/);
    await watch.waitFor("the queue to empty", () => (watch.pending().length === 0 ? true : undefined));
    const card = allBlocks(after.blocks).find((b) => b.call?.toolUseId === asked.toolUseId)?.call;
    expect(card).toMatchObject({ status: "stopped", permission: { requestId: asked.requestId, state: "cancelled" } });
    expect(stillSpinning(after)).toEqual([]);
    // An answer to the request now is refused, never handed to a CLI.
    const late = await service.answerPermission(tab.tabId, asked.requestId, { behavior: "allow" });
    expect(late.ok).toBe(false);
    expect(fs.existsSync(path.join(env.cwd, "killed-while-asking.txt"))).toBe(false);

    value(await service.sendPrompt(tab.tabId, "go on"));
    await watch.idleWith("Carrying on without the file.");
    expect(fs.existsSync(path.join(env.cwd, "killed-while-asking.txt"))).toBe(false);
    value(await service.closeTab(tab.tabId));
  });

  it("the window closed while a request waits: past the grace period it is answered deny, the model is told, the session goes on", async () => {
    const { service, env, model } = app;
    const { tab, watch } = await app.open();
    value(await service.sendPrompt(tab.tabId, "[[AWAY]] make the file"));
    const asked = await watch.waitFor("the Bash request", () => watch.pending()[0]);

    const reopen = app.closeWindow();
    await model.waitForRequest((r) => r.agent === "AWAY" && r.turn === 1, 60_000);
    const denial = toolResultText(model, "AWAY", asked.toolUseId);
    expect(denial).toContain("Nobody is at Baton's window to answer; denied.");
    reopen();

    const done = await watch.idleWith("Told no, so I stopped.");
    expect(watch.pending()).toEqual([]);
    const card = allBlocks(done.blocks).find((b) => b.call?.toolUseId === asked.toolUseId)?.call;
    expect(card).toMatchObject({ status: "denied", permission: { state: "denied", decidedBy: "window-closed" } });
    expect(stillSpinning(done)).toEqual([]);
    expect(fs.existsSync(path.join(env.cwd, "nobody-answered.txt"))).toBe(false);
    expect(childrenRunning(cliName)).toHaveLength(1);

    value(await service.sendPrompt(tab.tabId, "still there?"));
    await watch.idleWith("Here again.");
  });
});
