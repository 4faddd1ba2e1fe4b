// ClaudeClient.rewindFiles against the real CLI: every CLI Baton starts has file checkpointing on
// (rewindFiles.ts), and a prompt the CLI has no checkpoint of is refused with the CLI's own reason,
// in the dry run (an answer) and in the real rewind (an error answer, turned into the same refusal).

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession, type Session } from "../support/scenarios/harness.js";
import { text } from "../support/scenarios/types.js";

describe("client: rewind_files", () => {
  let session: Session;

  beforeAll(async () => {
    session = await openSession({ main: [{ blocks: [text("one")] }] }, { cwdName: "client-rewind" });
    await session.client.start();
  });
  afterAll(() => session?.close());

  it("a prompt of the session with nothing changed since: the dry run can rewind and lists no file", async () => {
    const from = session.log.mark;
    const uuid = session.client.send("first");
    await session.log.waitFor("turn_result", () => true, { from });
    expect(await session.client.rewindFiles(uuid, true)).toEqual({ canRewind: true, filesChanged: [], insertions: 0, deletions: 0 });
  });

  it("an unknown prompt is refused with the CLI's reason, dry run and real", async () => {
    const refusal = { canRewind: false, error: "No file checkpoint found for this message.", filesChanged: [], insertions: 0, deletions: 0 };
    expect(await session.client.rewindFiles(randomUUID(), true)).toEqual(refusal);
    expect(await session.client.rewindFiles(randomUUID(), false)).toEqual(refusal);
  });
});
