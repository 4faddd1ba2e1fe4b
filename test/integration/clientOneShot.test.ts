// One-shot use through the real CLI: a prompt, then stdin closed (`endInput`). With a background
// agent running, the CLI holds the turn's result back until the agent is done, runs the turn its
// notification starts, then writes both results and exits by itself (both CLIs:
// fixtures/recordings*/background-oneshot).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClientNotRunningError } from "../../src/main/cli/errors.js";
import { openSession, type Session } from "../support/scenarios/harness.js";
import { backgroundOneShot } from "../support/scenarios/backgroundSubagent.js";

describe("client: one-shot with a background agent (stdin closed after the prompt)", () => {
  let session: Session;

  beforeAll(async () => {
    session = await openSession(backgroundOneShot.script, { cwdName: "client-oneshot", ...backgroundOneShot.options });
    await session.client.start();
  });
  afterAll(() => session?.close());

  it("finishes the background agent, writes both results, and exits with 0 on its own", async () => {
    const { client, log } = session;
    client.send("start a background job");
    client.endInput();
    const exit = await client.waitForExit();
    expect(exit).toMatchObject({ code: 0, requested: false });
    const kinds = log.events.map((e) => e.kind);
    const notified = kinds.indexOf("task_notification");
    const results = log.of("turn_result").map((r) => r.result);
    expect(results).toEqual(["Started it in the background.", "The background job has finished."]);
    // The first result was held back until after the agent's notification.
    expect(notified).toBeGreaterThan(-1);
    expect(kinds.indexOf("turn_result")).toBeGreaterThan(notified);
    expect(() => client.send("too late")).toThrow(ClientNotRunningError);
  });
});
