// The real CLI runs a session with nested and background subagents; afterwards the history it
// wrote is restored through the same hub. What the person saw live must all be in the restored
// transcript, in the same places, and the disk adds what the stream never carried.

import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSessionState, reduceAll, toTranscript } from "../../src/main/hub/index.js";
import { loadSubagentBlocks } from "../../src/main/history/historySession.js";
import { annotatedTranscript, restoreSession } from "../../src/main/history/restore.js";
import { listSessions } from "../../src/main/history/sessionList.js";
import type { Block, Transcript } from "../../src/shared/transcript.js";
import { openSession, type Session } from "../support/scenarios/harness.js";

function placed(t: Transcript): Map<string, { kind: string; owner: string; status?: string; sub?: string }> {
  const out = new Map<string, { kind: string; owner: string; status?: string; sub?: string }>();
  const walk = (blocks: readonly Block[], owner: string): void => {
    for (const b of blocks) {
      if (b.kind === "notice") continue;
      out.set(b.id, { kind: b.kind, owner, ...(b.call ? { status: b.call.status } : {}), ...(b.call?.subagent ? { sub: b.call.subagent.status } : {}) });
      if (b.call?.subagent) walk(b.call.subagent.blocks, b.call.toolUseId);
    }
  };
  walk(t.blocks, "top");
  return out;
}

describe("history of a real CLI session", () => {
  let session: Session;
  let live: Transcript;

  beforeAll(async () => {
    session = await openSession(
      {
        main: [
          {
            blocks: [
              { type: "text", text: "Delegating." },
              { type: "tool_use", name: "Agent", input: { description: "Outer agent", prompt: "[[SUB-A]] delegate further", subagent_type: "general-purpose" } },
            ],
          },
          { blocks: [{ type: "text", text: "All finished." }] },
        ],
        "SUB-A": [
          { blocks: [{ type: "text", text: "Delegating to an inner agent." }, { type: "tool_use", name: "Agent", input: { description: "Inner agent", prompt: "[[SUB-B]] run echo", subagent_type: "general-purpose" } }] },
          { blocks: [{ type: "text", text: "Inner agent reported back." }] },
        ],
        "SUB-B": [
          { blocks: [{ type: "tool_use", name: "Bash", input: { command: "echo from-depth-two", description: "Echo from the inner agent" } }] },
          { blocks: [{ type: "text", text: "Inner done." }] },
        ],
      },
      { cwdName: "history-live", permissionMode: "bypassPermissions" },
    );
    await session.client.start();
    await session.turn("nest two agents");
    await session.client.stop({ closeStdinMs: 5000, sigtermMs: 3000 });
    live = toTranscript(reduceAll(createSessionState(), session.log.events));
  });
  afterAll(() => session?.close());

  it("lists the session with its prompt as title and both subagents", async () => {
    const [summary] = await listSessions(session.env.projectsDir);
    expect(summary).toMatchObject({ sessionId: live.sessionId, title: "nest two agents", promptCount: 1, subagentCount: 2 });
  });

  it("restores everything the live view showed, in the same places, plus the depth-2 agent", async () => {
    const { transcript, problems, session: restored } = await restoreSession(live.sessionId, { projectsDir: session.env.projectsDir });
    expect(problems).toEqual([]);
    const outer = transcript.blocks.find((b) => b.call?.subagent !== undefined)?.call;
    expect(outer?.subagent?.sidechainPath).toMatch(/\/subagents\/agent-a[0-9a-f]{16}\.jsonl$/);
    expect(path.dirname(outer?.subagent?.sidechainPath ?? "")).toContain(live.sessionId);

    await loadSubagentBlocks(restored, outer!.toolUseId);
    const innerId = annotatedTranscript(restored).blocks
      .flatMap((b) => b.call?.subagent?.blocks ?? [])
      .find((b) => b.call?.subagent !== undefined)?.call?.toolUseId;
    expect(innerId).toBeDefined();
    const inner = await loadSubagentBlocks(restored, innerId!);
    expect(inner.map((b) => b.call?.name ?? b.text)).toEqual(["Bash", "Inner done."]);

    const L = placed(live);
    const R = placed(annotatedTranscript(restored));
    const missing = [...L].filter(([id, l]) => JSON.stringify(R.get(id)) !== JSON.stringify(l)).map(([id, l]) => `${id} ${JSON.stringify(l)} → ${JSON.stringify(R.get(id))}`);
    expect(missing).toEqual([]);
    // Depth-2 messages are never streamed (PROTOCOL.md §4); only the disk has the inner Bash.
    expect([...L.values()].some((l) => l.owner === innerId)).toBe(false);
    expect([...R.values()].filter((r) => r.owner === innerId).length).toBe(2);
  });
});
