// The API contract is one table, and what is derived from it cannot drift: the names without zod
// (apiNames.ts) are the table's, every argument is named for its refusals, and the compiler refuses
// a handler table, a name list or a schema that lost or gained a member alone. The type-level
// cases below are checked by `tsc` (npm test runs it): an `@ts-expect-error` with no error fails.

import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import type { BatonApi, PermissionAnswer, Result, TabInfo } from "../../src/shared/api.js";
import { fields, listOf, shapeOf, text, within } from "../../src/shared/apiChecks.js";
import { ApiMethods, ApiSubscriptions, type MethodHandlers, type SubscriptionHandlers } from "../../src/shared/apiContract.js";
import { apiOver } from "../../src/shared/apiFacade.js";
import { BatonMethodNames, BatonSubscriptions, IpcChannels, SubscriptionNames, type BatonMethodName } from "../../src/shared/apiNames.js";
import { isMethodName, validateArgs, validateKey } from "../../src/main/core/validators.js";

describe("the contract's table", () => {
  it("has exactly the methods and subscriptions apiNames lists, in its order", () => {
    expect(Object.keys(ApiMethods)).toEqual([...BatonMethodNames]);
    expect(Object.keys(ApiSubscriptions)).toEqual([...SubscriptionNames]);
    for (const name of SubscriptionNames) expect("key" in ApiSubscriptions[name]).toBe("key" in BatonSubscriptions[name]);
  });

  it("names every argument once, and puts the optional ones last", () => {
    for (const method of BatonMethodNames) {
      const args = ApiMethods[method].args;
      expect(new Set(args.map((a) => a.name)).size, method).toBe(args.length);
      const firstOptional = args.findIndex((a) => a.optional);
      if (firstOptional >= 0) expect(args.slice(firstOptional).every((a) => a.optional), method).toBe(true);
    }
  });

  it("gives every method and topic its own IPC channel", () => {
    const channels = [...BatonMethodNames.map(IpcChannels.method), ...SubscriptionNames.map(IpcChannels.subscribe), IpcChannels.unsubscribe, IpcChannels.event];
    expect(new Set(channels).size).toBe(channels.length);
  });

  it("knows its method names only as own entries", () => {
    expect(isMethodName("listTabs")).toBe(true);
    for (const name of ["toString", "constructor", "__proto__", "", 7, undefined]) expect(isMethodName(name)).toBe(false);
  });

  it("checks a subscription's key by its schema, and ignores one given to a subscription that takes none", () => {
    expect(validateKey("onTranscriptDelta", "tab-1")).toEqual({ ok: true, key: "tab-1" });
    expect(validateKey("onTranscriptDelta", "")).toEqual({ ok: false, error: { code: "invalid_argument", message: "onTranscriptDelta: tabId must not be empty" } });
    expect(validateKey("onTranscriptDelta", 7)).toEqual({ ok: false, error: { code: "invalid_argument", message: "onTranscriptDelta: tabId must be a string" } });
    expect(validateKey("onLog", "anything")).toEqual({ ok: true, key: undefined });
  });

  it("says which argument is wrong, and where inside it", () => {
    expect(validateArgs("answerPermission", ["tab-1", "r1", { behavior: "allow", answers: { "Which size?": ["S", 5] } }])).toEqual({
      ok: false,
      error: { code: "invalid_argument", message: 'answerPermission: answer.answers["Which size?"] must be a string' },
    });
    expect(validateArgs("answerPermission", ["tab-1", "r1", { behavior: "allow", updatedPermissions: [{ type: "addRules", destination: "session", rules: [{ toolName: "" }] }] }])).toEqual({
      ok: false,
      error: { code: "invalid_argument", message: "answerPermission: answer.updatedPermissions[0].rules[0].toolName must not be empty" },
    });
    // An object's unknown field is reported before the problems of its known ones.
    expect(validateArgs("newSession", [{ cwd: 5, shell: "sh" }])).toEqual({ ok: false, error: { code: "invalid_argument", message: 'newSession: options has an unknown field "shell"' } });
    expect(validateArgs("answerEscalation", ["tab-1", "e1", "yes"])).toEqual({
      ok: false,
      error: { code: "invalid_argument", message: 'answerEscalation: reply.kind must be "answer", "approve" or "reject"' },
    });
  });
});

