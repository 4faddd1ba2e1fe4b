// The real CLI runs a session with nested and background subagents; afterwards the history it
// wrote is restored through the same hub. What the person saw live must all be in the restored
// transcript, in the same places, and the disk adds what the stream never carried.
//
// Runs on both CLIs (vitest.config.ts). 2.1.332 writes an interrupted foreground Agent call's
// tool_result as a rejection (`toolDenialKind: "user-rejected"`, no permission decision) with its
// sidechain on disk: it restores as the stopped subagent with its steps, as live, not as a refusal.

import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyDelta, denormalize, emptyTranscriptState } from "../../src/shared/delta/index.js";
import type { AppCore } from "../../src/main/app/createAppCore.js";
import { appCoreFor } from "../support/appManager.js";
import { modelOf } from "../../src/main/hub/index.js";
import { loadSubagentBlocks } from "../../src/main/history/historySession.js";
import { restoreSession } from "../../src/main/history/restore.js";
import { annotatedTranscript } from "../../src/main/history/sidechainPaths.js";
import { listSessions } from "../../src/main/history/sessionList.js";
import type { Block, Transcript } from "../../src/shared/transcript.js";
import { createCliEnv, type CliEnv } from "../support/cliEnv.js";
import { startModelServer, type ModelServer } from "../support/modelServer.js";
import { openSession, type Session } from "../support/scenarios/harness.js";
import { agentCall, bashCall, text } from "../support/scenarios/types.js";
import { value } from "../support/apiValue.js";

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
              // Foreground on every CLI (2.1.332 backgrounds a depth-1 Agent call unless told not to).
              { type: "tool_use", name: "Agent", input: { description: "Outer agent", prompt: "[[SUB-A]] delegate further", subagent_type: "general-purpose", run_in_background: false } },
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
    live = modelOf(session.log.events).transcript();
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
    // 2.1.197 never streams depth-2 messages (docs/protocol-notes.md "Subagents"): only the disk
    // has the inner Bash.
    // 2.1.332 streams them (tagged with the inner Agent call), and the disk has the same two.
    expect([...L.values()].filter((l) => l.owner === innerId).length).toBe(session.env.cliVersion === "2.1.197" ? 0 : 2);
    expect([...R.values()].filter((r) => r.owner === innerId).length).toBe(2);
  });
});

// ---- with Baton's audit trail -------------------------------------------------------------------

const WaitMs = 60_000;

/** A tab's transcript as a window subscribed to it holds it, with a wait for a state. */
function watchTab(core: AppCore, tabId: string): { transcript(): Transcript; until<T>(what: string, read: (t: Transcript) => T | undefined): Promise<T>; stop(): void } {
  let state = emptyTranscriptState();
  const checks = new Set<() => void>();
  const stop = core.service.onTranscriptDelta(tabId, (delta) => {
    state = applyDelta(state, delta);
    for (const check of [...checks]) check();
  });
  return {
    transcript: () => denormalize(state),
    stop,
    until<T>(what: string, read: (t: Transcript) => T | undefined): Promise<T> {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const got = read(denormalize(state));
          if (got === undefined) return;
          checks.delete(check);
          clearTimeout(timer);
          resolve(got);
        };
        const timer = setTimeout(() => {
          checks.delete(check);
          reject(new Error(`timed out waiting for ${what}`));
        }, WaitMs);
        checks.add(check);
        check();
      });
    },
  };
}

/** Every block with its owner, status and permission state (who decided, why). */
function audited(t: Transcript): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (blocks: readonly Block[], owner: string): void => {
    for (const b of blocks) {
      if (b.kind === "notice") continue;
      const c = b.call;
      const p = c?.permission;
      out.set(b.id, [b.kind, owner, c?.status, c?.subagent?.status, p === undefined ? undefined : `${p.state} by ${p.decidedBy ?? "-"}: ${p.message ?? ""}`].join(" | "));
      if (c?.subagent) walk(c.subagent.blocks, c.toolUseId);
    }
  };
  walk(t.blocks, "top");
  return out;
}

const findCall = (t: Transcript, pred: (name: string, input: string) => boolean) => {
  const all: Block[] = [];
  const walk = (blocks: readonly Block[]): void => blocks.forEach((b) => (all.push(b), b.call?.subagent && walk(b.call.subagent.blocks)));
  walk(t.blocks);
  return all.find((b) => b.call !== undefined && pred(b.call.name, JSON.stringify(b.call.input)))?.call;
};

