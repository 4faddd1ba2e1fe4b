// Faults survived: a hung turn and the Stop button. When the model server stops answering
// mid-stream, Stop interrupts and the CLI ends the turn; the tab is idle again and takes a new
// prompt. When the CLI itself hangs (SIGSTOP: a real process that answers nothing), Stop's
// interrupt goes unanswered and Baton kills the CLI once its grace time is over, with the command
// it was running: the tab says so, nothing spins, nothing runs on, and the next prompt resumes. A CLI that answers Stop but never
// ends its turn is killed the same way (a stand-in client: the real CLI always ends it).
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClientEvent } from "../../src/shared/events.js";
import { ClaudeClient, type ClientExit, type ClientListener, type InterruptReceipt } from "../../src/main/cli/claudeClient.js";
import { LiveSession } from "../../src/main/core/liveSession.js";
import { LogBus } from "../../src/main/platform/logBus.js";
import { descendantsIn } from "../../src/main/cli/processTree.js";
import { bashCall, text } from "../support/scenarios/types.js";
import { childrenRunning, commandLine, descendantPids, isRunning, theChild } from "../support/faults/cliProcesses.js";
import { noticesOf, startFaultApp, stillSpinning, value, type FaultApp } from "../support/faults/faultApp.js";

// Long enough for a loaded machine: the real CLI ends a stopped turn well within it.
const GraceMs = 6000;
/** The model server stops answering mid-stream: one SSE event, then nothing until the CLI leaves. */
const Stalled = { chunkDelayMs: 600_000, blocks: [text("An answer the server never finishes.")] };

/** Each tab's conversation: a first answer, then a turn that does not end by itself. */
const Script = {
  main: [{ blocks: [text("unused")] }],
  SILENT: [{ blocks: [text("Ready.")] }, Stalled],
  // Under 25 s: 2.1.332 refuses a longer `sleep`.
  FROZEN: [{ blocks: [text("Ready.")] }, { blocks: [bashCall("sleep 19", "Wait a while")] }],
};
/** Once stopped, the same turn is asked again (the cut answer was never kept): now served. */
const Unstalled = {
  ...Script,
  SILENT: [{ blocks: [text("Ready.")] }, ...[1, 2, 3].map(() => ({ blocks: [text("Answering again after the stop.")] }))],
  FROZEN: [{ blocks: [text("Ready.")] }, ...[1, 2, 3].map(() => ({ blocks: [text("Back in a new CLI.")] }))],
};

describe("faults: a hung turn, and Stop", () => {
  let app: FaultApp;
  let cliName: string;

  beforeAll(async () => {
    app = await startFaultApp(Script, { cwdName: "fault-hung", manager: { interruptGraceMs: GraceMs } });
    cliName = path.basename(app.env.claudePath);
  });
  afterAll(() => app?.close());

  it("the model server stops answering mid-stream: Stop ends the turn, the CLI stays, the next prompt is answered", async () => {
    const { service, model } = app;
    const { tab, watch } = await app.open();
    value(await service.sendPrompt(tab.tabId, "[[SILENT]] hello"));
    await watch.idleWith("Ready.");
    const cli = theChild(cliName);
    value(await service.sendPrompt(tab.tabId, "a long one"));
    await model.waitForRequest((r) => r.agent === "SILENT" && r.turn === 1 && r.servedAt !== null, 60_000);
    await watch.waitFor("the turn to run", () => (watch.transcript().status === "running" ? true : undefined));

    const started = Date.now();
    value(await service.interrupt(tab.tabId));
    const after = await watch.waitFor("the turn to end", () => (watch.transcript().status !== "running" ? watch.transcript() : undefined));
    expect(Date.now() - started).toBeLessThan(GraceMs);
    expect(after.status).toBe("idle");
    expect(stillSpinning(after)).toEqual([]);
    expect(theChild(cliName).pid).toBe(cli.pid);

    model.setScript(Unstalled);
    value(await service.sendPrompt(tab.tabId, "try again"));
    await watch.idleWith("Answering again after the stop.");
    value(await service.closeTab(tab.tabId));
  });

  it("the CLI itself hangs: Stop goes unanswered, Baton kills it and its command after the grace time, the tab says so, the next prompt resumes", async () => {
    const { service, model, console } = app;
    model.setScript(Script);
    const { tab, watch } = await app.open({ permissionMode: "bypassPermissions" });
    value(await service.sendPrompt(tab.tabId, "[[FROZEN]] hello"));
    await watch.idleWith("Ready.");
    value(await service.sendPrompt(tab.tabId, "a long one"));
    await watch.waitFor("the Bash call running", () => watch.transcript().blocks.find((b) => b.call?.name === "Bash" && b.call.status === "running"));
    const frozen = theChild(cliName);
    // The command it runs, in a process group of its own (the CLI's choice).
    const command = await waitForValue(() => {
      const pids = descendantPids(frozen.pid).filter((pid) => commandLine(pid) === "sleep 19");
      return pids.length > 0 ? pids : undefined;
    });
    process.kill(frozen.pid, "SIGSTOP");

    const started = Date.now();
    value(await service.interrupt(tab.tabId));
    const after = await watch.waitFor("the tab to say the CLI was killed", () => (watch.transcript().status === "error" ? watch.transcript() : undefined));
    expect(Date.now() - started).toBeGreaterThanOrEqual(GraceMs - 100);
    expect(noticesOf(after, "error").join("\n")).toContain(`Claude Code did not stop within ${GraceMs / 1000} s of Stop. Baton killed it (SIGKILL).`);
    expect(stillSpinning(after)).toEqual([]);
    expect(childrenRunning(cliName)).toEqual([]);
    expect(command.filter(isRunning)).toEqual([]);
    expect(console.some((e) => e.tabId === tab.tabId && e.level === "error" && e.message.includes("did not stop within"))).toBe(true);

    model.setScript(Unstalled);
    value(await service.sendPrompt(tab.tabId, "are you back?"));
    await watch.idleWith("Back in a new CLI.");
    expect(theChild(cliName).args).toContain("--resume");
    value(await service.closeTab(tab.tabId));
  });
});

