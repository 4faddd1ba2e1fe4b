// The person's rules made from a permission prompt, through the real CLI (issue 22): "Always allow
// in this project" keeps the prompt's rule as a Baton project rule (rules.json, never the CLI's
// settings), and the engine, reading the rules at each decision, lets the next call it covers run
// without asking, in this session and in a new one in the same folder. "Allow for this session"
// keeps a Baton session rule, keyed by the session, gone when its tab closes. Every change reaches
// whoever follows the policy.

import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PolicyInfo } from "../../src/shared/api.js";
import type { Transcript } from "../../src/shared/transcript.js";
import { BatonService } from "../../src/main/core/batonService.js";
import type { SessionManager } from "../../src/main/core/sessionManager.js";
import { PolicyService } from "../../src/main/policy/policyService.js";
import { managerFor } from "../support/appManager.js";
import { watchTab } from "../support/tabWatch.js";
import { createCliEnv, type CliEnv } from "../support/cliEnv.js";
import { startModelServer, type ModelServer } from "../support/modelServer.js";
import { bashCall, text } from "../support/scenarios/types.js";
import { value } from "../support/apiValue.js";

const WaitMs = 60_000;

const watch = (service: BatonService, tabId: string) => watchTab(service, tabId, WaitMs);

const bashCalls = (t: Transcript) => t.blocks.filter((b) => b.call?.name === "Bash").map((b) => b.call!);

describe("rules kept from a permission prompt, through the real CLI", () => {
  let model: ModelServer;
  let env: CliEnv;
  let manager: SessionManager;
  let service: BatonService;
  let settingsFile: string;
  let release: () => void;
  const pushed: PolicyInfo[] = [];

  beforeAll(async () => {
    model = await startModelServer({
      PROJECT: [
        { blocks: [bashCall("git init -q", "Make it a repository")] },
        { blocks: [bashCall("git init --quiet", "Make sure it is one")] },
        { blocks: [text("Project rule done.")] },
      ],
      AGAIN: [{ blocks: [bashCall("git init", "Once more, in a new session")] }, { blocks: [text("New session done.")] }],
      SESSION: [
        { blocks: [bashCall("touch session-rule.txt", "Create a file")] },
        { blocks: [text("Session rule done.")] },
        { blocks: [bashCall("touch session-rule.txt", "The same, under the rule")] },
        { blocks: [text("Covered by the rule.")] },
        { blocks: [bashCall("touch session-rule.txt", "The same, the rule deleted")] },
        { blocks: [text("Asked again.")] },
      ],
    });
    env = await createCliEnv({ baseUrl: model.url, cwdName: "policy-rules" });
    settingsFile = path.join(env.home, ".config", "baton", "settings.json");
    const policy = await PolicyService.open({ settingsFile, home: env.home });
    manager = managerFor(env, { policy });
    service = new BatonService(manager);
    service.onPolicyChanged((info) => pushed.push(info));
    release = manager.acquirePresence();
  });

  afterAll(async () => {
    release?.();
    await manager?.shutdown();
    await model?.close();
    await env?.cleanup();
  });

  it("'always allow in this project' keeps the shown rule; the next call it covers runs without asking, here and in a new session", async () => {
    const tab = value(await service.newSession({ cwd: env.cwd, permissionMode: "default" }));
    const first = watch(service, tab.tabId);
    value(await service.sendPrompt(tab.tabId, "[[PROJECT]] make a repository"));
    const request = await first.waitFor("the git request", () => first.pending().find((p) => p.toolName === "Bash"));
    expect(request.allowRules).toEqual(["Bash(git init:*)"]);
    value(await service.answerPermission(tab.tabId, request.requestId, { behavior: "allow", scope: "project" }));
    const t = await first.idleWith("Project rule done.");
    expect(bashCalls(t).map((c) => c.status)).toEqual(["completed", "completed"]);
    expect(first.seen.filter((p) => p.toolName === "Bash")).toHaveLength(1);

    const rule = { behavior: "allow", rule: "Bash(git init:*)", scope: "project", scopeKey: fs.realpathSync(env.cwd), origin: "prompt" };
    expect(value(await service.getPolicy()).rules).toEqual([expect.objectContaining(rule)]);
    expect(pushed.at(-1)?.rules).toEqual([expect.objectContaining(rule)]);
    // Baton's own rules file holds it; the CLI's project settings were not touched.
    const stored = JSON.parse(fs.readFileSync(path.join(path.dirname(settingsFile), "rules.json"), "utf8")) as { rules: unknown[] };
    expect(stored.rules).toEqual([expect.objectContaining(rule)]);
    expect(fs.existsSync(path.join(env.cwd, ".claude", "settings.local.json"))).toBe(false);

    const again = value(await service.newSession({ cwd: env.cwd, permissionMode: "default" }));
    const second = watch(service, again.tabId);
    value(await service.sendPrompt(again.tabId, "[[AGAIN]] once more"));
    const t2 = await second.idleWith("New session done.");
    expect(bashCalls(t2).map((c) => c.status)).toEqual(["completed"]);
    expect(second.seen).toHaveLength(0);
    first.stop();
    second.stop();
    value(await service.closeTab(tab.tabId));
    value(await service.closeTab(again.tabId));
  });

  it("'allow for this session' keeps a session rule of that session, which goes when its tab closes", async () => {
    const tab = value(await service.newSession({ cwd: env.cwd, permissionMode: "default" }));
    const session = watch(service, tab.tabId);
    value(await service.sendPrompt(tab.tabId, "[[SESSION]] create a file"));
    const request = await session.waitFor("the touch request", () => session.pending().find((p) => p.toolName === "Bash"));
    expect(request.allowRules).toEqual(["Bash(touch session-rule.txt)"]);
    value(await service.answerPermission(tab.tabId, request.requestId, { behavior: "allow", scope: "session" }));
    await session.idleWith("Session rule done.");
    const sessionId = manager.listTabs().find((t) => t.tabId === tab.tabId)?.sessionId;
    expect(sessionId).toBeDefined();
    const kept = { behavior: "allow", rule: "Bash(touch session-rule.txt)", scope: "session", scopeKey: sessionId, origin: "prompt" };
    expect(value(await service.getPolicy()).rules).toContainEqual(expect.objectContaining(kept));
    // The rule answers the next identical call: no prompt.
    value(await service.sendPrompt(tab.tabId, "again"));
    await session.idleWith("Covered by the rule.");
    expect(session.seen.filter((p) => p.toolName === "Bash")).toHaveLength(1);
    // Deleted in the Rules view, it is gone for the CLI too (it was never told a rule of its own).
    value(await service.deleteRule({ behavior: "allow", rule: kept.rule, scope: "session", scopeKey: sessionId! }));
    value(await service.sendPrompt(tab.tabId, "once more"));
    const again = await session.waitFor("the prompt once the rule is gone", () => session.pending().find((p) => p.toolName === "Bash" && p.requestId !== request.requestId));
    value(await service.answerPermission(tab.tabId, again.requestId, { behavior: "deny", message: "not now" }));
    await session.idleWith("Asked again.");
    session.stop();
    value(await service.closeTab(tab.tabId));
    expect(value(await service.getPolicy()).rules).not.toContainEqual(expect.objectContaining(kept));
    expect(pushed.at(-1)?.rules).not.toContainEqual(expect.objectContaining(kept));
  });
});
