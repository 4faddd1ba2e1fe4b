// The session list read straight from the projects folder: titles and prompt counts.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { listSessions } from "../../src/main/history/sessionList.js";

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("session list", () => {
  it("counts a slash command as a prompt but not its output, and takes the title from the first typed prompt", async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "baton-list-"));
    const sessionId = "0e0e0e0e-1111-4222-8333-444444444444";
    const project = path.join(dir, "-home-user-code-x");
    mkdirSync(project, { recursive: true });
    let n = 0;
    const prompt = (content: string) =>
      `${JSON.stringify({ type: "user", sessionId, cwd: "/home/user/code/x", uuid: `u${++n}`, timestamp: `2026-11-30T02:00:0${n}.000Z`, message: { role: "user", content } })}\n`;
    writeFileSync(
      path.join(project, `${sessionId}.jsonl`),
      prompt("<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args>opus</command-args>") +
        prompt("<local-command-stdout>Set model to opus</local-command-stdout>") +
        prompt("hotel: review the diff"),
    );
    const [session] = await listSessions(dir);
    expect(session).toMatchObject({ sessionId, promptCount: 2, title: "hotel: review the diff", titleSource: "prompt" });
  });
});
