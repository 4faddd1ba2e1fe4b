// The one factory every history reader turns lines into events with (eventStream.ts), and the one
// walk and cache that mark the cards whose steps are on disk (sidechainPaths.ts).
import { describe, expect, it } from "vitest";
import type { AuditPermission } from "../../src/main/audit/audit.js";
import { eventStream } from "../../src/main/history/eventStream.js";
import { LineInserts } from "../../src/main/history/lineInserts.js";
import { markRecords, MarkedTranscript, type MarkRecord } from "../../src/main/history/sidechainPaths.js";
import type { ClientEvent } from "../../src/shared/events.js";
import type { JsonObject } from "../../src/shared/protocol/messages.js";
import type { Block, SubagentRecord, Transcript } from "../../src/shared/transcript.js";

const S = "11111111-2222-4333-8444-555555555555";
const file = `/home/user/.claude/projects/-home-user-code-x/${S}.jsonl`;
const env = { sessionId: S, cwd: "/home/user/code/x", version: "2.1.197", isSidechain: false };
const user = (uuid: string, content: unknown, extra: Record<string, unknown> = {}): JsonObject =>
  ({ ...env, type: "user", uuid, timestamp: "2026-01-01T00:00:00Z", message: { role: "user", content }, ...extra }) as JsonObject;
const assistant = (uuid: string, content: unknown[], extra: Record<string, unknown> = {}): JsonObject =>
  ({ ...env, type: "assistant", uuid, message: { id: `m_${uuid}`, role: "assistant", model: "m", content }, ...extra }) as JsonObject;
const bash = (id: string) => assistant(`a_${id}`, [{ type: "tool_use", id, name: "Bash", input: { command: "ls" } }]);
const kinds = (events: readonly ClientEvent[]) => events.map((e) => e.kind);
const notice = (text: string): ClientEvent => ({ kind: "notice", level: "info", text });
const deny: AuditPermission = { sessionId: S, requestId: "req-1", toolUseId: "toolu_B", toolName: "Bash", decision: "deny", decidedBy: "user", time: "2026-01-01T00:00:01Z" };
const deep = (levels: number): unknown => (levels === 0 ? "bottom" : { d: deep(levels - 1) });

describe("a session's file", () => {
  it("is named by its file, starts with the session's init, and places each insert once: after its line, or at the end", () => {
    const inserts = new LineInserts();
    inserts.add("u1", [notice("after u1")]);
    inserts.add("gone", [notice("its line is gone")]);
    const stream = eventStream({ kind: "session", file, inserts });
    expect(kinds(stream.line(user("u1", "hello")))).toEqual(["session_init", "user_prompt", "notice"]);
    expect(stream.line(user("u1", "hello"))).toEqual([expect.objectContaining({ kind: "user_prompt" })]);
    expect(stream.mapper.facts).toMatchObject({ sessionId: S, cwd: "/home/user/code/x", promptCount: 2 });
    expect(stream.end()).toEqual([notice("its line is gone")]);
    expect(stream.end()).toEqual([]);
  });

  it("starts over after a restart: a new init and new facts, the inserts not placed again", () => {
    const inserts = new LineInserts();
    inserts.add("u1", [notice("after u1")]);
    const stream = eventStream({ kind: "session", file, inserts });
    stream.line(user("u1", "one"));
    const before = stream.mapper;
    stream.restart();
    expect(stream.mapper).not.toBe(before);
    expect(kinds(stream.line(user("u1", "one")))).toEqual(["session_init", "user_prompt"]);
    expect(stream.mapper.facts.promptCount).toBe(1);
  });

  it("applies Baton's audit trail after the call it decided, and again from the start after a restart", () => {
    const stream = eventStream({ kind: "session", file, audit: { permissions: [deny], interrupts: [] } });
    const decided = ["session_init", "assistant_block", "permission_request", "permission_resolved"];
    expect(kinds(stream.line(bash("toolu_B")))).toEqual(decided);
    expect(stream.overlay).toBeDefined();
    stream.restart();
    expect(kinds(stream.line(bash("toolu_B")))).toEqual(decided);
    expect(kinds(eventStream({ kind: "session", file }).line(bash("toolu_B")))).toEqual(["session_init", "assistant_block"]);
  });

  it("keeps an old layout's inline subagent rows for their call, but reads an agent-*.jsonl named on its own as the conversation", () => {
    const row = user("r1", "work nobody asked for", { isSidechain: true });
    const main = eventStream({ kind: "session", file });
    expect(main.line(row)).toEqual([]);
    expect(main.mapper.unlinkedSidechainLines).toBe(1);
    const alone = eventStream({ kind: "session", file: `/home/user/.claude/projects/-home-user-code-x/agent-a1b2c3.jsonl` });
    expect(kinds(alone.line(row))).toEqual(["session_init", "user_prompt"]);
    alone.restart();
    expect(kinds(alone.line(row))).toEqual(["session_init", "user_prompt"]);
  });
});

