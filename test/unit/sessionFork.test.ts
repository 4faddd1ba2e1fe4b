import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findForkPoint, readForkPoint } from "../../src/main/core/sessionFork.js";

const dir = mkdtempSync(path.join(tmpdir(), "baton-fork-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const user = (uuid: string, parentUuid: string | null, content: string) => ({ type: "user", uuid, parentUuid, sessionId: "s1", timestamp: "2026-12-06T10:00:00.000Z", message: { role: "user", content } });
const answer = (uuid: string, parentUuid: string, id: string, text: string) => ({ type: "assistant", uuid, parentUuid, sessionId: "s1", timestamp: "2026-12-06T10:00:01.000Z", message: { id, role: "assistant", model: "m", content: [{ type: "text", text }] } });

function file(name: string, lines: readonly unknown[]): string {
  const f = path.join(dir, `${name}.jsonl`);
  writeFileSync(f, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return f;
}

const said = (events: readonly { kind: string; text?: string; block?: { text?: string } }[]) =>
  events.flatMap((e) => (e.kind === "user_prompt" ? [`user: ${e.text}`] : e.kind === "assistant_block" ? [`text: ${e.block?.text}`] : []));

describe("where a fork from a prompt starts", () => {
  const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

  it("cuts at the prompt's parent and gives the chain before it, not a branch beside it", async () => {
    const f = file("branchy", [
      { type: "mode", mode: "default" },
      user(uuid(1), null, "first"),
      answer(uuid(2), uuid(1), "msg_1", "Answer one."),
      // An earlier branch from the same point (an edit in the terminal), then the prompt forked from.
      user(uuid(3), uuid(2), "abandoned"),
      answer(uuid(4), uuid(3), "msg_2", "Abandoned answer."),
      user(uuid(5), uuid(2), "second"),
      answer(uuid(6), uuid(5), "msg_3", "Answer two."),
    ]);
    const point = await readForkPoint(f, uuid(5));
    expect(point.resumeAt).toBe(uuid(2));
    expect(said(point.earlier as never)).toEqual(["user: first", "text: Answer one."]);
    // Ended as a restore is: nothing of the original runs on in the fork's tab.
    expect(point.earlier.at(-1)).toEqual({ kind: "process_exit", code: 0, signal: null });
    expect(point.earlier.some((e) => e.kind === "session_init")).toBe(false);
  });

  it("a first prompt has no cut and no earlier turns: the fork is a new session", async () => {
    const f = file("first", [user(uuid(1), null, "first"), answer(uuid(2), uuid(1), "msg_1", "Answer one.")]);
    expect(await readForkPoint(f, uuid(1))).toEqual({ earlier: [] });
  });

  it("refuses a uuid that is no prompt of the file (an answer's, or none) with not_found", async () => {
    const f = file("refuse", [user(uuid(1), null, "first"), answer(uuid(2), uuid(1), "msg_1", "Answer one.")]);
    await expect(readForkPoint(f, uuid(2))).rejects.toMatchObject({ code: "not_found" });
    await expect(readForkPoint(f, uuid(9))).rejects.toMatchObject({ code: "not_found" });
  });

  it("waits for a prompt only while the file may still grow: a file that does not is refused once the wait is over", async () => {
    const f = file("never", [user(uuid(1), null, "first"), answer(uuid(2), uuid(1), "msg_1", "Answer one.")]);
    const asked = Date.now();
    await expect(readForkPoint(f, uuid(3), 150)).rejects.toMatchObject({ code: "not_found", message: expect.stringMatching(/not in the session's file \(yet\)/) });
    expect(Date.now() - asked).toBeGreaterThanOrEqual(150);
    // The file's own session: a missing file is refused the same way once the wait is over.
    const env = { HOME: path.join(dir, "no-home") };
    await expect(findForkPoint(env, "00000000-aaaa-4000-8000-000000000000", uuid(1), 100)).rejects.toMatchObject({ code: "not_found", message: expect.stringMatching(/not where Claude Code keeps sessions/) });
  });
});