describe("apiOver", () => {
  it("makes every method a call and every subscription a subscribe, dropping absent trailing arguments", async () => {
    const calls: [BatonMethodName, readonly unknown[]][] = [];
    const subscribed: [string, unknown][] = [];
    const api = apiOver({
      call: (method, args) => {
        calls.push([method, args]);
        return Promise.resolve({ ok: true, value: method });
      },
      subscribe: (name, key, listener) => {
        subscribed.push([name, key]);
        listener(name);
        return () => undefined;
      },
    });
    expect(await api.searchHistory("q", undefined)).toEqual({ ok: true, value: "searchHistory" });
    expect(calls).toEqual([["searchHistory", ["q"]]]);
    const heard: unknown[] = [];
    api.onTranscriptDelta("tab-1", (d) => heard.push(d));
    api.onLog((e) => heard.push(e));
    expect(subscribed).toEqual([
      ["onTranscriptDelta", "tab-1"],
      ["onLog", undefined],
    ]);
    expect(heard).toEqual(["onTranscriptDelta", "onLog"]);
    for (const name of [...BatonMethodNames, ...SubscriptionNames]) expect(typeof api[name], name).toBe("function");
  });
});

describe("what the compiler holds together", () => {
  it("derives BatonApi's signatures from the table", () => {
    expectTypeOf<BatonApi["listTabs"]>().toEqualTypeOf<() => Promise<Result<readonly TabInfo[]>>>();
    expectTypeOf<Parameters<BatonApi["searchHistory"]>>().toEqualTypeOf<[string, (number | undefined)?]>();
    expectTypeOf<Parameters<BatonApi["answerPermission"]>>().toEqualTypeOf<[string, string, PermissionAnswer]>();
    expectTypeOf<ReturnType<BatonApi["onLog"]>>().toEqualTypeOf<() => void>();
  });

  it("refuses a handler table that misses a method, or one a subscription", () => {
    const handlers = {} as MethodHandlers;
    const { openWorktree: _dropped, ...withoutOne } = handlers;
    // @ts-expect-error: every method of the contract needs its handler
    const incomplete: MethodHandlers = withoutOne;
    const openers = {} as SubscriptionHandlers;
    const { onLog: _log, ...withoutLog } = openers;
    // @ts-expect-error: every subscription needs its opener
    const noLog: SubscriptionHandlers = withoutLog;
    expect([incomplete, noLog]).toHaveLength(2);
  });

  it("refuses a table entry apiNames does not list, and a name the table lacks", () => {
    // @ts-expect-error: the table may name only apiNames' methods
    const extra: { readonly [M in BatonMethodName]: unknown } = { ...ApiMethods, pingBaton: ApiMethods.listTabs };
    const { listTabs: _listTabs, ...rest } = ApiMethods;
    // @ts-expect-error: and must name all of them
    const missing: { readonly [M in BatonMethodName]: unknown } = rest;
    expect([extra, missing]).toHaveLength(2);
  });

  it("ties a schema to the type it checks, field by field", () => {
    interface Options {
      readonly cwd: string;
      readonly model?: string;
      readonly tags?: readonly string[];
    }
    const same = shapeOf<Options>()(fields({ cwd: text() }, { model: text(), tags: listOf(text()) }));
    // @ts-expect-error: the schema lacks the type's optional field `tags` (a caller's tags would be refused at run time)
    shapeOf<Options>()(fields({ cwd: text() }, { model: text() }));
    // @ts-expect-error: the schema has a field the type does not
    shapeOf<Options>()(fields({ cwd: text() }, { model: text(), tags: listOf(text()), shell: text() }));
    // @ts-expect-error: what the schema lets through must be the type's
    within<string>()(z.number());
    expect(same.safeParse({ cwd: "/x", tags: ["a"] }).success).toBe(true);
  });
});
