// The transcript's rows: one per top-level block, except that runs of at least GroupMinRun
// consecutive plain tool calls fold into one expandable group. Subagent cards and interactive
// tools (questions, plans) never join a group: they must stay visible on their own.

import type { Block } from "../../shared/transcript.js";

export const GroupMinRun = 3;

export type Row =
  | { readonly kind: "block"; readonly key: string; readonly id: string }
  | { readonly kind: "group"; readonly key: string; readonly ids: readonly string[] };

const Interactive = new Set(["AskUserQuestion", "ExitPlanMode"]);

export function isPlainTool(block: Block | undefined): boolean {
  const call = block?.call;
  return block?.kind === "tool" && call !== undefined && call.subagent === undefined && !Interactive.has(call.name);
}

export function buildRows(ids: readonly string[], blockOf: (id: string) => Block | undefined): Row[] {
  const rows: Row[] = [];
  let run: string[] = [];
  const flush = (): void => {
    if (run.length >= GroupMinRun) rows.push({ kind: "group", key: `group:${run[0]!}`, ids: run });
    else for (const id of run) rows.push({ kind: "block", key: id, id });
    run = [];
  };
  for (const id of ids) {
    if (isPlainTool(blockOf(id))) {
      run.push(id);
      continue;
    }
    flush();
    rows.push({ kind: "block", key: id, id });
  }
  flush();
  return rows;
}

/** The row that shows `blockId` (a top-level id), or -1. */
export function rowIndexOf(rows: readonly Row[], blockId: string): number {
  return rows.findIndex((r) => (r.kind === "block" ? r.id === blockId : r.ids.includes(blockId)));
}
