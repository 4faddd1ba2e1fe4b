// A live tab applies the events of one stdout read together: the client emits a read's lines one
// by one, synchronously, and the tab applies them to its model in one flush once the read is
// handled, or as soon as anything reads the model. These tests emit a committed recording's events the way the client
// does, without a process, and check what a window would see.

import { describe, expect, it } from "vitest";
import type { ClientEvent } from "../../src/shared/events.js";
import type { ClaudeClientOptions } from "../../src/main/cli/claudeClient.js";
import { EmittingClient } from "../support/emittingClient.js";
import { recordingEvents } from "../../src/main/hub/recordingEvents.js";
import { LiveSession } from "../../src/main/core/liveSession.js";
import { LogBus } from "../../src/main/platform/logBus.js";
import { findRecording, readJsonlLines } from "../support/recordings.js";
import { freshJson } from "./hubTestKit.js";

function liveTab(): { session: LiveSession; client: EmittingClient; changes: () => number; log: LogBus } {
  let client: EmittingClient | undefined;
  let changes = 0;
  const log = new LogBus();
  const session = new LiveSession({
    tabId: "tab-1",
    client: { claudePath: "claude", cwd: "/home/user/code/x" },
    decidePermission: async () => ({ behavior: "deny", message: "test" }),
    log,
    onChange: () => changes++,
    createClient: (options: ClaudeClientOptions) => (client = new EmittingClient(options)),
  });
  return { session, client: client as EmittingClient, changes: () => changes, log };
}

function parallelAgentEvents(): ClientEvent[] {
  const recording = findRecording("parallel-subagents");
  if (recording === undefined) throw new Error("fixtures/recordings/parallel-subagents is missing");
  return recordingEvents(readJsonlLines(recording.streamFiles[0] as string));
}

describe("a live tab applies each stdout read in one step", () => {
  it("a burst of lines is one change for the window, and the transcript is the one each event in turn builds", async () => {
    const events = parallelAgentEvents();
    const half = Math.floor(events.length / 2);
    const { session, client, changes } = liveTab();

    client.emitRead(events.slice(0, half));
    await Promise.resolve(); // the read is handled: its events are applied in one flush
    expect(changes()).toBe(1);
    client.emitRead(events.slice(half));
    await Promise.resolve();
    expect(changes()).toBe(2);
    expect(JSON.stringify(session.transcript)).toBe(freshJson(events));
  });

  it("reading the transcript in the middle of a read already shows every event emitted so far", () => {
    const events = parallelAgentEvents();
    const { session, client, changes } = liveTab();
    const some = events.slice(0, Math.floor(events.length / 3));

    client.emitRead(some);
    expect(JSON.stringify(session.transcript)).toBe(freshJson(some));
    expect(changes()).toBe(1);
  });

  it("an event the model cannot take is reported in the Console, and every other event of its read is applied", async () => {
    const events = parallelAgentEvents();
    const { session, client, log } = liveTab();
    const broken = { kind: "assistant_block", messageId: "msg_broken", parentToolUseId: null } as unknown as ClientEvent; // no block

    client.emitRead([...events.slice(0, 10), broken, ...events.slice(10)]);
    await Promise.resolve();
    expect(JSON.stringify(session.transcript)).toBe(freshJson(events));
    const errors = log.entries().filter((e) => e.level === "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/could not apply an event/);
    expect(errors[0]?.fields).toMatchObject({ kind: "assistant_block" });
  });
});