describe("a session Baton ran, restored with its audit trail", () => {
  let model: ModelServer;
  let env: CliEnv;
  let core: AppCore;
  let live: Transcript;
  let sessionId: string;

  beforeAll(async () => {
    model = await startModelServer({
      main: [
        { blocks: [bashCall("touch main-deny.txt", "Create a file the person denies")] },
        // Foreground on every CLI (2.1.332 backgrounds an Agent call unless told not to).
        { blocks: [agentCall("Denied helper", "[[SUB-D]] try a command", { run_in_background: false })] },
        { blocks: [text("First turn done.")] },
        { blocks: [agentCall("Long task", "[[SUB-L]] long", { run_in_background: false })] },
        { blocks: [text("Still here.")] },
      ],
      "SUB-D": [{ blocks: [bashCall("touch sub-deny.txt", "Create a file from the helper")] }, { blocks: [text("Helper gave up.")] }],
      // Under 25 s: CLI 2.1.332 refuses a Bash call that starts with a sleep that long.
      "SUB-L": [{ blocks: [bashCall("sleep 20 && touch late.txt", "Sleep, then create a file")] }, { blocks: [text("never reached")] }],
    });
    env = await createCliEnv({ baseUrl: model.url, cwdName: "history-audit" });
    core = await appCoreFor(env);
    const release = core.manager.acquirePresence();
    const tab = value(await core.service.newSession({ cwd: env.cwd, permissionMode: "default" }));
    const watch = watchTab(core, tab.tabId);
    const answer = async (what: string, pick: (toolName: string, input: string) => boolean, reply: Parameters<AppCore["service"]["answerPermission"]>[2]) => {
      const request = await watch.until(what, () => core.manager.broker.pending(tab.tabId).find((p) => pick(p.toolName, JSON.stringify(p.input))));
      value(await core.service.answerPermission(tab.tabId, request.requestId, reply));
    };

    value(await core.service.sendPrompt(tab.tabId, "deny two things"));
    await answer("the main Bash request", (_n, input) => input.includes("main-deny"), { behavior: "deny", message: "Not in the main agent" });
    await answer("the helper's Bash request", (_n, input) => input.includes("sub-deny"), { behavior: "deny", message: "Not in the helper" });
    await watch.until("the first turn to end", (t) => (t.status === "idle" && t.blocks.some((b) => b.text === "First turn done.") ? t : undefined));

    value(await core.service.sendPrompt(tab.tabId, "now a long one"));
    await answer("the sleep request", (_n, input) => input.includes("sleep 20"), { behavior: "allow" });
    await watch.until("the sleep to run", (t) => (findCall(t, (_n, input) => input.includes("sleep 20"))?.status === "running" ? t : undefined));
    value(await core.service.interrupt(tab.tabId));
    await watch.until("the interrupted turn to end", (t) => (t.status === "idle" ? t : undefined));
    value(await core.service.sendPrompt(tab.tabId, "are you still there?"));
    live = await watch.until("the reply after the interrupt", (t) => (t.status === "idle" && t.blocks.some((b) => b.text === "Still here.") ? t : undefined));
    sessionId = live.sessionId;
    watch.stop();
    value(await core.service.closeTab(tab.tabId));
    release();
  }, 180_000);

  afterAll(async () => {
    await core?.close();
    await model?.close();
    await env?.cleanup();
  });

  it("live shows the denials and the stopped call the disk alone cannot tell", () => {
    expect(findCall(live, (_n, i) => i.includes("main-deny"))).toMatchObject({ status: "denied", permission: { state: "denied", decidedBy: "user", message: "Not in the main agent" } });
    expect(findCall(live, (_n, i) => i.includes("sub-deny"))).toMatchObject({ status: "denied", permission: { state: "denied", decidedBy: "user" } });
    expect(findCall(live, (_n, i) => i.includes("sleep 20"))).toMatchObject({ status: "stopped", permission: { state: "allowed", decidedBy: "user" } });
  });

  it("the restored tab shows every live block with the same status and permission state", async () => {
    const tab = value(await core.service.openSession(sessionId));
    expect(tab.kind).toBe("restored");
    const watch = watchTab(core, tab.tabId);
    const agents = await watch.until("the restored agent cards", (t) => {
      const ids = t.blocks.filter((b) => b.call?.subagent !== undefined).map((b) => b.id);
      return ids.length === 2 ? ids : undefined;
    });
    for (const id of agents) value(await core.service.loadSubagentBlocks(tab.tabId, id));
    const restored = await watch.until("the helpers' steps", (t) => (findCall(t, (_n, i) => i.includes("sleep 20")) !== undefined && findCall(t, (_n, i) => i.includes("sub-deny")) !== undefined ? t : undefined));
    watch.stop();

    const L = audited(live);
    const R = audited(restored);
    const differ = [...L].filter(([id, l]) => R.get(id) !== l).map(([id, l]) => `${id}: live ${l} / restored ${R.get(id) ?? "missing"}`);
    expect(differ).toEqual([]);
    expect(findCall(restored, (_n, i) => i.includes("sleep 20"))?.status).toBe("stopped");
  });
});
