// The cap on CLI processes running at once (SessionManager, setting `maxRunningSessions`): past it,
// starting, resuming or restarting a CLI is refused with a clear error and nothing else changes;
// a closed tab or an exited CLI frees its place. Runs a small fake CLI (test/support/scenarios/fakeClaude.mjs).
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { BatonService } from "../../src/main/core/batonService.js";
import { createAppCore, type AppCore } from "../../src/main/app/createAppCore.js";
import { SessionManager } from "../../src/main/core/sessionManager.js";
import { readSessionLimit } from "../../src/main/platform/settingsFile.js";
import { ClaudeClient, type ClaudeClientOptions } from "../../src/main/cli/claudeClient.js";
import type { PermissionDecider } from "../../src/main/cli/permissionGate.js";
import { tempDirs } from "../support/tempDirs.js";

const fakeScript = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../support/scenarios/fakeClaude.mjs");
const tempDir = tempDirs("baton-cap-", "all");
let dir: string;
let fakePath: string;
const stoppers: (() => Promise<void>)[] = [];

beforeAll(() => {
  dir = tempDir();
  fakePath = path.join(dir, "claude");
  writeFileSync(fakePath, `#!/bin/sh\nexec "${process.execPath}" "${fakeScript}" "$@"\n`);
  chmodSync(fakePath, 0o755);
});
afterEach(async () => {
  for (const stop of stoppers.splice(0)) await stop();
});

const quickStop = { stopTimeouts: { closeStdinMs: 200, sigtermMs: 200 } };

function capped(maxRunningSessions: number) {
  const clients: ClaudeClient[] = [];
  /** Each CLI's permission decider: a test asks through it as the CLI's can_use_tool would. */
  const deciders: PermissionDecider[] = [];
  const manager = new SessionManager({
    claudePath: fakePath,
    env: { ...process.env },
    maxRunningSessions,
    clientDefaults: quickStop,
    createClient: (options: ClaudeClientOptions) => {
      const client = new ClaudeClient(options);
      clients.push(client);
      if (options.decidePermission !== undefined) deciders.push(options.decidePermission);
      return client;
    },
  });
  stoppers.push(() => manager.shutdown());
  return { manager, service: new BatonService(manager), clients, deciders };
}

const tooMany = { ok: false, error: { code: "too_many_sessions" } };

