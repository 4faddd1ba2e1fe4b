// Sending from the composer: a live tab gets the prompt; a tab restored from history is resumed
// in a new live tab right away (TabInfo.kind), and a tab that does not say its kind still
// resumes after the "read_only" answer.
import { beforeEach, describe, expect, it } from "vitest";
import type { BatonApi, NewSessionOptions, Result, TabInfo } from "../../src/shared/api.js";
import { setApi } from "../../src/renderer/apiClient.js";
import { sendOrResume } from "../../src/renderer/actions.js";
import { setTabs, useApp } from "../../src/renderer/state/appState.js";

interface Calls {
  sent: { tabId: string; text: string }[];
  opened: NewSessionOptions[];
}

function fakeApi(calls: Calls, readOnly: ReadonlySet<string>): BatonApi {
  const ok = <T>(value: T): Promise<Result<T>> => Promise.resolve({ ok: true, value });
  const api: Partial<BatonApi> = {
    sendPrompt: (tabId, text) => {
      calls.sent.push({ tabId, text });
      if (readOnly.has(tabId)) return Promise.resolve({ ok: false, error: { code: "read_only", message: "This tab shows a past session" } });
      return ok(undefined);
    },
    newSession: (options) => {
      calls.opened.push(options);
      return ok({ tabId: "t-new", title: "", live: true, kind: "live" });
    },
  };
  return api as BatonApi;
}

const tab = (info: TabInfo) => {
  setTabs([info]);
  return useApp.getState().tabs[info.tabId]!;
};

describe("sendOrResume", () => {
  let calls: Calls;
  beforeEach(() => {
    calls = { sent: [], opened: [] };
    useApp.setState({ tabs: {}, tabOrder: [], activeTabId: undefined, expanded: {} });
  });

  it("sends to a live tab", async () => {
    setApi(fakeApi(calls, new Set()));
    await sendOrResume(tab({ tabId: "t1", title: "One", live: true, kind: "live", cwd: "/home/user/code/x" }), { text: "hello", images: [] });
    expect(calls).toEqual({ sent: [{ tabId: "t1", text: "hello" }], opened: [] });
  });

  it("resumes a restored tab directly, without a send that would be refused", async () => {
    setApi(fakeApi(calls, new Set(["t2"])));
    await sendOrResume(tab({ tabId: "t2", sessionId: "s-old", title: "Old", live: false, kind: "restored", cwd: "/home/user/code/x" }), { text: "go on", images: [] });
    expect(calls.sent).toEqual([]);
    expect(calls.opened).toEqual([{ cwd: "/home/user/code/x", resumeSessionId: "s-old", initialPrompt: "go on" }]);
    expect(useApp.getState().activeTabId).toBe("t-new");
  });

  it("still resumes when the tab does not say its kind and the send is refused as read-only", async () => {
    setApi(fakeApi(calls, new Set(["t3"])));
    await sendOrResume(tab({ tabId: "t3", sessionId: "s-old", title: "Old", live: false, cwd: "/home/user/code/x" }), { text: "go on", images: [] });
    expect(calls.sent).toEqual([{ tabId: "t3", text: "go on" }]);
    expect(calls.opened).toEqual([{ cwd: "/home/user/code/x", resumeSessionId: "s-old", initialPrompt: "go on" }]);
  });
});
