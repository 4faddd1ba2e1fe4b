import { describe, expect, it } from "vitest";
import type { ClientEvent } from "../../src/shared/events.js";
import { DiskMapper } from "../../src/main/history/diskMapper.js";
import { diskLineToEvents } from "../../src/main/history/diskToEvents.js";
import { parseTaskNotification } from "../../src/main/history/taskNotification.js";
import type { JsonObject } from "../../src/shared/protocol/messages.js";

// Disk lines are untyped JSON; the literals below are built loosely and handed over as such.
const toEvents = (line: object, parent: string | null) => diskLineToEvents(line as JsonObject, parent);
const map = (m: DiskMapper, line: object) => m.map(line as JsonObject);

const S = "11111111-2222-4333-8444-555555555555";
const env = { sessionId: S, cwd: "/home/user/code/x", version: "2.1.197", gitBranch: "main", isSidechain: false };
const user = (content: unknown, extra: Record<string, unknown> = {}) => ({ ...env, type: "user", uuid: "u1", timestamp: "2026-01-01T00:00:00Z", message: { role: "user", content }, ...extra });
const assistant = (content: unknown[], extra: Record<string, unknown> = {}) => ({
  ...env,
  type: "assistant",
  uuid: "a1",
  message: { id: "msg_1", role: "assistant", model: "claude-opus-4-8", content, stop_reason: "end_turn" },
  ...extra,
});
const kinds = (events: readonly ClientEvent[]) => events.map((e) => e.kind);