describe("the cap on running CLI processes", () => {
  it("refuses a new session past the cap with a message that says how many run and what to do; the tabs stay as they were", async () => {
    const { service, manager } = capped(2);
    expect(await service.newSession({ cwd: dir })).toMatchObject({ ok: true });
    expect(await service.newSession({ cwd: dir, resumeSessionId: "fake-session-0001" })).toMatchObject({ ok: true });
    const refused = await service.newSession({ cwd: dir });
    expect(refused).toMatchObject(tooMany);
    const message = (refused as { error: { message: string } }).error.message;
    expect(message).toContain("2 Claude Code sessions are running");
    expect(message).toContain("maxRunningSessions");
    expect(message).toMatch(/close a tab/i);
    // A resume starts a CLI too.
    expect(await service.newSession({ cwd: dir, resumeSessionId: "fake-session-0002" })).toMatchObject(tooMany);
    expect(manager.listTabs()).toHaveLength(2);
    expect(manager.runningProcessCount()).toBe(2);
  });

  it("counts sessions still starting: of three asked for at once under a cap of two, one is refused", async () => {
    const { service, manager } = capped(2);
    const results = await Promise.all([service.newSession({ cwd: dir }), service.newSession({ cwd: dir }), service.newSession({ cwd: dir })]);
    expect(results.filter((r) => r.ok)).toHaveLength(2);
    expect(results.filter((r) => !r.ok)).toMatchObject([tooMany]);
    expect(manager.listTabs()).toHaveLength(2);
  });

  it("a closed tab frees its place", async () => {
    const { service } = capped(1);
    const first = await service.newSession({ cwd: dir });
    expect(await service.newSession({ cwd: dir })).toMatchObject(tooMany);
    if (!first.ok) throw new Error("the first session did not start");
    expect(await service.closeTab(first.value.tabId)).toEqual({ ok: true, value: undefined });
    expect(await service.newSession({ cwd: dir })).toMatchObject({ ok: true });
  });

  it("a CLI that exited frees its place, and restarting it on the next prompt is refused while the cap is full", { timeout: 30_000 }, async () => {
    const { service, manager, clients } = capped(2);
    const crashed = await service.newSession({ cwd: dir, resumeSessionId: "fake-session-0001" });
    await service.newSession({ cwd: dir });
    if (!crashed.ok) throw new Error("the session did not start");
    const client = clients[0]!;
    process.kill(client.pid!, "SIGKILL");
    await client.waitForExit();
    expect(manager.runningProcessCount()).toBe(1);

    const third = await service.newSession({ cwd: dir });
    expect(third).toMatchObject({ ok: true });
    expect(await service.sendPrompt(crashed.value.tabId, "hello")).toMatchObject(tooMany);
    expect(client.running).toBe(false);

    if (!third.ok) throw new Error("unreachable");
    await service.closeTab(third.value.tabId);
    expect(await service.sendPrompt(crashed.value.tabId, "hello")).toEqual({ ok: true, value: undefined });
    expect(client.running).toBe(true);
  });

  it("approving a plan with \"clear context\" is refused while the cap is full, and the plan still waits for an answer", async () => {
    const { service, manager, deciders } = capped(1);
    const tab = await service.newSession({ cwd: dir });
    if (!tab.ok) throw new Error("the session did not start");
    let answered = false;
    const asking = deciders[0]!(
      { kind: "permission_request", requestId: "plan-1", toolName: "ExitPlanMode", toolUseId: "toolu_plan", input: { plan: "1. Do it" } },
      new AbortController().signal,
    ).then(() => (answered = true));
    await expect.poll(() => manager.broker.find(tab.value.tabId, "plan-1")).toBeDefined();

    expect(await service.answerPermission(tab.value.tabId, "plan-1", { behavior: "allow", clearContext: true })).toMatchObject(tooMany);
    expect(manager.broker.find(tab.value.tabId, "plan-1")).toBeDefined();
    expect(answered).toBe(false);
    expect(manager.listTabs()).toHaveLength(1);
    // Answered some other way, it goes through.
    expect(await service.answerPermission(tab.value.tabId, "plan-1", { behavior: "allow" })).toEqual({ ok: true, value: undefined });
    await asking;
  });
});

describe("the maxRunningSessions setting", () => {
  function settingsWith(value: unknown): string {
    const file = path.join(mkdtempSync(path.join(dir, "settings-")), "settings.json");
    writeFileSync(file, JSON.stringify({ projectsDir: "/home/user/.claude/projects", maxRunningSessions: value }));
    return file;
  }

  it("reads a whole number in range and names the problem of any other value", () => {
    expect(readSessionLimit(settingsWith(3))).toEqual({ maxRunningSessions: 3 });
    expect(readSessionLimit(path.join(dir, "missing.json"))).toEqual({});
    for (const bad of [0, -1, 2.5, 65, "8", null, true]) {
      const read = readSessionLimit(settingsWith(bad));
      expect(read.maxRunningSessions).toBeUndefined();
      expect(read.problem).toMatch(/"maxRunningSessions" must be a whole number from 1 to 64; it was ignored/);
    }
  });

  async function core(settingsFile: string): Promise<AppCore> {
    const app = await createAppCore({
      claudePath: fakePath,
      projectsDir: dir,
      settingsFile,
      env: { ...process.env },
      clientDefaults: quickStop,
    });
    stoppers.push(() => app.close());
    return app;
  }

  it("is what the app core applies", async () => {
    const { service } = await core(settingsWith(1));
    expect(await service.newSession({ cwd: dir })).toMatchObject({ ok: true });
    expect(await service.newSession({ cwd: dir })).toMatchObject(tooMany);
  });

  it("a bad value is said in the Console and the default of 8 applies", { timeout: 30_000 }, async () => {
    const app = await core(settingsWith("lots"));
    expect(app.log.entries().some((e) => e.level === "warning" && e.message.includes('"maxRunningSessions" must be a whole number'))).toBe(true);
    const results = await Promise.all(Array.from({ length: 9 }, () => app.service.newSession({ cwd: dir })));
    expect(results.filter((r) => r.ok)).toHaveLength(8);
    expect(results.filter((r) => !r.ok)).toMatchObject([tooMany]);
  });
});
