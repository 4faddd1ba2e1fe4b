// Faults survived: the CLI killed mid-turn. SIGKILL while a subagent's Bash runs and another
// subagent's answer is still streaming from the model: the tab says the CLI stopped and by which
// signal, what streamed so far stays, nothing is left spinning, and the next prompt continues the
// same conversation in a new CLI started with --resume. A CLI killed before it saved anything
// cannot be resumed: the next prompt starts a new conversation and the tab says so.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectFolderName } from "../../src/main/platform/projectsDir.js";
import { agentCall, bashCall, text } from "../support/scenarios/types.js";
import { childrenRunning, commandLine, descendantPids, theChild } from "../support/faults/cliProcesses.js";
import { allBlocks, noticesOf, startFaultApp, stillSpinning, value, type FaultApp } from "../support/faults/faultApp.js";

describe("faults: the CLI killed mid-turn", () => {
  let app: FaultApp;
  let cliName: string;

  beforeAll(async () => {
    app = await startFaultApp(
      {
        main: [
          {
            blocks: [
              text("Checking two things at once."),
              // Foreground (2.1.332 backgrounds an unset call); in one message, so both run at once.
              agentCall("Slow command", "[[SUB-A]] run it", { run_in_background: false }),
              agentCall("Slow writer", "[[SUB-B]] write it", { run_in_background: false }),
            ],
          },
          // The resumed CLI's request counts one or two assistant messages before it (the killed
          // turn's, and on some versions a synthetic one for its unanswered calls).
          { blocks: [text("Back after the crash, same conversation.")] },
          { blocks: [text("Back after the crash, same conversation.")] },
        ],
        // Under 25 s: 2.1.332 refuses a longer `sleep`.
        "SUB-A": [{ blocks: [bashCall("sleep 20", "Sleep a long time")] }, { blocks: [text("never reached")] }],
        // Streams one SSE event every 5 s: still streaming when the CLI is killed.
        "SUB-B": [{ chunkDelayMs: 5000, blocks: [text("A slow answer that never finishes.")] }],
        // Held until the CLI leaves: killed while it waits for the model.
        EARLY: [{ waitFor: (_request, cli) => new Promise((resolve) => cli.signal.addEventListener("abort", resolve)), blocks: [text("never sent")] }],
        FRESH: [{ blocks: [text("A fresh start.")] }],
        BG: [{ blocks: [agentCall("Background job", "[[SUB-BG]] slow work", { run_in_background: true })] }, { blocks: [text("Started it in the background.")] }],
        "SUB-BG": [{ blocks: [bashCall("sleep 20", "Background wait")] }, { blocks: [text("never reached")] }],
      },
      { cwdName: "fault-killed" },
    );
    cliName = path.basename(app.env.claudePath);
  });
  afterAll(() => app?.close());

  it("says the CLI was killed, keeps what streamed, stops every card, and resumes on the next prompt", async () => {
    const { service, model, console } = app;
    const { tab, watch } = await app.open({ permissionMode: "bypassPermissions" });
    value(await service.sendPrompt(tab.tabId, "check both"));

    // Mid-turn: the Bash inside SUB-A runs, SUB-B's answer is being streamed.
    await watch.waitFor("SUB-A's Bash running", () =>
      allBlocks(watch.transcript().blocks).find((b) => b.call?.name === "Bash" && b.call.status === "running"),
    );
    await model.waitForRequest((r) => r.agent === "SUB-B" && r.turn === 0 && r.servedAt !== null && r.outcome === "pending", 60_000);
    const first = theChild(cliName);
    const sessionId = watch.transcript().sessionId;
    expect(sessionId).not.toBe("");
    // Killed once the CLI has saved the turn so far (it writes a moment after it streams).
    await expect.poll(() => savedText(app, sessionId), { timeout: 30_000 }).toContain("Checking two things at once.");
    process.kill(first.pid, "SIGKILL");

    const after = await watch.waitFor("the tab to say the CLI stopped", () => (watch.transcript().status === "error" ? watch.transcript() : undefined));
    expect(noticesOf(after, "error").join("\n")).toMatch(/Claude Code CLI was killed by SIGKILL/);
    expect(noticesOf(after, "info")).toContain("Send a prompt to go on: Baton starts Claude Code again and continues this session.");
    expect(after.blocks.some((b) => b.kind === "text" && b.text === "Checking two things at once.")).toBe(true);
    expect(stillSpinning(after)).toEqual([]);
    const calls = allBlocks(after.blocks).flatMap((b) => (b.call === undefined ? [] : [b.call]));
    expect(calls.filter((c) => c.name === "Agent").map((c) => [c.status, c.subagent?.status])).toEqual([
      ["stopped", "stopped"],
      ["stopped", "stopped"],
    ]);
    expect(calls.find((c) => c.name === "Bash")?.status).toBe("stopped");
    expect(console.filter((e) => e.tabId === tab.tabId && e.level === "error" && /killed by SIGKILL/.test(e.message))).not.toHaveLength(0);
    expect(childrenRunning(cliName)).toEqual([]);

    // The next prompt continues the same conversation in a new CLI.
    value(await service.sendPrompt(tab.tabId, "are you back?"));
    const back = await watch.idleWith("Back after the crash, same conversation.");
    const second = theChild(cliName);
    expect(second.args).toEqual(expect.arrayContaining(["--resume", sessionId]));
    expect(back.sessionId).toBe(sessionId);
    const resumed = model.requests.find((r) => r.agent === "main" && r.turn > 0);
    expect(JSON.stringify(resumed?.body["messages"])).toContain("Checking two things at once.");
    expect(back.blocks.some((b) => b.kind === "text" && b.text === "Checking two things at once.")).toBe(true);
    value(await service.closeTab(tab.tabId));
  });

  it("killed before it saved anything: the next prompt starts a new conversation, and the tab says the model forgot", async () => {
    const { service, model } = app;
    const { tab, watch } = await app.open();
    value(await service.sendPrompt(tab.tabId, "[[EARLY]] hello"));
    await model.waitForRequest((r) => r.agent === "EARLY" && r.turn === 0, 60_000);
    const sessionId = watch.transcript().sessionId;
    process.kill(theChild(cliName).pid, "SIGKILL");
    await watch.waitFor("the tab to say the CLI stopped", () => (watch.transcript().status === "error" ? true : undefined));
    // What a CLI killed before its first write leaves on disk: no file of the session. (This one
    // may have written its first lines already; they go, so the case does not depend on timing.)
    const saved = sessionFile(app, sessionId);
    if (saved !== undefined) fs.rmSync(saved);

    value(await service.sendPrompt(tab.tabId, "[[FRESH]] hello again"));
    const fresh = await watch.idleWith("A fresh start.");
    expect(theChild(cliName).args).not.toContain("--resume");
    expect(fresh.sessionId).not.toBe(sessionId);
    expect(noticesOf(fresh, "warning").join("\n")).toMatch(/stopped before it saved this conversation.*does not remember/);
    // Everything the tab showed before stays.
    expect(fresh.blocks.some((b) => b.kind === "user" && b.text === "[[EARLY]] hello")).toBe(true);
    value(await service.closeTab(tab.tabId));
  });

  it("a background agent at work when the CLI is killed: its card stops, nothing spins", async () => {
    const { service } = app;
    const { tab, watch } = await app.open({ permissionMode: "bypassPermissions" });
    value(await service.sendPrompt(tab.tabId, "[[BG]] start a background job"));
    await watch.waitFor("the main turn over, the background agent running", () => {
      const t = watch.transcript();
      const agent = t.blocks.find((b) => b.call?.name === "Agent")?.call;
      const answered = t.blocks.some((b) => b.kind === "text" && b.text === "Started it in the background.");
      return answered && agent?.subagent?.status === "running" ? true : undefined;
    });
    // Its command runs (the stream does not carry a background agent's steps; the process shows it).
    const cli = theChild(cliName);
    await expect.poll(() => descendantPids(cli.pid).some((pid) => commandLine(pid) === "sleep 20"), { timeout: 60_000 }).toBe(true);
    process.kill(cli.pid, "SIGKILL");

    const after = await watch.waitFor("the tab to say the CLI stopped", () => (watch.transcript().status === "error" ? watch.transcript() : undefined));
    const agent = after.blocks.find((b) => b.call?.name === "Agent")?.call;
    expect(agent?.subagent?.status).toBe("stopped");
    expect(stillSpinning(after)).toEqual([]);
    expect(after.backgroundAgents ?? 0).toBe(0);
    value(await service.closeTab(tab.tabId));
  });
});

/** The session's file in the history folder, if the CLI made one. */
function sessionFile(app: FaultApp, sessionId: string): string | undefined {
  const file = path.join(app.env.projectsDir, projectFolderName(app.env.cwd), `${sessionId}.jsonl`);
  return fs.existsSync(file) ? file : undefined;
}

function savedText(app: FaultApp, sessionId: string): string {
  const file = sessionFile(app, sessionId);
  return file === undefined ? "" : fs.readFileSync(file, "utf8");
}

