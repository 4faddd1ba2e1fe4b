// ClaudeClient edge cases against a small fake CLI (test/support/scenarios/fakeClaude.mjs):
// things the real CLI rarely or never does, but a client must survive.
import { chmodSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ClaudeClient, type ClaudeClientOptions } from "../../src/main/cli/claudeClient.js";
import { EventLog } from "../support/scenarios/harness.js";
import { tempDirs } from "../support/tempDirs.js";

const fakeScript = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../support/scenarios/fakeClaude.mjs");
const tempDir = tempDirs("baton-fake-", "all");
let dir: string;
let fakePath: string;
const clients: ClaudeClient[] = [];

beforeAll(() => {
  dir = tempDir();
  fakePath = path.join(dir, "claude");
  writeFileSync(fakePath, `#!/bin/sh\nexec "${process.execPath}" "${fakeScript}" "$@"\n`);
  chmodSync(fakePath, 0o755);
});
afterEach(async () => {
  for (const c of clients.splice(0)) if (c.running) await c.stop({ closeStdinMs: 200, sigtermMs: 200 });
});

async function startFake(options: Partial<ClaudeClientOptions> = {}) {
  const log = new EventLog();
  const client = new ClaudeClient({ claudePath: fakePath, cwd: dir, env: { ...process.env, ...options.env }, ...options });
  client.on(log.push);
  clients.push(client);
  const init = await client.start();
  const turn = async (text: string) => {
    const from = log.mark;
    client.send(text);
    return log.waitFor("turn_result", () => true, { from, timeoutMs: 10_000 });
  };
  return { client, log, init, turn };
}

describe("ClaudeClient against a fake CLI", () => {
  it("returns the initialize answer and takes the session id only from system/init", async () => {
    const { client, init, turn } = await startFake();
    expect(init.commands).toEqual([{ name: "fake" }]);
    expect(client.sessionId).toBeUndefined();
    await turn("hello");
    expect(client.sessionId).toBe("fake-session-0001");
  });

  it("reports bad lines and unknown types as protocol problems and keeps reading", async () => {
    const { log, turn } = await startFake();
    const result = await turn("garbage");
    expect(result.result).toBe("after garbage");
    const problems = log.of("protocol_problem");
    expect(problems).toHaveLength(2);
    expect(problems[0]!.reason).toMatch(/not JSON/);
    expect(problems[1]!.reason).toMatch(/mystery_type/);
  });

  it("answers an unknown control request with an error instead of leaving the CLI waiting", async () => {
    const { turn } = await startFake();
    const answer = JSON.parse((await turn("unknown-request")).result!);
    expect(answer).toMatchObject({ subtype: "error", request_id: "u1" });
    expect(answer.error).toContain("frobnicate");
  });

  it("answers an unreadable control request with an error", async () => {
    const { log, turn } = await startFake();
    const answer = JSON.parse((await turn("broken-request")).result!);
    expect(answer).toMatchObject({ subtype: "error", request_id: "b1" });
    expect(log.of("protocol_problem")).toHaveLength(1);
  });

  it("never answers a withdrawn permission request and aborts the decider", async () => {
    let aborted = false;
    const { log, turn } = await startFake({
      decidePermission: (_req, signal) =>
        new Promise((resolve) => {
          signal.addEventListener("abort", () => {
            aborted = true;
            resolve({ behavior: "allow" });
          });
        }),
    });
    const result = await turn("cancel");
    expect(result.result).toBe("not answered");
    expect(aborted).toBe(true);
    expect(log.of("permission_cancelled").map((e) => e.requestId)).toEqual(["p1"]);
    expect(log.of("permission_resolved")).toEqual([]);
  });

  it("answers hook callbacks with {continue: true} by default, or with the handler's output", async () => {
    const plain = await startFake();
    expect(JSON.parse((await plain.turn("hook")).result!)).toMatchObject({ subtype: "success", response: { continue: true } });
    const custom = await startFake({ onHookCallback: async (req) => ({ continue: false, stopReason: `no ${req.callback_id}` }) });
    expect(JSON.parse((await custom.turn("hook")).result!)).toMatchObject({ response: { continue: false, stopReason: "no cb1" } });
  });

  it("denies an undecided permission request when the decider times out", async () => {
    const { log, turn } = await startFake({ decidePermission: () => new Promise(() => undefined), permissionTimeoutMs: 200 });
    const answer = JSON.parse((await turn("slow-permission")).result!);
    expect(answer.response).toMatchObject({ behavior: "deny", toolUseID: "toolu_2" });
    expect(log.of("permission_resolved")[0]).toMatchObject({ behavior: "deny", decidedBy: "timeout" });
  });

  it("stop() denies open permission requests, then escalates to SIGTERM and SIGKILL", async () => {
    const { client, log } = await startFake({
      decidePermission: () => new Promise(() => undefined),
      env: { FAKE_IGNORE_STDIN_CLOSE: "1", FAKE_IGNORE_TERM: "1" },
    });
    const from = log.mark;
    client.send("slow-permission");
    await log.waitFor("permission_request", () => true, { from, timeoutMs: 5000 });
    const exit = await client.stop({ closeStdinMs: 200, sigtermMs: 200 });
    expect(exit).toMatchObject({ signal: "SIGKILL", requested: true });
    expect(exit.error).toBeUndefined();
    expect(log.of("permission_resolved")[0]).toMatchObject({ behavior: "deny", decidedBy: "shutdown" });
    expect(log.of("process_exit")).toHaveLength(1);
    expect(client.running).toBe(false);
  });
});
