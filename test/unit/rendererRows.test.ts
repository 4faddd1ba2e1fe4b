// Folding runs of plain tool cards into groups; subagent cards and interactive tools never join.
import { describe, expect, it } from "vitest";
import type { Block } from "../../src/shared/transcript.js";
import { buildRows, rowIndexOf } from "../../src/renderer/transcript/rows.js";
import { agentBlock } from "../support/blocks.js";

const tool = (id: string, name = "Bash"): Block => ({ kind: "tool", id, call: { toolUseId: id, name, input: {}, status: "completed" } });
const agent = (id: string): Block => agentBlock(id);
const text = (id: string): Block => ({ kind: "text", id, text: "hi" });

function rows(blocks: Block[]) {
  const byId = new Map(blocks.map((b) => [b.id, b]));
  return buildRows(blocks.map((b) => b.id), (id) => byId.get(id));
}

describe("buildRows", () => {
  it("folds three or more consecutive plain tools into one group", () => {
    const r = rows([text("t"), tool("a"), tool("b"), tool("c"), text("u")]);
    expect(r.map((x) => x.kind)).toEqual(["block", "group", "block"]);
    expect(r[1]).toMatchObject({ kind: "group", ids: ["a", "b", "c"], key: "group:a" });
  });

  it("leaves runs of two alone", () => {
    expect(rows([tool("a"), tool("b"), text("t")]).map((x) => x.kind)).toEqual(["block", "block", "block"]);
  });

  it("never puts a subagent card into a group, and it breaks the run", () => {
    const r = rows([tool("a"), tool("b"), agent("s"), tool("c"), tool("d")]);
    expect(r.map((x) => x.kind)).toEqual(["block", "block", "block", "block", "block"]);
    expect(r[2]).toMatchObject({ kind: "block", id: "s" });
  });

  it("keeps interactive tools out of groups", () => {
    const r = rows([tool("a"), tool("q", "AskUserQuestion"), tool("b"), tool("c")]);
    expect(r.map((x) => x.kind)).toEqual(["block", "block", "block", "block"]);
  });

  it("keeps a group's key stable while the run grows", () => {
    const a = rows([tool("a"), tool("b"), tool("c")]);
    const b = rows([tool("a"), tool("b"), tool("c"), tool("d")]);
    expect(a[0]!.key).toBe(b[0]!.key);
  });

  it("finds the row of a block inside a group", () => {
    const r = rows([text("t"), tool("a"), tool("b"), tool("c")]);
    expect(rowIndexOf(r, "b")).toBe(1);
    expect(rowIndexOf(r, "nope")).toBe(-1);
  });
});
