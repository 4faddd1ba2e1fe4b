// The Electron bridge without Electron: argument validators, the sender check, and registerIpc
// with an in-memory ipcMain — a foreign frame gets "forbidden", bad arguments "invalid_argument",
// and nothing reaches the session manager in either case.

import { describe, expect, it } from "vitest";
import { BatonMethodNames, IpcChannels, type Result } from "../../src/shared/api.js";
import { BatonService } from "../../src/main/core/batonService.js";
import { SessionManager } from "../../src/main/core/sessionManager.js";
import { registerIpc, type FrameLike, type IpcEventLike, type WebContentsLike } from "../../src/main/transport/ipc/registerIpc.js";
import { isTrustedSender } from "../../src/main/transport/ipc/senderPolicy.js";
import { validateArgs } from "../../src/main/core/validators.js";

describe("validateArgs: the person's answer to a subagent's question or plan (issue 24)", () => {
  it("takes an answer, an approval (with or without an edited plan) or a rejection with feedback, and nothing else", () => {
    expect(validateArgs("answerEscalation", ["tab-1", "toolu_01ask", { kind: "answer", text: "8080" }])).toMatchObject({ ok: true });
    expect(validateArgs("answerEscalation", ["tab-1", "toolu_01plan", { kind: "approve" }])).toMatchObject({ ok: true });
    expect(validateArgs("answerEscalation", ["tab-1", "toolu_01plan", { kind: "approve", editedPlan: "Goal: x" }])).toMatchObject({ ok: true });
    expect(validateArgs("answerEscalation", ["tab-1", "toolu_01plan", { kind: "reject", feedback: "Add tests." }])).toMatchObject({ ok: true });
    for (const reply of [
      { kind: "answer", text: "" },
      { kind: "answer", text: 8080 },
      { kind: "reject" },
      { kind: "approve", editedPlan: "" },
      { kind: "answer", text: "x", extra: true },
      { kind: "escalate" },
      { kind: "__proto__" },
      null,
      "8080",
    ]) {
      expect(validateArgs("answerEscalation", ["tab-1", "toolu_01ask", reply])).toMatchObject({ ok: false, error: { code: "invalid_argument" } });
    }
    expect(validateArgs("answerEscalation", ["tab-1", "../../etc/passwd", { kind: "answer", text: "x" }])).toMatchObject({ ok: false });
  });
});