/** A TEST DOUBLE of the client, no process: the CLI answers Stop at once but its turn never ends. */
class AnswersStopOnly extends ClaudeClient {
  readonly kills: string[] = [];
  private readonly subscribers = new Set<ClientListener>();
  override on(listener: ClientListener): () => void {
    this.subscribers.add(listener);
    return () => this.subscribers.delete(listener);
  }
  emitRead(events: readonly ClientEvent[]): void {
    for (const event of events) for (const listener of [...this.subscribers]) listener(event);
  }
  override interrupt(): Promise<InterruptReceipt> {
    return Promise.resolve({});
  }
  override kill(reason: string): Promise<ClientExit> {
    this.kills.push(reason);
    const error = `${reason} Baton killed it (SIGKILL).`;
    this.emitRead([{ kind: "process_exit", code: null, signal: "SIGKILL", error }]);
    return Promise.resolve({ code: null, signal: "SIGKILL", stderrTail: "", requested: false });
  }
}

describe("faults: a CLI that answers Stop but never ends the turn", () => {
  it("is killed once the grace time is over, and the turn stops", async () => {
    let client: AnswersStopOnly | undefined;
    const session = new LiveSession({
      tabId: "tab-1",
      client: { claudePath: "claude", cwd: "/home/user/code/x" },
      decidePermission: () => Promise.resolve({ behavior: "deny", message: "test" }),
      log: new LogBus(),
      onChange: () => undefined,
      interruptGraceMs: 300,
      interruptSettleMs: 60_000,
      createClient: (options) => (client = new AnswersStopOnly(options)),
    });
    client!.emitRead([{ kind: "user_prompt", uuid: "u1", parentToolUseId: null, text: "a long one" }]);
    expect(session.transcript.status).toBe("running");

    const started = Date.now();
    await session.interrupt();
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(client!.kills).toEqual(["Claude Code did not stop within 0.3 s of Stop."]);
    expect(session.transcript.status).toBe("error");
  });
});

describe("processTree: the descendants of a process in ps output", () => {
  it("follows children and their children, parents first, and ignores the rest and bad lines", () => {
    const ps = ["  1     0", " 10     1", " 11    10", " 12    11", " 13    10", " 20     1", "garbage", " 14    12", ""].join("\n");
    expect(descendantsIn(ps, 10)).toEqual([11, 13, 12, 14]);
    expect(descendantsIn(ps, 20)).toEqual([]);
    expect(descendantsIn("", 10)).toEqual([]);
  });
});

/** Polls `read` until it gives a value (at most 30 s). */
async function waitForValue<T>(read: () => T | undefined): Promise<T> {
  for (const end = Date.now() + 30_000; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 100))) {
    const found = read();
    if (found !== undefined) return found;
  }
  throw new Error("timed out");
}
