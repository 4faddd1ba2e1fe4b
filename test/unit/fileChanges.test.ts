// Every file change of a session with its diff from the best source: the CLI's structured patch
// (the main agent's results on both CLIs), else computed against what the calling agent's
// transcript last showed of the file (a subagent's results carry no patch, live or on disk), else
// the edit's own texts, else a new file. The result shapes are the CLIs' (2.1.197 and 2.1.332 give
// the same): Read `{type:"text", file:{content,startLine,numLines,totalLines}}`, Write
// `{type:"create"|"update", content, structuredPatch, originalFile}`, Edit `{originalFile, structuredPatch}`.
import { describe, expect, it } from "vitest";
import { changeDiff, changeOfCall } from "../../src/shared/diff/changeDiff.js";
import type { DiffRow, FileDiffView } from "../../src/shared/diff/diffModel.js";
import { fileChanges, isApplied, type StepTree } from "../../src/shared/diff/fileChanges.js";
import type { Json, JsonObject } from "../../src/shared/protocol/messages.js";
import type { Block, ToolCallRecord } from "../../src/shared/transcript.js";
import { toolResultText } from "../../src/shared/toolErrorText.js";

const Dir = "/home/user/code/app";
const P = (name: string) => `${Dir}/${name}`;
let n = 0;

function tool(name: string, input: JsonObject, result?: { text: string; isError?: boolean; structured?: Json }, status?: ToolCallRecord["status"]): Block {
  const id = `toolu_${++n}`;
  const call: ToolCallRecord = {
    toolUseId: id,
    name,
    input,
    status: status ?? (result === undefined ? "running" : result.isError === true ? "failed" : "completed"),
    ...(result !== undefined ? { result: { text: result.text, isError: result.isError === true, ...(result.structured !== undefined ? { structured: result.structured } : {}) } } : {}),
  };
  return { kind: "tool", id, call };
}

function agent(description: string, blocks: readonly Block[], background = false): Block {
  const id = `toolu_${++n}`;
  return {
    kind: "tool",
    id,
    call: {
      toolUseId: id,
      name: "Agent",
      input: { description, prompt: "p", subagent_type: "general-purpose" },
      status: "completed",
      subagent: { toolUseId: id, taskId: `a${n}`, subagentType: "general-purpose", description, prompt: "p", background, status: "completed", blocks, droppedBlockCount: 0 },
    },
  };
}

/** A transcript's blocks as the renderer's tree: nested steps by their Agent call's block id. */
function treeOf(blocks: readonly Block[]): StepTree {
  const byId = new Map<string, Block>();
  const steps = new Map<string, string[]>();
  const add = (parent: string, list: readonly Block[]): void => {
    steps.set(parent, list.map((b) => b.id));
    for (const b of list) {
      byId.set(b.id, b);
      if (b.call?.subagent !== undefined) add(b.id, b.call.subagent.blocks);
    }
  };
  add("", blocks);
  return { steps: (id) => steps.get(id) ?? [], block: (id) => byId.get(id) };
}

const structuredRead = (path: string, content: string, startLine = 1, totalLines?: number) => {
  const numLines = content.split("\n").length;
  return { text: "(numbered lines)", structured: { type: "text", file: { filePath: path, content, numLines, startLine, totalLines: totalLines ?? numLines } } };
};
/** What a subagent's Read carries: the numbered text alone (`N\tline`). */
const textRead = (content: string) => ({ text: content.split("\n").map((l, i) => `${i + 1}\t${l}`).join("\n") });
const created = (path: string) => ({ text: `File created successfully at: ${path} (file state is current in your context — no need to Read it back)` });
const updated = (path: string) => ({ text: `The file ${path} has been updated successfully. (file state is current in your context — no need to Read it back)` });
const edit = (path: string, oldString: string, newString: string, extra: JsonObject = {}) => ({ file_path: path, old_string: oldString, new_string: newString, replace_all: false, ...extra });

function show(row: DiffRow): string {
  const marker = row.kind === "added" ? "+" : row.kind === "removed" ? "-" : row.kind === "note" ? "\\" : " ";
  return `${row.oldLine ?? "."} ${row.newLine ?? "."} ${marker}${row.text}`;
}
const changedRows = (view: FileDiffView): string[] => view.hunks.flatMap((h) => h.rows.filter((r) => r.kind !== "context").map(show));

const six = "one\ntwo\nthree\nfour\nfive\nsix\n";

