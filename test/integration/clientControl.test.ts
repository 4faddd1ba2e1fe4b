// Outgoing control requests and rich user messages against the real CLI.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession, type Session } from "../support/scenarios/harness.js";

// A 1×1 transparent PNG.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

describe("client: control requests and images", () => {
  let session: Session;

  beforeAll(async () => {
    session = await openSession(
      { main: [{ blocks: [{ type: "text", text: "one" }] }, { blocks: [{ type: "text", text: "two" }] }] },
      { cwdName: "client-control" },
    );
    await session.client.start();
  });
  afterAll(() => session?.close());

  it("set_permission_mode changes the mode the next turn runs in", async () => {
    await session.client.setPermissionMode("acceptEdits");
    const from = session.log.mark;
    await session.turn("first");
    const init = await session.log.waitFor("session_init", () => true, { from });
    expect(init.permissionMode).toBe("acceptEdits");
  });

  it("sends images as base64 content blocks and reports the prompt as an event", async () => {
    const from = session.log.mark;
    const uuid = session.client.send({ text: "what is in this picture?", images: [{ mediaType: "image/png", data: PNG }] });
    await session.log.waitFor("turn_result", () => true, { from });
    const prompt = await session.log.waitFor("user_prompt", (e) => e.uuid === uuid, { from });
    expect(prompt).toMatchObject({ parentToolUseId: null, text: "what is in this picture?", images: [{ mediaType: "image/png" }] });
    const request = session.server.requests.find((r) => r.kind === "agent" && r.turn === 1);
    const body = JSON.stringify(request?.body.messages);
    expect(body).toContain(PNG);
    expect(body).toContain('"media_type":"image/png"');
  });

  it("a request after stop is refused with a typed error", async () => {
    await session.client.stop();
    await expect(session.client.interrupt()).rejects.toMatchObject({ code: "client_not_running" });
  });
});
