// Web mode end to end: the web server with a real SessionManager drives the real CLI against the
// scripted model server; a `ws` client (signed in through the printed link) applies the deltas
// it receives and sees what a person would: the subagent card with its nested Bash call, the
// subagent's permission request (with its agent id) waiting for an answer, and — when every
// window is gone — the request denied after the grace period while the turn goes on.

import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { PendingPermission, Result, TabInfo, TranscriptDelta, WsServerMessage } from "../../src/shared/api.js";
import { applyDelta, denormalize, emptyTranscriptState, type TranscriptState } from "../../src/shared/delta/index.js";
import type { Block, Transcript } from "../../src/shared/transcript.js";
import { BatonService } from "../../src/main/core/batonService.js";
import type { SessionManager } from "../../src/main/core/sessionManager.js";
import { startWebServer, type WebServer } from "../../src/main/transport/web/webServer.js";
import { managerFor } from "../support/appManager.js";
import { createCliEnv, type CliEnv } from "../support/cliEnv.js";
import { startModelServer, type ModelServer } from "../support/modelServer.js";
import { agentCall, bashCall, text } from "../support/scenarios/types.js";
import { openSocket, signIn, type SignedIn } from "../support/webSignIn.js";
import { tempDirs } from "../support/tempDirs.js";

const GraceMs = 700;
const WaitMs = 60_000;

/** A page's view of web mode, over a real socket. */
class PageClient {
  private nextId = 1;
  private readonly calls = new Map<number, (r: Result<unknown>) => void>();
  private readonly states = new Map<string, TranscriptState>();
  private readonly subs = new Map<string, string>();
  private readonly waiters = new Set<() => void>();
  readonly deltas: TranscriptDelta[] = [];

  private constructor(private readonly ws: WebSocket) {
    ws.on("message", (data) => this.receive(JSON.parse(String(data)) as WsServerMessage));
  }

  static async connect(port: number, who: SignedIn): Promise<PageClient> {
    const ws = openSocket(port, who);
    await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
    return new PageClient(ws);
  }

  call<T>(method: string, ...args: unknown[]): Promise<Result<T>> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.calls.set(id, resolve as (r: Result<unknown>) => void);
      this.ws.send(JSON.stringify({ type: "call", id, method, args }));
    });
  }

  async value<T>(method: string, ...args: unknown[]): Promise<T> {
    const result = await this.call<T>(method, ...args);
    if (!result.ok) throw new Error(`${method} failed: ${result.error.code}: ${result.error.message}`);
    return result.value;
  }

  watch(tabId: string): void {
    const sub = `t-${tabId}`;
    this.subs.set(sub, tabId);
    this.states.set(tabId, emptyTranscriptState());
    this.ws.send(JSON.stringify({ type: "subscribe", sub, topic: "transcript", tabId }));
  }

  transcript(tabId: string): Transcript {
    return denormalize(this.states.get(tabId) ?? emptyTranscriptState());
  }
  pending(tabId: string): readonly PendingPermission[] {
    return this.states.get(tabId)?.pending ?? [];
  }

  /** Waits until `read()` returns a value (re-checked on every delta). */
  waitFor<T>(what: string, read: () => T | undefined, timeoutMs = WaitMs): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const value = read();
        if (value === undefined) return;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(value);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.ws.once("close", () => resolve());
      this.ws.close();
    });
  }

  private receive(message: WsServerMessage): void {
    if (message.type === "result") {
      this.calls.get(message.id)?.(message.result);
      this.calls.delete(message.id);
    } else if (message.type === "event") {
      const tabId = this.subs.get(message.sub);
      if (tabId === undefined) return;
      const delta = message.data as TranscriptDelta;
      this.deltas.push(delta);
      this.states.set(tabId, applyDelta(this.states.get(tabId) ?? emptyTranscriptState(), delta));
      for (const check of [...this.waiters]) check();
    }
  }
}

function findBlock(blocks: readonly Block[], id: string): Block | undefined {
  for (const b of blocks) {
    if (b.id === id) return b;
    const inner = b.call?.subagent ? findBlock(b.call.subagent.blocks, id) : undefined;
    if (inner) return inner;
  }
  return undefined;
}