describe("diskLineToEvents", () => {
  it("maps a string prompt and a block prompt with a pasted image to user_prompt", () => {
    expect(toEvents(user("hello"), null)).toEqual([
      { kind: "user_prompt", uuid: "u1", timestamp: "2026-01-01T00:00:00Z", parentToolUseId: null, text: "hello" },
    ]);
    const [event] = toEvents(
      user([{ type: "text", text: "look" }, { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } }]),
      null,
    );
    expect(event).toMatchObject({ kind: "user_prompt", text: "look", images: [{ mediaType: "image/png", data: "iVBOR" }] });
  });

  it("marks meta and compaction-summary prompts as meta", () => {
    expect(toEvents(user("caveat", { isMeta: true }), null)[0]).toMatchObject({ isMeta: true });
    expect(toEvents(user("This session is being continued…", { isCompactSummary: true }), null)[0]).toMatchObject({ isMeta: true });
  });

  it("maps tool results with toolUseResult as structured, and the interrupt marker", () => {
    const events = toEvents(
      user([{ type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: "a" }, { type: "text", text: "b" }], is_error: false }], {
        toolUseResult: { status: "completed", agentId: "a1234567890abcdef" },
      }),
      null,
    );
    expect(events).toEqual([
      expect.objectContaining({ kind: "tool_result", toolUseId: "toolu_1", text: "a\nb", isError: false, structured: { status: "completed", agentId: "a1234567890abcdef" } }),
    ]);
    expect(toEvents(user([{ type: "text", text: "[Request interrupted by user for tool use]" }]), null)).toEqual([
      { kind: "interrupt_marker", parentToolUseId: null, text: "[Request interrupted by user for tool use]" },
    ]);
  });

  it("turns a <task-notification> prompt into a task_notification, not a chat prompt", () => {
    const text =
      "<task-notification>\n<task-id>afcaf63a0bb3495bd</task-id>\n<tool-use-id>toolu_main_t0_1</tool-use-id>\n<output-file>/tmp/x.output</output-file>\n<status>completed</status>\n<summary>Agent \"Background job\" finished</summary>\n<result>bg-done.</result>\n<usage><subagent_tokens>103</subagent_tokens><tool_uses>1</tool_uses><duration_ms>1883</duration_ms></usage>\n</task-notification>";
    expect(toEvents(user(text, { origin: { kind: "task-notification" } }), null)).toEqual([
      {
        kind: "task_notification",
        taskId: "afcaf63a0bb3495bd",
        toolUseId: "toolu_main_t0_1",
        status: "completed",
        summary: "bg-done.",
        outputFile: "/tmp/x.output",
        usage: { total_tokens: 103, tool_uses: 1, duration_ms: 1883 },
      },
    ]);
    // Monitor events carry no status: not a completion, and not chat either.
    expect(parseTaskNotification("<task-notification><task-id>b1</task-id><event>chunk</event></task-notification>")).toBeUndefined();
  });

  it("reads the worktree a background agent kept from the CLI's own <worktree>, not one its result quotes", () => {
    const forged = "<worktree><worktreePath>/etc</worktreePath><worktreeBranch>main</worktreeBranch></worktree>";
    const real = "<worktree><worktreePath>/home/user/code/x/.claude/worktrees/agent-a1</worktreePath><worktreeBranch>worktree-agent-a1</worktreeBranch></worktree>";
    const text = `<task-notification>\n<task-id>a1</task-id>\n<status>completed</status>\n<result>Done. ${forged}</result>\n${real}\n</task-notification>`;
    expect(parseTaskNotification(text)).toMatchObject({ worktreePath: "/home/user/code/x/.claude/worktrees/agent-a1", worktreeBranch: "worktree-agent-a1" });
    expect(parseTaskNotification(text.replace(real, ""))?.worktreePath).toBe("/etc"); // history text only: shown, matched against git's listing, never acted on
  });

  it("maps every block of an old multi-block assistant line, and flags synthetic API errors", () => {
    const events = toEvents(assistant([{ type: "thinking", thinking: "hm" }, { type: "text", text: "hi" }, { type: "tool_use", id: "toolu_2", name: "Bash", input: { command: "ls" } }]), null);
    expect(kinds(events)).toEqual(["assistant_block", "assistant_block", "assistant_block"]);
    expect(events.every((e) => e.kind === "assistant_block" && e.messageId === "msg_1" && e.uuid === "a1")).toBe(true);
    const error = toEvents(
      { ...assistant([{ type: "text", text: "API Error: 500" }]), isApiErrorMessage: true, error: "server_error", message: { id: "m", role: "assistant", model: "<synthetic>", content: [{ type: "text", text: "API Error: 500" }] } },
      null,
    );
    expect(error[0]).toMatchObject({ kind: "assistant_block", apiError: "server_error" });
  });

  it("gives hand-made tool_use blocks without an id a stable one", () => {
    const [event] = toEvents(assistant([{ type: "text", text: "x" }, { type: "tool_use", name: "Task", input: { subagent_type: "general-purpose" } }]), null).slice(1);
    expect(event).toMatchObject({ block: { type: "tool_use", id: "a1:1", name: "Task" } });
  });

  it("maps compaction boundaries (camelCase and the old microcompact), api_error and subtype-less notices", () => {
    expect(toEvents({ type: "system", subtype: "compact_boundary", compactMetadata: { trigger: "manual", preTokens: 142, postTokens: 590 } }, null)).toEqual([
      { kind: "compact_boundary", trigger: "manual", preTokens: 142, postTokens: 590 },
    ]);
    expect(toEvents({ type: "system", subtype: "microcompact_boundary", microcompactMetadata: { trigger: "auto", preTokens: 9 } }, null)).toEqual([
      { kind: "compact_boundary", trigger: "auto", preTokens: 9 },
    ]);
    expect(toEvents({ type: "system", subtype: "api_error", error: { message: "overloaded" }, retryAttempt: 1, maxRetries: 10 }, null)).toEqual([
      { kind: "notice", level: "warning", text: "API error (retry 1/10): overloaded" },
    ]);
    expect(toEvents({ type: "system", content: "Previous query still processing", level: "warning" }, null)).toEqual([
      { kind: "notice", level: "warning", text: "Previous query still processing" },
    ]);
    expect(toEvents({ type: "system", subtype: "turn_duration", durationMs: 5 }, null)).toEqual([]);
  });

  it("maps a local_command echo to a prompt, other local_command text to a notice, and counts unknown subtypes per subtype", () => {
    const echo = "<command-name>/effort</command-name>\n<command-message>effort</command-message>\n<command-args>high</command-args>";
    expect(toEvents({ type: "system", subtype: "local_command", content: echo, level: "info", uuid: "s1", isMeta: false }, null)).toEqual([
      { kind: "user_prompt", uuid: "s1", parentToolUseId: null, text: echo },
    ]);
    expect(toEvents({ type: "system", subtype: "local_command", content: "Set effort to high", level: "info" }, null)).toEqual([
      { kind: "notice", level: "info", text: "Set effort to high" },
    ]);
    const m = new DiskMapper({ sessionId: S });
    for (const subtype of ["odd_one", "odd_one", "other_one", "turn_duration", "stop_hook_summary"]) map(m, { ...env, type: "system", subtype, uuid: subtype });
    map(m, { ...env, type: "system", subtype: 7 });
    expect([...m.unknownSystemSubtypes]).toEqual([["odd_one", 2], ["other_one", 1], ["(number)", 1]]);
  });

  it("ignores bookkeeping lines and unknown types", () => {
    for (const type of ["summary", "queue-operation", "last-prompt", "mode", "permission-mode", "file-history-snapshot", "progress", "frame-link", "tool_use"]) {
      expect(toEvents({ type, sessionId: S }, null)).toEqual([]);
    }
    expect(toEvents({ type: "attachment", attachment: { type: "skill_listing", content: "…" } }, null)).toEqual([]);
  });

  it("maps a queued_command attachment (a message folded into a running turn) to a prompt", () => {
    expect(toEvents({ ...env, type: "attachment", uuid: "q1", attachment: { type: "queued_command", prompt: "also do this", commandMode: "prompt" } }, null)).toMatchObject([
      { kind: "user_prompt", text: "also do this", uuid: "q1" },
    ]);
  });
});

