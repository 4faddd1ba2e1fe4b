// Every file change of a session, in transcript order, each with who made it and what its agent
// last saw of the file before it. One walk over the agent tree: an agent starts from what its
// caller knew when it called it (the CLI hands a subagent a copy of its caller's file reads) and
// its own calls change only its own view, as the CLI's checks do. Memoised per call, so walking a
// transcript again after a delta costs a lookup for every call that did not change.

import type { Block, ToolCallRecord } from "../transcript.js";
import { applyEdits, editsOf, readKnowledge, wholeFile, type Knowledge } from "./fileKnowledge.js";
import { inputText, resultPatchOf } from "./toolResultPatch.js";

/** The tools that change a file, and the input field that names it. */
export const FileChangeTools: Readonly<Record<string, string>> = { Edit: "file_path", MultiEdit: "file_path", Write: "file_path", NotebookEdit: "notebook_path" };

/** The blocks of a transcript by parent: "" is the session's own agent, an Agent call's block id its steps. */
export interface StepTree {
  steps(parentId: string): readonly string[];
  block(id: string): Block | undefined;
}

export interface AgentRef {
  readonly blockId: string;
  readonly description: string;
  readonly subagentType: string;
}

export interface FileChange {
  readonly blockId: string;
  readonly call: ToolCallRecord;
  readonly path: string;
  /** The agents the call ran in, outermost first; empty for the session's own agent. */
  readonly agents: readonly AgentRef[];
  /** What the calling agent's transcript last showed of the file before the call. */
  readonly before: Knowledge | undefined;
}

export interface FileChanges {
  /** Every change, in transcript order (an agent's changes at its Agent call). */
  readonly list: readonly FileChange[];
  readonly byToolUseId: ReadonlyMap<string, FileChange>;
}

interface Memo {
  readonly before: Knowledge | undefined;
  readonly agentsKey: string;
  readonly change: FileChange;
  readonly after: Knowledge | undefined;
}

const memos = new WeakMap<ToolCallRecord, Memo>();
const reads = new WeakMap<ToolCallRecord, Knowledge | null>();

export function fileChanges(tree: StepTree): FileChanges {
  const list: FileChange[] = [];
  walk(tree, "", new Map(), [], "", list, new Set());
  const byToolUseId = new Map<string, FileChange>();
  for (const change of list) byToolUseId.set(change.call.toolUseId, change);
  return { list, byToolUseId };
}

/** Whether the change was made: the call finished without an error. */
export function isApplied(change: FileChange): boolean {
  return change.call.status === "completed" && change.call.result?.isError !== true;
}

function walk(tree: StepTree, parentId: string, known: Map<string, Knowledge>, agents: readonly AgentRef[], agentsKey: string, out: FileChange[], seen: Set<string>): void {
  for (const id of tree.steps(parentId)) {
    if (seen.has(id)) continue; // a malformed tree never loops
    seen.add(id);
    const call = tree.block(id)?.call;
    if (call === undefined) continue;
    const record = call.subagent;
    if (record !== undefined) {
      const agent: AgentRef = { blockId: id, description: record.description, subagentType: record.subagentType };
      walk(tree, id, new Map(known), [...agents, agent], `${agentsKey}/${id}:${record.subagentType}:${record.description}`, out, seen);
      continue;
    }
    if (call.name === "Read") {
      const read = readOf(call);
      const path = inputText(call.input, "file_path");
      if (read !== undefined && path !== "") known.set(path, read);
      continue;
    }
    const pathField = FileChangeTools[call.name];
    const path = pathField !== undefined ? inputText(call.input, pathField) : "";
    if (path === "") continue;
    const memo = stepOf(id, call, path, known.get(path), agents, agentsKey);
    out.push(memo.change);
    if (memo.after !== undefined) known.set(path, memo.after);
    else known.delete(path);
  }
}

function readOf(call: ToolCallRecord): Knowledge | undefined {
  let read = reads.get(call);
  if (read === undefined) {
    read = readKnowledge(call) ?? null;
    reads.set(call, read);
  }
  return read ?? undefined;
}

function stepOf(blockId: string, call: ToolCallRecord, path: string, before: Knowledge | undefined, agents: readonly AgentRef[], agentsKey: string): Memo {
  const memo = memos.get(call);
  if (memo !== undefined && memo.before === before && memo.agentsKey === agentsKey && memo.change.blockId === blockId) return memo;
  const change: FileChange = { blockId, call, path, agents, before };
  const made: Memo = { before, agentsKey, change, after: afterOf(call, before) };
  memos.set(call, made);
  return made;
}

/**
 * What the agent knows of the file after the call: unchanged when the call failed or was refused;
 * for a call still waiting or running, the change it is about to make (calls later in the same
 * answer are made after it).
 */
function afterOf(call: ToolCallRecord, before: Knowledge | undefined): Knowledge | undefined {
  if (call.status === "failed" || call.status === "denied" || call.status === "stopped" || call.result?.isError === true) return before;
  if (call.name === "Write") return wholeFile(inputText(call.input, "content"));
  if (call.name === "NotebookEdit") return undefined;
  const original = resultPatchOf(call.result?.structured)?.original;
  const base = typeof original === "string" ? wholeFile(original) : before;
  return base === undefined ? undefined : applyEdits(base, editsOf(call));
}