describe("file changes of a session", () => {
  it("takes the main agent's diffs from the CLI's structured patch", () => {
    const write = tool("Write", { file_path: P("notes.txt"), content: six.replace("three", "THREE") }, {
      ...updated(P("notes.txt")),
      structured: { type: "update", filePath: P("notes.txt"), content: six.replace("three", "THREE"), structuredPatch: [{ oldStart: 1, oldLines: 6, newStart: 1, newLines: 6, lines: [" one", " two", "-three", "+THREE", " four", " five", " six"] }], originalFile: six, userModified: false },
    });
    const changes = fileChanges(treeOf([tool("Read", { file_path: P("notes.txt") }, structuredRead(P("notes.txt"), six)), write]));
    expect(changes.list.map((c) => [c.path, c.call.name, c.agents.length])).toEqual([[P("notes.txt"), "Write", 0]]);
    const view = changeDiff(changes.list[0]!);
    expect(view.source).toBe("patch");
    expect(changedRows(view)).toEqual(["3 . -three", ". 3 +THREE"]);
  });

  it("computes a subagent's appending Edit against the file its own Write created: only the added lines, numbered", () => {
    // Neither CLI gives a subagent's results a structured copy.
    const sub = agent("Sub edits", [
      tool("Write", { file_path: P("sub.txt"), content: "alpha\nbeta\ngamma\n" }, created(P("sub.txt"))),
      tool("Edit", edit(P("sub.txt"), "gamma\n", "gamma\ndelta\nepsilon\n"), updated(P("sub.txt"))),
    ]);
    const changes = fileChanges(treeOf([sub]));
    expect(changes.list.map((c) => [c.call.name, c.agents.map((a) => a.description)])).toEqual([
      ["Write", ["Sub edits"]],
      ["Edit", ["Sub edits"]],
    ]);
    expect(changeDiff(changes.list[0]!)).toMatchObject({ source: "new-file", added: 3, removed: 0 });
    const view = changeDiff(changes.list[1]!);
    expect(view.source).toBe("computed");
    expect(changedRows(view)).toEqual([". 4 +delta", ". 5 +epsilon"]);
    expect(view.hunks[0]!.rows.filter((r) => r.kind === "context").map(show)).toEqual(["1 1  alpha", "2 2  beta", "3 3  gamma"]);
  });

  it("starts a subagent from what its caller had read, and keeps the subagent's view to itself", () => {
    const read = tool("Read", { file_path: P("a.txt") }, structuredRead(P("a.txt"), "x\ny\nz\n"));
    const sub = agent("Helper", [tool("Edit", edit(P("a.txt"), "y\n", "y\ny2\n"), updated(P("a.txt")))]);
    // The caller edits from its own, older view: the CLI would refuse it until the caller reads again.
    const later = tool("Edit", edit(P("a.txt"), "z\n", "z\nz2\n"));
    const changes = fileChanges(treeOf([read, sub, later]));
    expect(changedRows(changeDiff(changes.list[0]!))).toEqual([". 3 +y2"]);
    expect(changes.list[1]!.before?.text).toBe("x\ny\nz\n");
    expect(changedRows(changeDiff(changes.list[1]!))).toEqual([". 4 +z2"]);
  });

  it("reads a subagent's numbered Read text as the whole file and diffs its Write against it", () => {
    const sub = agent("Rewriter", [
      tool("Read", { file_path: P("b.txt") }, textRead("keep\nold\nkeep too\n")),
      tool("Write", { file_path: P("b.txt"), content: "keep\nnew\nkeep too\n" }, updated(P("b.txt"))),
    ]);
    const view = changeDiff(fileChanges(treeOf([sub])).list[0]!);
    expect(view.source).toBe("computed");
    expect(changedRows(view)).toEqual(["2 . -old", ". 2 +new"]);
  });

  it("reads an older CLI's Read text (`     N→line`) too", () => {
    const arrows = { text: ["     1→keep", "     2→old", "     3→"].join("\n") };
    const sub = agent("Older", [tool("Read", { file_path: P("k.txt") }, arrows), tool("Edit", edit(P("k.txt"), "old\n", "new\n"), updated(P("k.txt")))]);
    expect(changedRows(changeDiff(fileChanges(treeOf([sub])).list[0]!))).toEqual(["2 . -old", ". 2 +new"]);
  });

  it("numbers an edit inside a part of a file that was read from line 40", () => {
    const read = tool("Read", { file_path: P("c.txt"), offset: 40, limit: 3 }, structuredRead(P("c.txt"), "l40\nl41\nl42", 40, 100));
    const change = fileChanges(treeOf([read, tool("Edit", edit(P("c.txt"), "l41", "l41 changed"))])).list[0]!;
    expect(change.before).toMatchObject({ firstLine: 40, whole: false });
    expect(changedRows(changeDiff(change))).toEqual(["41 . -l41", ". 41 +l41 changed"]);
  });

  it("says 'written' for a Write over a file the transcript never showed, and 'new file' when nothing is known", () => {
    const over = tool("Write", { file_path: P("d.txt"), content: "fresh\n" }, updated(P("d.txt")));
    const pending = tool("Write", { file_path: P("e.txt"), content: "maybe\n" });
    const changes = fileChanges(treeOf([agent("W", [over, pending])]));
    expect(changeDiff(changes.list[0]!)).toMatchObject({ source: "written", added: 1 });
    expect(changeDiff(changes.list[1]!)).toMatchObject({ source: "new-file", added: 1 });
  });

  it("keeps the file as it was after a failed edit, and diffs a waiting edit against the one before it", () => {
    const write = tool("Write", { file_path: P("f.txt"), content: "a\nb\n" }, created(P("f.txt")));
    const failed = tool("Edit", edit(P("f.txt"), "nothere", "x"), { text: "<tool_use_error>String to replace not found in file.\nString: nothere</tool_use_error>", isError: true, structured: "Error: String to replace not found in file.\nString: nothere" });
    const first = tool("Edit", edit(P("f.txt"), "b\n", "b\nc\n"));
    const second = tool("Edit", edit(P("f.txt"), "c\n", "c\nd\n"));
    const changes = fileChanges(treeOf([agent("E", [write, failed, first, second])]));
    expect(changes.list.map(isApplied)).toEqual([true, false, false, false]);
    expect(changeDiff(changes.list[1]!).source).toBe("snippet");
    expect(changedRows(changeDiff(changes.list[2]!))).toEqual([". 3 +c"]);
    expect(changedRows(changeDiff(changes.list[3]!))).toEqual([". 4 +d"]);
  });

  it("falls back to the edit's own texts when the file is unknown, and names every agent down to depth 2", () => {
    const inner = agent("Inner", [tool("Edit", edit(P("g.txt"), "six\n", "six\nseven\n"), updated(P("g.txt")))]);
    const change = fileChanges(treeOf([agent("Outer", [inner])])).list[0]!;
    expect(change.agents.map((a) => a.description)).toEqual(["Outer", "Inner"]);
    const view = changeDiff(change);
    expect(view.source).toBe("snippet");
    expect(view.hunks[0]!.rows.map(show)).toEqual([". .  six", ". . +seven"]);
  });

  it("applies a MultiEdit's edits in order, and replace_all to every occurrence", () => {
    const write = tool("Write", { file_path: P("h.txt"), content: "a = 1\nb = 1\nc\n" }, created(P("h.txt")));
    const multi = tool("MultiEdit", { file_path: P("h.txt"), edits: [{ old_string: "1", new_string: "2", replace_all: true }, { old_string: "c\n", new_string: "c\nd\n" }] }, updated(P("h.txt")));
    const view = changeDiff(fileChanges(treeOf([agent("M", [write, multi])])).list[1]!);
    expect(changedRows(view)).toEqual(["1 . -a = 1", "2 . -b = 1", ". 1 +a = 2", ". 2 +b = 2", ". 4 +d"]);
  });

  it("returns the same change and diff objects when the transcript is walked again", () => {
    const blocks = [tool("Write", { file_path: P("i.txt"), content: "1\n" }, created(P("i.txt"))), tool("Edit", edit(P("i.txt"), "1\n", "1\n2\n"))];
    const first = fileChanges(treeOf(blocks));
    const again = fileChanges(treeOf([...blocks, tool("Bash", { command: "ls" }, { text: "" })]));
    expect(again.list[1]).toBe(first.list[1]);
    expect(changeDiff(again.list[1]!)).toBe(changeDiff(first.list[1]!));
  });

  it("gives a call seen alone its patch or its snippet", () => {
    const call = tool("Edit", edit(P("j.txt"), "x", "y")).call!;
    expect(changeDiff(changeOfCall(call)).source).toBe("snippet");
    expect(changeOfCall(call)).toBe(changeOfCall(call));
  });
});

describe("tool errors", () => {
  it("shows an error's message without the CLI's tags", () => {
    expect(toolResultText("<tool_use_error>String to replace not found in file.\nString: nothere</tool_use_error>", true)).toBe("String to replace not found in file.\nString: nothere");
    expect(toolResultText("  <tool_use_error>File has not been read yet.</tool_use_error>\n", true)).toBe("File has not been read yet.");
  });

  it("leaves output alone that is not an error, or only mentions the tags", () => {
    expect(toolResultText("<tool_use_error>x</tool_use_error>", false)).toBe("<tool_use_error>x</tool_use_error>");
    expect(toolResultText("grep found <tool_use_error>x</tool_use_error> in a.txt", true)).toBe("grep found <tool_use_error>x</tool_use_error> in a.txt");
    expect(toolResultText("<tool_use_error>a</tool_use_error><tool_use_error>b</tool_use_error>", true)).toBe("<tool_use_error>a</tool_use_error><tool_use_error>b</tool_use_error>");
  });
});