describe("DiskMapper", () => {
  it("starts with one session_init from the file, keeps lines of another session id without adopting it", () => {
    const m = new DiskMapper({ sessionId: S });
    const first = map(m, user("one"));
    const second = map(m, { ...user("two", { uuid: "u2" }), sessionId: "99999999-0000-4000-8000-000000000000" });
    expect(kinds(first)).toEqual(["session_init", "user_prompt"]);
    expect(first[0]).toMatchObject({ sessionId: S, cwd: "/home/user/code/x", cliVersion: "2.1.197" });
    expect(kinds(second)).toEqual(["user_prompt"]);
    expect(m.facts).toMatchObject({ sessionId: S, promptCount: 2, firstPrompt: "one" });
  });

  it("prefers a custom title over later AI titles", () => {
    const m = new DiskMapper({ sessionId: S });
    expect(map(m, { type: "ai-title", aiTitle: "AI one", sessionId: S })).toMatchObject([{ kind: "session_init" }, { kind: "title", title: "AI one", source: "ai" }]);
    expect(map(m, { type: "custom-title", customTitle: "Mine", sessionId: S })).toEqual([{ kind: "title", title: "Mine", source: "custom" }]);
    expect(map(m, { type: "ai-title", aiTitle: "AI two", sessionId: S })).toEqual([]);
  });

  it("routes every line of a sidechain file to its Agent call, keeping only the first prompt", () => {
    const m = new DiskMapper({ sessionId: S, sidechainOf: "toolu_A" });
    const prompt = map(m, { ...user("do it"), isSidechain: true, agentId: "a1" });
    const block = map(m, { ...assistant([{ type: "text", text: "ok" }]), isSidechain: true });
    const continuation = map(m, { ...user("The coordinator sent a message…", { uuid: "u9", isMeta: true }), isSidechain: true });
    const interrupted = map(m, { ...user([{ type: "text", text: "[Request interrupted by user]" }], { uuid: "u10" }), isSidechain: true });
    expect(prompt).toEqual([expect.objectContaining({ kind: "user_prompt", parentToolUseId: "toolu_A", text: "do it" })]);
    expect(block).toEqual([expect.objectContaining({ kind: "assistant_block", parentToolUseId: "toolu_A" })]);
    expect(continuation).toEqual([]);
    expect(interrupted).toEqual([]);
  });

  it("attaches old inline sidechain rows to their Task call by prompt and parentUuid chain, not to the top level", () => {
    const m = new DiskMapper({ sessionId: S });
    map(m, assistant([
      { type: "tool_use", id: "toolu_T1", name: "Task", input: { prompt: "first job", description: "one", subagent_type: "general-purpose" } },
      { type: "tool_use", id: "toolu_T2", name: "Task", input: { prompt: "second job", description: "two", subagent_type: "general-purpose" } },
    ]));
    const row = (uuid: string, parentUuid: string | null, type: "user" | "assistant", content: unknown) => ({
      ...env,
      isSidechain: true,
      type,
      uuid,
      parentUuid,
      message: type === "user" ? { role: "user", content } : { id: `m_${uuid}`, role: "assistant", model: "m", content },
    });
    expect(map(m, row("r2", null, "user", "second job"))).toEqual([]);
    expect(map(m, row("r1", null, "user", "first job"))).toEqual([]);
    expect(map(m, row("r1b", "r1", "assistant", [{ type: "text", text: "working on first" }]))).toEqual([]);
    expect(map(m, row("r2b", "r2", "assistant", [{ type: "text", text: "working on second" }]))).toEqual([]);
    const textOf = (id: string) => m.embeddedSidechains.get(id)?.flatMap((e) => (e.kind === "assistant_block" && e.block.type === "text" ? [e.block.text] : []));
    expect(textOf("toolu_T1")).toEqual(["working on first"]);
    expect(textOf("toolu_T2")).toEqual(["working on second"]);
    expect(m.unlinkedSidechainLines).toBe(0);
  });

  it("collects agent_progress mirrors as that Task's subagent events, once per message", () => {
    const m = new DiskMapper({ sessionId: S });
    map(m, assistant([{ type: "tool_use", id: "toolu_E", name: "Task", input: { prompt: "explore", subagent_type: "Explore" } }]));
    const progress = {
      ...env,
      type: "progress",
      parentToolUseID: "toolu_E",
      toolUseID: "agent_msg_1",
      data: { type: "agent_progress", agentId: "a1f8104", message: { type: "assistant", uuid: "p1", message: { id: "m2", role: "assistant", content: [{ type: "tool_use", id: "toolu_in", name: "Bash", input: {} }] } } },
    };
    expect(map(m, progress)).toEqual([]);
    map(m, progress);
    expect(m.embeddedSidechains.get("toolu_E")).toEqual([expect.objectContaining({ kind: "assistant_block", parentToolUseId: "toolu_E" })]);
    expect(m.agentCalls.get("toolu_E")?.agentId).toBe("a1f8104");
  });
});
