// `--resume`: a new client (new process) continues the recorded session under the same id, and
// the model sees the earlier history.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession, type Session } from "../support/scenarios/harness.js";

const userTexts = (body: Readonly<Record<string, unknown>>): string =>
  JSON.stringify(body.messages ?? []);

describe("client: resume a session in a new process", () => {
  let session: Session;

  beforeAll(async () => {
    session = await openSession(
      { main: [{ blocks: [{ type: "text", text: "first answer" }] }, { blocks: [{ type: "text", text: "second answer" }] }] },
      { cwdName: "client-resume" },
    );
  });
  afterAll(() => session?.close());

  it("continues the same session id with the earlier history", async () => {
    await session.client.start();
    const first = await session.turn("first message ALPHA");
    expect(first.result).toBe("first answer");
    const sessionId = session.client.sessionId!;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const exit = await session.client.stop();
    expect(exit).toMatchObject({ requested: true, code: 0 });
    expect(session.client.running).toBe(false);

    const resumed = session.newClient({ resume: sessionId });
    expect(resumed.sessionId).toBe(sessionId);
    await resumed.start();
    const from = session.log.mark;
    const second = await session.turn("second message BETA");
    expect(second.result).toBe("second answer");
    const init = session.log.of("session_init").filter((_, i, all) => session.log.events.indexOf(all[i]!) >= from);
    expect(init.map((e) => e.sessionId)).toEqual([sessionId]);
    expect(resumed.sessionId).toBe(sessionId);

    const request = session.server.requests.find((r) => r.kind === "agent" && r.turn === 1);
    expect(request).toBeDefined();
    expect(userTexts(request!.body)).toContain("first message ALPHA");
    expect(userTexts(request!.body)).toContain("first answer");
    expect(userTexts(request!.body)).toContain("second message BETA");
  });
});