describe("validateArgs", () => {
  const invalid = { ok: false, error: { code: "invalid_argument" } };

  it("accepts well-formed calls and drops trailing undefined optionals", () => {
    expect(validateArgs("listTabs", [])).toEqual({ ok: true, args: [] });
    expect(validateArgs("searchHistory", ["auth bug", undefined])).toEqual({ ok: true, args: ["auth bug"] });
    expect(validateArgs("newSession", [{ cwd: "/home/user/code/x", permissionMode: "plan", model: "claude-opus-4-8[1m]" }])).toMatchObject({ ok: true });
    expect(validateArgs("sendPrompt", ["tab-1", "hi", [{ mediaType: "image/png", data: "iVBORw0KGgo=" }]])).toMatchObject({ ok: true });
    expect(validateArgs("answerPermission", ["tab-1", "9535765f-0c65", { behavior: "allow", scope: "session" }])).toMatchObject({ ok: true });
    expect(validateArgs("answerPermission", ["tab-1", "r1", { behavior: "allow", answers: { "Which sizes?": ["S", "L"] } }])).toMatchObject({ ok: true });
    expect(validateArgs("answerPermission", ["tab-1", "r1", { behavior: "deny", message: "no", interrupt: true }])).toMatchObject({ ok: true });
  });

  it("rejects wrong types, missing and extra arguments", () => {
    expect(validateArgs("closeTab", [42])).toMatchObject(invalid);
    expect(validateArgs("closeTab", [])).toMatchObject(invalid);
    expect(validateArgs("closeTab", ["tab-1", "extra"])).toMatchObject(invalid);
    expect(validateArgs("listTabs", "not a list")).toMatchObject(invalid);
    expect(validateArgs("searchHistory", ["q", 0])).toMatchObject(invalid);
    expect(validateArgs("searchHistory", ["q", 1.5])).toMatchObject(invalid);
    expect(validateArgs("setPermissionMode", ["tab-1", "yolo"])).toMatchObject(invalid);
    expect(validateArgs("sendPrompt", ["tab-1", ""])).toMatchObject(invalid);
    expect(validateArgs("sendPrompt", ["tab-1", "hi", [{ mediaType: "text/html", data: "x" }]])).toMatchObject(invalid);
  });

  it("rejects unknown fields and malformed answers", () => {
    expect(validateArgs("newSession", [{ cwd: "/x", shell: "rm -rf /" }])).toMatchObject(invalid);
    expect(validateArgs("newSession", [{ cwd: "relative/path" }])).toMatchObject(invalid);
    expect(validateArgs("answerPermission", ["t", "r", { behavior: "allow", extra: 1 }])).toMatchObject(invalid);
    expect(validateArgs("answerPermission", ["t", "r", { behavior: "deny" }])).toMatchObject(invalid);
    expect(validateArgs("answerPermission", ["t", "r", { behavior: "maybe" }])).toMatchObject(invalid);
    expect(validateArgs("answerPermission", ["t", "r", { behavior: "allow", updatedPermissions: [{ type: "addRules", destination: "everywhere" }] }])).toMatchObject(invalid);
    expect(validateArgs("answerPermission", ["t", "r", Object.assign(Object.create({ polluted: true }), { behavior: "allow" })])).toMatchObject(invalid);
  });

  it("checks the policy methods' arguments: rules by behavior and scope, the toggle as a boolean, the project scope of an answer", () => {
    expect(validateArgs("getPolicy", [])).toEqual({ ok: true, args: [] });
    expect(validateArgs("setOrchestration", [true])).toMatchObject({ ok: true });
    expect(validateArgs("setOrchestration", ["on"])).toMatchObject(invalid);
    expect(validateArgs("setOrchestration", [])).toMatchObject(invalid);
    expect(validateArgs("setPolicyCheckOnly", [false])).toMatchObject({ ok: true });
    expect(validateArgs("setPolicyCheckOnly", ["false"])).toMatchObject(invalid);
    expect(validateArgs("setPolicyCheckOnly", [true, true])).toMatchObject(invalid);
    expect(validateArgs("addRule", [{ behavior: "allow", rule: "Bash(pnpm test:*)", scope: "project", tabId: "tab-1" }])).toMatchObject({ ok: true });
    expect(validateArgs("addRule", [{ behavior: "deny", rule: "WebFetch", scope: "everywhere" }])).toMatchObject({ ok: true });
    expect(validateArgs("addRule", [{ behavior: "maybe", rule: "Bash", scope: "project" }])).toMatchObject(invalid);
    expect(validateArgs("addRule", [{ behavior: "allow", rule: "Bash", scope: "galaxy" }])).toMatchObject(invalid);
    expect(validateArgs("addRule", [{ behavior: "allow", rule: "", scope: "everywhere" }])).toMatchObject(invalid);
    expect(validateArgs("addRule", [{ behavior: "allow", rule: "Bash", scope: "everywhere", origin: "file" }])).toMatchObject(invalid);
    expect(validateArgs("deleteRule", [{ behavior: "allow", rule: "Bash(ls:*)", scope: "project", scopeKey: "/home/user/code/x" }])).toMatchObject({ ok: true });
    expect(validateArgs("deleteRule", [{ behavior: "allow", rule: "Bash(ls:*)", scope: "project", createdAt: "x" }])).toMatchObject(invalid);
    expect(validateArgs("resetPresets", ["now"])).toMatchObject(invalid);
    expect(validateArgs("answerPermission", ["tab-1", "r1", { behavior: "allow", scope: "project" }])).toMatchObject({ ok: true });
    expect(validateArgs("answerPermission", ["tab-1", "r1", { behavior: "allow", scope: "everywhere" }])).toMatchObject(invalid);
  });

  it("checks the worktree methods' arguments: a tab id, an absolute path, rescue as a boolean", () => {
    expect(validateArgs("listWorktrees", ["tab-1"])).toEqual({ ok: true, args: ["tab-1"] });
    expect(validateArgs("listWorktrees", ["tab 1"])).toMatchObject(invalid);
    expect(validateArgs("listWorktrees", ["tab-1", "/repo"])).toMatchObject(invalid);
    expect(validateArgs("worktreeDiff", ["tab-1", "/repo/.claude/worktrees/agent-a1"])).toMatchObject({ ok: true });
    expect(validateArgs("worktreeDiff", ["tab-1", "../elsewhere"])).toMatchObject(invalid);
    expect(validateArgs("mergeWorktree", ["tab-1", "wt"])).toMatchObject(invalid);
    expect(validateArgs("mergeWorktree", ["tab-1", "/repo/wt"])).toMatchObject({ ok: true });
    expect(validateArgs("removeWorktree", ["tab-1", "/repo/wt", true])).toMatchObject({ ok: true });
    expect(validateArgs("removeWorktree", ["tab-1", "/repo/wt", "yes"])).toMatchObject(invalid);
    expect(validateArgs("removeWorktree", ["tab-1", "/repo/wt"])).toMatchObject(invalid);
    expect(validateArgs("removeWorktree", ["tab-1", { path: "/repo/wt" }, false])).toMatchObject(invalid);
    expect(validateArgs("openWorktree", ["tab-1", "/repo/wt", "terminal"])).toMatchObject({ ok: true });
    expect(validateArgs("openWorktree", ["tab-1", "/repo/wt", "folder"])).toMatchObject({ ok: true });
    expect(validateArgs("openWorktree", ["tab-1", "/repo/wt", "sh -c id"])).toMatchObject(invalid);
    expect(validateArgs("openWorktree", ["tab-1", "/repo/wt"])).toMatchObject(invalid);
    expect(validateArgs("openWorktree", ["tab-1", "wt", "folder"])).toMatchObject(invalid);
  });

  it("never lets openSession or a resume take a path", () => {
    expect(validateArgs("openSession", ["../../etc/passwd"])).toMatchObject(invalid);
    expect(validateArgs("openSession", ["/home/user/.claude/projects/x/s.jsonl"])).toMatchObject(invalid);
    expect(validateArgs("openSession", ["9d2c6e80-1f2a-4c1e-9b7e-0a1b2c3d4e5f"])).toMatchObject({ ok: true });
    expect(validateArgs("newSession", [{ cwd: "/x", resumeSessionId: "../x" }])).toMatchObject(invalid);
  });

  it("takes an export's format and choices, nothing else (issue 34)", () => {
    expect(validateArgs("exportSession", ["tab-1", { format: "html", toolOutputs: true, thinking: false }])).toMatchObject({ ok: true });
    expect(validateArgs("exportSession", ["tab-1", { format: "md", toolOutputs: false, thinking: true }])).toMatchObject({ ok: true });
    expect(validateArgs("exportSession", ["tab-1", { format: "pdf", toolOutputs: true, thinking: true }])).toMatchObject(invalid);
    expect(validateArgs("exportSession", ["tab-1", { format: "md", toolOutputs: "yes", thinking: true }])).toMatchObject(invalid);
    expect(validateArgs("exportSession", ["tab-1", { format: "md", toolOutputs: true }])).toMatchObject(invalid);
    expect(validateArgs("exportSession", ["tab-1", { format: "md", toolOutputs: true, thinking: true, path: "/etc/passwd" }])).toMatchObject(invalid);
    expect(validateArgs("exportSession", ["../x", { format: "md", toolOutputs: true, thinking: true }])).toMatchObject(invalid);
  });
});