describe("web mode with the real CLI", () => {
  let model: ModelServer;
  let env: CliEnv;
  let manager: SessionManager;
  let server: WebServer;
  const tempDir = tempDirs("baton-renderer-", "all");
  let rendererDir: string;
  let who: SignedIn;
  let page: PageClient;
  let tab: TabInfo;

  beforeAll(async () => {
    model = await startModelServer({
      main: [
        // Foreground (2.1.332 backgrounds an unset call), so "Delegated and done." waits for the report
        // and no notification turn eats the next test's script.
        { blocks: [agentCall("Touch a file", "[[SUB-A]] touch a file", { run_in_background: false })] },
        { blocks: [text("Delegated and done.")] },
        { blocks: [bashCall("touch while-away.txt", "Create a file while nobody watches")] },
        { blocks: [text("Carried on after the denial.")] },
      ],
      "SUB-A": [{ blocks: [bashCall("touch sub-allowed.txt", "Create the sub file")] }, { blocks: [text("Sub finished.")] }],
    });
    env = await createCliEnv({ baseUrl: model.url, cwdName: "web-session" });
    rendererDir = tempDir();
    await writeFile(path.join(rendererDir, "index.html"), "<!doctype html><title>Baton</title>");
    manager = managerFor(env, { permissionGraceMs: GraceMs });
    server = await startWebServer({ service: new BatonService(manager), rendererDir });
    who = await signIn(server.url);
    page = await PageClient.connect(server.port, who);
  });

  afterAll(async () => {
    await page?.close().catch(() => undefined);
    await server?.close();
    await manager?.shutdown();
    await model?.close();
    await env?.cleanup();
  });

  it("shows the subagent's permission request with its agent id, and allowing it runs the nested Bash", async () => {
    tab = await page.value<TabInfo>("newSession", { cwd: env.cwd, permissionMode: "default" });
    expect(tab.live).toBe(true);
    page.watch(tab.tabId);
    await page.value("sendPrompt", tab.tabId, "please delegate");

    const request = await page.waitFor("a subagent Bash request", () => page.pending(tab.tabId).find((p) => p.toolName === "Bash"));
    expect(request.input).toMatchObject({ command: "touch sub-allowed.txt" });
    expect(request.agentId).toMatch(/^a[0-9a-f]+$/);
    await page.value("answerPermission", tab.tabId, request.requestId, { behavior: "allow" });

    const done = await page.waitFor("the turn to finish with the card complete", () => {
      const t = page.transcript(tab.tabId);
      const agent = t.blocks.find((b) => b.call?.name === "Agent");
      const record = agent?.call?.subagent;
      return t.status === "idle" && record?.status === "completed" && t.blocks.some((b) => b.text === "Delegated and done.") ? { t, record } : undefined;
    });
    expect(done.record.taskId).toBe(request.agentId);
    const nested = done.record.blocks.find((b) => b.call?.name === "Bash");
    expect(nested?.call).toMatchObject({ status: "completed", input: { command: "touch sub-allowed.txt" }, permission: { state: "allowed", decidedBy: "user" } });
    expect(findBlock(done.t.blocks, request.toolUseId)?.id).toBe(nested?.id);
    expect(page.pending(tab.tabId)).toEqual([]);
    expect(existsSync(path.join(env.cwd, "sub-allowed.txt"))).toBe(true);
    // The page got a reset first and then only deltas.
    expect(page.deltas[0]?.reset).toBe(true);
    expect(page.deltas.slice(1).every((d) => d.reset !== true)).toBe(true);
  });

  it("denies a request fail-closed once every window has been gone for the grace period; the turn goes on", async () => {
    await page.value("sendPrompt", tab.tabId, "now touch a file yourself");
    const request = await page.waitFor("a main Bash request", () =>
      page.pending(tab.tabId).find((p) => p.toolName === "Bash" && p.input["command"] === "touch while-away.txt"),
    );
    const closedAt = Date.now();
    await page.close();

    // Baton itself (not a window: subscribing gives no presence) watches the call get denied.
    let observed = emptyTranscriptState();
    const deniedAt = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the request was not denied")), WaitMs);
      const stop = manager.subscribeTranscript(tab.tabId, (delta) => {
        observed = applyDelta(observed, delta);
        if (findBlock(denormalize(observed).blocks, request.toolUseId)?.call?.permission?.state === "denied") {
          clearTimeout(timer);
          stop();
          resolve(Date.now());
        }
      });
    });
    expect(deniedAt - closedAt).toBeGreaterThanOrEqual(GraceMs - 50);

    // A window opened later sees the result: the call denied by "window-closed", the turn finished.
    page = await PageClient.connect(server.port, who);
    page.watch(tab.tabId);
    const t = await page.waitFor("the turn to go on after the denial", () => {
      const now = page.transcript(tab.tabId);
      return now.status === "idle" && now.blocks.some((b) => b.text === "Carried on after the denial.") ? now : undefined;
    });
    const call = findBlock(t.blocks, request.toolUseId)?.call;
    expect(call).toMatchObject({ status: "denied", permission: { state: "denied", decidedBy: "window-closed" } });
    expect(existsSync(path.join(env.cwd, "while-away.txt"))).toBe(false);
    expect(page.pending(tab.tabId)).toEqual([]);
  });
});
