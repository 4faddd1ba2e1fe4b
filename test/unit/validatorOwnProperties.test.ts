// The argument validator knows a field only by the spec's own properties: names every object
// inherits (`toString`, `constructor`, `__proto__`, …) are unknown fields like any other. Payloads
// are JSON text parsed as the WebSocket parses it, so `__proto__` arrives as an own field.
import { describe, expect, it } from "vitest";
import type { PendingPermission, PermissionAnswer, WsServerMessage } from "../../src/shared/api.js";
import { BatonService } from "../../src/main/core/batonService.js";
import { decisionFor } from "../../src/main/core/permissionAnswers.js";
import { SessionManager } from "../../src/main/core/sessionManager.js";
import { validateArgs } from "../../src/main/core/validators.js";
import { createRpcConnection } from "../../src/main/transport/web/rpcConnection.js";

const Inherited = ["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf", "isPrototypeOf", "__defineGetter__", "toLocaleString"];
const invalid = { ok: false, error: { code: "invalid_argument" } };

/** `{...base, [name]: value}` as JSON text, parsed: the way a page's payload arrives. */
function parsedWith(base: Record<string, unknown>, name: string, value: unknown): unknown {
  const json = JSON.stringify(base).slice(0, -1) + `,${JSON.stringify(name)}:${JSON.stringify(value)}}`;
  return JSON.parse(json);
}

describe("unknown fields named like inherited properties", () => {
  it.each(Inherited)("newSession options with %s are refused", (name) => {
    for (const value of ["y", { polluted: 1 }, 1]) {
      const result = validateArgs("newSession", [parsedWith({ cwd: "/home/user/code/x" }, name, value)]);
      expect(result).toMatchObject(invalid);
      expect((result as { error: { message: string } }).error.message).toContain(`unknown field "${name}"`);
    }
  });

  it.each(Inherited)("permission answers with %s are refused", (name) => {
    expect(validateArgs("answerPermission", ["tab-1", "r1", parsedWith({ behavior: "allow" }, name, "y")])).toMatchObject(invalid);
    expect(validateArgs("answerPermission", ["tab-1", "r1", parsedWith({ behavior: "deny", message: "no" }, name, { polluted: 1 })])).toMatchObject(invalid);
  });

  it.each(Inherited)("permission rules, rule updates and images with %s are refused", (name) => {
    const rule = parsedWith({ toolName: "Bash", ruleContent: "ls:*" }, name, "y");
    const update = { type: "addRules", destination: "session", behavior: "allow", rules: [rule] };
    expect(validateArgs("answerPermission", ["tab-1", "r1", { behavior: "allow", updatedPermissions: [update] }])).toMatchObject(invalid);
    const looseUpdate = parsedWith({ type: "addRules", destination: "session", rules: [{ toolName: "Bash" }] }, name, { polluted: 1 });
    expect(validateArgs("answerPermission", ["tab-1", "r1", { behavior: "allow", updatedPermissions: [looseUpdate] }])).toMatchObject(invalid);
    const image = parsedWith({ mediaType: "image/png", data: "iVBORw0KGgo=" }, name, "y");
    expect(validateArgs("sendPrompt", ["tab-1", "hi", [image]])).toMatchObject(invalid);
  });

  it("the same payloads without the extra field pass", () => {
    expect(validateArgs("newSession", [JSON.parse('{"cwd":"/home/user/code/x"}')])).toMatchObject({ ok: true });
    const rules = JSON.parse('[{"type":"addRules","destination":"session","behavior":"allow","rules":[{"toolName":"Bash","ruleContent":"ls:*"}]}]');
    expect(validateArgs("answerPermission", ["tab-1", "r1", { behavior: "allow", updatedPermissions: rules }])).toMatchObject({ ok: true });
  });

  it("an AskUserQuestion answer keyed __proto__ is refused (copying it by assignment would set a prototype, or drop it)", () => {
    const answers = JSON.parse('{"__proto__":["S"],"Which size?":"M"}');
    const result = validateArgs("answerPermission", ["tab-1", "r1", { behavior: "allow", answers }]);
    expect(result).toMatchObject(invalid);
    expect((result as { error: { message: string } }).error.message).toContain('"__proto__"');
  });

  it("through the WebSocket, every such call is refused before the session manager sees it", async () => {
    const manager = new SessionManager({ claudePath: "/nonexistent/claude" });
    const sent: WsServerMessage[] = [];
    const connection = createRpcConnection(new BatonService(manager), (m) => sent.push(m));
    const frames = [
      '{"type":"call","id":1,"method":"newSession","args":[{"cwd":"/home/user/code/x","toString":"y"}]}',
      '{"type":"call","id":2,"method":"newSession","args":[{"cwd":"/home/user/code/x","__proto__":{"polluted":1}}]}',
      '{"type":"call","id":3,"method":"newSession","args":[{"cwd":"/home/user/code/x","constructor":{"prototype":{"polluted":1}}}]}',
      '{"type":"call","id":4,"method":"answerPermission","args":["tab-1","r1",{"behavior":"allow","updatedPermissions":[{"type":"addRules","destination":"session","rules":[{"toolName":"Bash","__proto__":{"polluted":1}}]}]}]}',
    ];
    for (const frame of frames) connection.handle(frame);
    await expect.poll(() => sent.length).toBe(frames.length);
    for (const message of sent) expect(message).toMatchObject({ type: "result", result: invalid });
    expect(manager.listTabs()).toEqual([]);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    await manager.shutdown();
  });
});

describe("free-form JSON (an edited tool input) may hold a __proto__ field", () => {
  it("it stays a plain field of that input on its way to the CLI, and no prototype changes", () => {
    const updatedInput = JSON.parse('{"command":"ls","__proto__":{"polluted":1}}');
    const answer = { behavior: "allow", updatedInput, answers: { "Which size?": ["S", "L"] } };
    expect(validateArgs("answerPermission", ["tab-1", "r1", answer])).toMatchObject({ ok: true });
    const request: PendingPermission = { requestId: "r1", toolName: "AskUserQuestion", toolUseId: "toolu_1", input: {} };
    const outcome = decisionFor(request, answer as PermissionAnswer);
    if (!outcome.ok || outcome.decision.behavior !== "allow") throw new Error("expected an allow");
    const sentInput = outcome.decision.updatedInput!;
    expect(Object.getPrototypeOf(sentInput)).toBe(Object.prototype);
    expect((sentInput as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(JSON.parse(JSON.stringify(sentInput))).toEqual(JSON.parse('{"command":"ls","__proto__":{"polluted":1},"answers":{"Which size?":"S, L"}}'));
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });
});