describe("a subagent's sidechain", () => {
  it("gives every line to its Agent call and says what it cut short", () => {
    const stream = eventStream({ kind: "sidechain", sessionId: S, toolUseId: "toolu_A" });
    expect(stream.line(user("u1", "do it", { isSidechain: true }))).toEqual([expect.objectContaining({ kind: "user_prompt", parentToolUseId: "toolu_A" })]);
    const cut = stream.line(assistant("a1", [{ type: "tool_use", id: "toolu_D", name: "Bash", input: { deep: deep(200) } }], { isSidechain: true }));
    expect(cut).toEqual([expect.objectContaining({ kind: "assistant_block", parentToolUseId: "toolu_A" })]);
    expect(stream.tooDeepLines).toBe(1);
    expect(stream.problems("/x/agent-a.jsonl")).toEqual([expect.objectContaining({ kind: "too_deep_values", path: "/x/agent-a.jsonl", count: 1 })]);
    expect(stream.end()).toEqual([]);
  });
});

describe("each line alone (the search index)", () => {
  it("keeps nothing from one line to the next: no init, an inline subagent row is read as it stands", () => {
    const lines = eventStream({ kind: "lines" });
    expect(kinds(lines.line(user("u1", "hello")))).toEqual(["user_prompt"]);
    expect(lines.line(user("r1", "a subagent's row", { isSidechain: true }))).toEqual([expect.objectContaining({ kind: "user_prompt", parentToolUseId: null })]);
    expect(lines.tooDeepLines).toBe(0);
    lines.line(user("u2", [{ type: "text", text: "x" }], { toolUseResult: deep(200) }));
    lines.line(bash("toolu_Z"));
    expect(lines.tooDeepLines).toBe(1);
  });
});

function agentBlock(id: string, record: Partial<SubagentRecord>): Block {
  const subagent = { toolUseId: id, taskId: "", status: "completed", blocks: [], droppedBlockCount: 0, ...record } as unknown as SubagentRecord;
  return { kind: "tool", id, call: { name: "Agent", subagent } } as unknown as Block;
}
const text = (id: string): Block => ({ kind: "text", id, text: id }) as unknown as Block;
const markPath = (paths: Record<string, string>): MarkRecord => (record, inner) => {
  const blocks = inner(record.blocks);
  const file = paths[record.toolUseId];
  if (file === undefined) return blocks === record.blocks ? record : { ...record, blocks };
  return { ...record, blocks, sidechainPath: file };
};

describe("marking cards whose steps are on disk", () => {
  it("marks records at every depth and keeps every unchanged block and list by identity", () => {
    const inner = agentBlock("toolu_inner", {});
    const outer = agentBlock("toolu_outer", { blocks: [text("t1"), inner] });
    const other = agentBlock("toolu_other", {});
    const blocks = [text("t0"), outer, other];
    const marked = markRecords(blocks, markPath({ "toolu_inner": "/x/agent-inner.jsonl" }));
    expect(marked).not.toBe(blocks);
    expect(marked[0]).toBe(blocks[0]);
    expect(marked[2]).toBe(other);
    const outerRecord = marked[1]!.call!.subagent!;
    expect(outerRecord.sidechainPath).toBeUndefined();
    expect(outerRecord.blocks[0]).toBe(outer.call!.subagent!.blocks[0]);
    expect(outerRecord.blocks[1]!.call!.subagent!.sidechainPath).toBe("/x/agent-inner.jsonl");
    expect(markRecords(blocks, markPath({}))).toBe(blocks);
  });

  it("gives the same transcript object until the transcript or the version changes", () => {
    let paths: Record<string, string> = { "toolu_a": "/x/agent-a.jsonl" };
    let built = 0;
    const marked = new MarkedTranscript(() => {
      built++;
      return markPath(paths);
    });
    const from = { blocks: [agentBlock("toolu_a", {})] } as unknown as Transcript;
    const first = marked.of(from, "1");
    expect(first.blocks[0]!.call!.subagent!.sidechainPath).toBe("/x/agent-a.jsonl");
    expect(marked.of(from, "1")).toBe(first);
    expect(built).toBe(1);
    paths = {};
    const second = marked.of(from, "2");
    expect(second).toBe(from);
    expect(marked.of({ ...from } as Transcript, "2")).not.toBe(second);
    expect(built).toBe(3);
  });
});
