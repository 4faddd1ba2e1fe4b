// An interrupt's answer and what a live tab waits for after it: 2.1.332 answers
// `{still_queued: []}` (fixtures/recordings-2.1.332/interrupt-*) once the background agents are
// killed, and sends no `result` when the main turn had already ended, so the tab must not wait for
// one; when a turn was running, its result follows and the interrupt has taken effect only then
// (bounded). The client here starts no process: it answers the request the way the CLI did,
// emitting the lines the CLI sent first.

import { describe, expect, it } from "vitest";
import type { ClientEvent } from "../../src/shared/events.js";
import type { JsonObject, OutgoingControlRequest } from "../../src/shared/protocol/messages.js";
import { ClaudeClient, type ClaudeClientOptions, type ClientListener } from "../../src/main/cli/claudeClient.js";
import { LiveSession } from "../../src/main/core/liveSession.js";
import { LogBus } from "../../src/main/platform/logBus.js";
import { ev, recordOf } from "./hubTestKit.js";

/** Answers an interrupt as a CLI would: `before` events, then the answer body, then `after` events (unless held). */
class AnsweringClient extends ClaudeClient {
  private readonly taps = new Set<ClientListener>();
  requests: string[] = [];
  reply: { before: ClientEvent[]; body: JsonObject | undefined; after: ClientEvent[] } = { before: [], body: undefined, after: [] };

  override on(listener: ClientListener): () => void {
    this.taps.add(listener);
    return () => this.taps.delete(listener);
  }
  emitRead(events: readonly ClientEvent[]): void {
    for (const event of events) for (const l of [...this.taps]) l(event);
  }
  override async request(request: OutgoingControlRequest): Promise<JsonObject | undefined> {
    this.requests.push(request.subtype);
    this.emitRead(this.reply.before);
    // The answer comes in a later read than the lines before it; what follows comes later still.
    await Promise.resolve();
    setImmediate(() => this.emitRead(this.reply.after));
    return this.reply.body;
  }
}

function liveTab(settleMs?: number): { session: LiveSession; client: AnsweringClient } {
  let client: AnsweringClient | undefined;
  const session = new LiveSession({
    tabId: "tab-1",
    client: { claudePath: "claude", cwd: "/home/user/code/x" },
    decidePermission: async () => ({ behavior: "deny", message: "test" }),
    log: new LogBus(),
    onChange: () => undefined,
    createClient: (options: ClaudeClientOptions) => (client = new AnsweringClient(options)),
    ...(settleMs === undefined ? {} : { interruptSettleMs: settleMs }),
  });
  return { session, client: client as AnsweringClient };
}

const launchedTwo: ClientEvent[] = [
  ev.init(),
  ev.prompt("go"),
  ev.agent("toolu_A", "one"),
  { kind: "background_tasks", tasks: [{ taskId: "a1", taskType: "local_agent", description: "one" }] },
  ev.started("a1", "toolu_A"),
  ev.result("toolu_A", "Async agent launched", null, { structured: { isAsync: true, status: "async_launched", agentId: "a1" } }),
  ev.agent("toolu_B", "two"),
  { kind: "background_tasks", tasks: [{ taskId: "a1", taskType: "local_agent", description: "one" }, { taskId: "b1", taskType: "local_agent", description: "two" }] },
  ev.started("b1", "toolu_B"),
  ev.result("toolu_B", "Async agent launched", null, { structured: { isAsync: true, status: "async_launched", agentId: "b1" } }),
  ev.text("t1", "Started both."),
  ev.turnEnd(),
];
const killBoth: ClientEvent[] = [
  ev.updated("a1", "killed"),
  ev.notified("a1", "stopped"),
  { kind: "background_tasks", tasks: [{ taskId: "b1", taskType: "local_agent", description: "two" }] },
  ev.updated("b1", "killed"),
  ev.notified("b1", "stopped"),
  { kind: "background_tasks", tasks: [] },
];

describe("interrupt receipt", () => {
  it("main turn ended (2.1.332): answers on the CLI's answer, with no result, and the session is idle with both agents stopped", async () => {
    const { session, client } = liveTab(60_000);
    client.emitRead(launchedTwo);
    expect(session.transcript).toEqual(expect.objectContaining({ status: "running", backgroundAgents: 2 }));
    client.reply = { before: killBoth, body: { still_queued: [] }, after: [] };
    // A wait for a result here would last the whole 60 s bound and time the test out.
    await expect(session.interrupt()).resolves.toEqual({ stillQueued: 0 });
    expect(client.requests).toEqual(["interrupt"]);
    const t = session.transcript;
    expect(t.status).toBe("idle");
    expect(t.backgroundAgents).toBeUndefined();
    expect([recordOf(t, "toolu_A")?.status, recordOf(t, "toolu_B")?.status]).toEqual(["stopped", "stopped"]);
  });

  it("a running turn: the interrupt has taken effect only at that turn's result, which follows the answer", async () => {
    const { session, client } = liveTab(60_000);
    client.emitRead([ev.init(), ev.prompt("go"), ev.use("toolu_S", "Bash", { command: "sleep 20" })]);
    const result: ClientEvent = { kind: "turn_result", subtype: "error_during_execution", isError: true };
    client.reply = { before: [], body: { still_queued: [] }, after: [{ kind: "interrupt_marker", parentToolUseId: null, text: "[Request interrupted by user for tool use]" }, result] };
    let seenAtAnswer: string | undefined;
    const done = session.interrupt().then((receipt) => {
      seenAtAnswer = session.transcript.status;
      return receipt;
    });
    await expect(done).resolves.toEqual({ stillQueued: 0 });
    expect(seenAtAnswer).toBe("idle");
  });

  it("a running turn whose result never comes: the wait is bounded", async () => {
    const { session, client } = liveTab(30);
    client.emitRead([ev.init(), ev.prompt("go")]);
    client.reply = { before: [], body: {}, after: [] };
    await expect(session.interrupt()).resolves.toEqual({});
    expect(session.transcript.status).toBe("running");
  });

  it("2.1.197 answers with no body: a receipt without still_queued", async () => {
    const { session, client } = liveTab(60_000);
    client.emitRead([ev.init(), ev.prompt("go"), ev.turnEnd()]);
    client.reply = { before: [], body: undefined, after: [] };
    await expect(session.interrupt()).resolves.toEqual({});
  });
});
