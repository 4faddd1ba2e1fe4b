// The diff of one file change, from the best source there is: the tool result's structured patch
// (the CLI's own), else one computed with jsdiff against the file as the calling agent's transcript
// last showed it, else the edit's own texts (no line numbers), else, for a Write with nothing
// known, the new file. Memoised per change: a card asks on every render.

import type { FileDiffView } from "./diffModel.js";
import { hunkRows, viewOf } from "./diffRows.js";
import { computedView, newFileView, snippetView, withNewline } from "./computeDiff.js";
import { applyEdits, editsOf, wholeFile } from "./fileKnowledge.js";
import { FileChangeTools, type FileChange } from "./fileChanges.js";
import type { ToolCallRecord } from "../transcript.js";
import { inputText, resultPatchOf } from "./toolResultPatch.js";

const views = new WeakMap<FileChange, FileDiffView>();

/** A Write's result text when it replaced a file (both CLIs): "The file … has been updated successfully." */
const UpdatedText = /has been updated successfully/;

export function changeDiff(change: FileChange): FileDiffView {
  let view = views.get(change);
  if (view === undefined) {
    view = diffOf(change);
    views.set(change, view);
  }
  return view;
}

function diffOf({ call, before }: FileChange): FileDiffView {
  const result = resultPatchOf(call.result?.structured);
  if (result?.hunks !== undefined && result.hunks.length > 0) return viewOf("patch", hunkRows(result.hunks, { numbered: true }));
  if (call.name === "Write") {
    const content = inputText(call.input, "content");
    if (result?.created === true || result?.original === null) return newFileView(content);
    // The CLI's empty patch for a Write that replaced a file with the same text.
    if (result?.hunks !== undefined && typeof result.original === "string") return viewOf("patch", hunkRows([], { numbered: true }));
    if (typeof result?.original === "string") return computedView(result.original, content);
    if (before?.whole === true) return computedView(before.text, content);
    return newFileView(content, call.result !== undefined && UpdatedText.test(call.result.text) ? "written" : "new-file");
  }
  if (call.name === "NotebookEdit") return snippetView([{ before: "", after: inputText(call.input, "new_source") }]);
  const edits = editsOf(call);
  const base = typeof result?.original === "string" ? wholeFile(result.original) : before;
  const after = base === undefined ? undefined : applyEdits(base, edits);
  if (base !== undefined && after !== undefined) {
    // Part of a file goes on past its last line: that line has its newline, whatever the read cut.
    if (!base.whole) return computedView(withNewline(base.text), withNewline(after.text), base.firstLine - 1);
    return computedView(base.text, after.text);
  }
  return snippetView(edits.map((e) => ({ before: e.oldString, after: e.newString })));
}

const alone = new WeakMap<ToolCallRecord, FileChange>();

/** A call seen without its transcript (a test, a detached view): its diff from the call alone. */
export function changeOfCall(call: ToolCallRecord): FileChange {
  let change = alone.get(call);
  if (change === undefined) {
    const path = inputText(call.input, FileChangeTools[call.name] ?? "file_path");
    change = { blockId: "", call, path, agents: [], before: undefined };
    alone.set(call, change);
  }
  return change;
}