describe("isTrustedSender", () => {
  it("trusts only pages of the app origin", () => {
    expect(isTrustedSender("app://baton/index.html", "app://baton")).toBe(true);
    expect(isTrustedSender("http://localhost:5173/", "http://localhost:5173")).toBe(true);
    expect(isTrustedSender("app://evil/index.html", "app://baton")).toBe(false);
    expect(isTrustedSender("https://baton/index.html", "app://baton")).toBe(false);
    expect(isTrustedSender("http://localhost:5174/", "http://localhost:5173")).toBe(false);
    expect(isTrustedSender("app://user:pw@baton/", "app://baton")).toBe(false);
    expect(isTrustedSender("", "app://baton")).toBe(false);
    expect(isTrustedSender("not a url", "app://baton")).toBe(false);
  });
});

describe("registerIpc", () => {
  function setup() {
    const handlers = new Map<string, (event: IpcEventLike, ...args: unknown[]) => unknown>();
    const sent: { channel: string; sub: unknown; payload: unknown }[] = [];
    const mainFrame: FrameLike = { url: "app://baton/index.html" };
    const contents: WebContentsLike = { mainFrame, send: (channel, sub, payload) => sent.push({ channel, sub, payload }), isDestroyed: () => false };
    const manager = new SessionManager({ claudePath: "/nonexistent/claude" });
    const dispose = registerIpc(
      { handle: (c, l) => handlers.set(c, l), removeHandler: (c) => handlers.delete(c) },
      new BatonService(manager),
      () => ({ webContents: contents }),
      "app://baton",
    );
    const invoke = (channel: string, event: IpcEventLike, ...args: unknown[]) => Promise.resolve(handlers.get(channel)!(event, ...args)) as Promise<Result<unknown>>;
    return { handlers, sent, contents, mainFrame, manager, dispose, invoke };
  }

  it("registers one named channel per method and no generic one", () => {
    const { handlers, dispose } = setup();
    for (const method of BatonMethodNames) expect(handlers.has(IpcChannels.method(method))).toBe(true);
    expect([...handlers.keys()].some((c) => /invoke|call$/i.test(c))).toBe(false);
    dispose();
    expect(handlers.size).toBe(0);
  });

  it("answers the app's main frame, refuses iframes, other windows and other origins", async () => {
    const { contents, mainFrame, invoke } = setup();
    const channel = IpcChannels.method("listTabs");
    expect(await invoke(channel, { sender: contents, senderFrame: mainFrame })).toEqual({ ok: true, value: [] });
    const forbidden = { ok: false, error: { code: "forbidden" } };
    expect(await invoke(channel, { sender: contents, senderFrame: { url: "app://baton/index.html" } })).toMatchObject(forbidden);
    expect(await invoke(channel, { sender: contents, senderFrame: null })).toMatchObject(forbidden);
    const other: WebContentsLike = { ...contents };
    expect(await invoke(channel, { sender: other, senderFrame: mainFrame })).toMatchObject(forbidden);
    (mainFrame as { url: string }).url = "https://evil.example/";
    expect(await invoke(channel, { sender: contents, senderFrame: mainFrame })).toMatchObject(forbidden);
  });

  it("validates arguments before the manager sees them", async () => {
    const { contents, mainFrame, invoke } = setup();
    const event = { sender: contents, senderFrame: mainFrame };
    expect(await invoke(IpcChannels.method("closeTab"), event, { tabId: "x" })).toMatchObject({ ok: false, error: { code: "invalid_argument" } });
    expect(await invoke(IpcChannels.method("closeTab"), event, "tab-9")).toMatchObject({ ok: false, error: { code: "not_found" } });
    expect(await invoke(IpcChannels.subscribe("onTranscriptDelta"), event, "page-1", "1", 7)).toMatchObject({ ok: false, error: { code: "invalid_argument" } });
    expect(await invoke(IpcChannels.subscribe("onLog"), event, "page 1", "1")).toMatchObject({ ok: false, error: { code: "invalid_argument" } });
    expect(await invoke(IpcChannels.subscribe("onLog"), { sender: contents, senderFrame: null }, "page-1", "1")).toMatchObject({ ok: false, error: { code: "forbidden" } });
  });

  it("pushes tab changes and log entries to the window, each subscription tagged with its id, what is now first", async () => {
    const { contents, mainFrame, invoke, sent, manager } = setup();
    const event = { sender: contents, senderFrame: mainFrame };
    manager.log.baton("info", "hello");
    expect(await invoke(IpcChannels.subscribe("onLog"), event, "page-1", "log")).toEqual({ ok: true, value: undefined });
    expect(await invoke(IpcChannels.subscribe("onTabsChanged"), event, "page-1", "tabs")).toEqual({ ok: true, value: undefined });
    const failed = await invoke(IpcChannels.method("newSession"), event, { cwd: "/nonexistent/dir" });
    expect(failed).toMatchObject({ ok: false, error: { code: "bad_working_directory" } });
    expect(sent.every((s) => s.channel === IpcChannels.event)).toBe(true);
    // Logged before the page subscribed: the Console's ring is replayed to it.
    expect(sent.some((s) => s.sub === "log" && (s.payload as { message: string }).message === "hello")).toBe(true);
    // The list now (empty), then the tab appeared while starting and went away when the start failed.
    const tabLists = sent.filter((s) => s.sub === "tabs").map((s) => (s.payload as unknown[]).length);
    expect(tabLists).toEqual([0, 1, 0]);
  });

  it("ends a subscription when asked, and all of a page's when a new page subscribes", async () => {
    const { contents, mainFrame, invoke, sent, manager, dispose } = setup();
    const event = { sender: contents, senderFrame: mainFrame };
    const logged = (sub: string) => sent.filter((s) => s.sub === sub).map((s) => (s.payload as { message: string }).message);
    await invoke(IpcChannels.subscribe("onLog"), event, "page-1", "a");
    await invoke(IpcChannels.subscribe("onLog"), event, "page-1", "b");
    expect(await invoke(IpcChannels.subscribe("onLog"), event, "page-1", "b")).toMatchObject({ ok: false, error: { code: "invalid_argument" } });
    await invoke(IpcChannels.unsubscribe, event, "page-1", "a");
    manager.log.baton("info", "one");
    expect(logged("a")).toEqual([]);
    expect(logged("b")).toEqual(["one"]);
    // The page reloads: its preload has a new token, and the old page's "b" stops at its first subscription.
    await invoke(IpcChannels.subscribe("onLog"), event, "page-2", "a");
    expect(logged("a")).toEqual(["one"]);
    manager.log.baton("info", "two");
    expect(logged("b")).toEqual(["one"]);
    expect(logged("a")).toEqual(["one", "two"]);
    // An unsubscribe the old page sent late does not end the new page's "a".
    await invoke(IpcChannels.unsubscribe, event, "page-1", "a");
    manager.log.baton("info", "three");
    expect(logged("a")).toEqual(["one", "two", "three"]);
    dispose();
    manager.log.baton("info", "four");
    expect(logged("a")).toEqual(["one", "two", "three"]);
  });
});
