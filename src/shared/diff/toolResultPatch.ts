// What an Edit, MultiEdit or Write result says of the file (`toolUseResult` on disk,
// `tool_use_result` on stdout; docs/protocol-notes.md): its structured patch, the file before, and
// whether the Write created it. Both CLIs give these for the main agent's calls only: a subagent's
// results carry none, live or in its sidechain file, so its diffs are computed (fileChanges.ts).
// History text: every field is checked where it is read.

import { arr, isObject, num, str } from "../jsonFields.js";
import type { Json, JsonObject } from "../protocol/messages.js";
import type { PatchHunk } from "./diffModel.js";

export interface ResultPatch {
  /** The CLI's hunks; absent when the result has none (an empty list is a Write that changed nothing, or a create). */
  readonly hunks?: readonly PatchHunk[];
  /** The whole file before the call (`originalFile`; MultiEdit's `originalFileContents`); null when it did not exist. */
  readonly original?: string | null;
  /** A Write said it created the file (`type: "create"`). */
  readonly created: boolean;
}

/** The file facts of a result's structured copy, or undefined when it has none (an error's is a string). */
export function resultPatchOf(structured: Json | undefined): ResultPatch | undefined {
  if (!isObject(structured)) return undefined;
  const hunks = hunksOf(structured["structuredPatch"]);
  const original = structured["originalFile"] !== undefined ? structured["originalFile"] : structured["originalFileContents"];
  return {
    ...(hunks !== undefined ? { hunks } : {}),
    ...(typeof original === "string" || original === null ? { original } : {}),
    created: str(structured, "type") === "create",
  };
}

function hunksOf(value: Json | undefined): PatchHunk[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const hunks: PatchHunk[] = [];
  for (const item of value as readonly Json[]) {
    if (!isObject(item)) continue;
    const oldStart = num(item, "oldStart");
    const newStart = num(item, "newStart");
    const lines = arr(item, "lines");
    if (oldStart === undefined || newStart === undefined || lines === undefined) continue;
    hunks.push({ oldStart: Math.max(0, Math.floor(oldStart)), newStart: Math.max(0, Math.floor(newStart)), lines: lines.filter((l): l is string => typeof l === "string") });
  }
  return hunks;
}

/** The string field of a tool call's input ("" when absent or not a string). */
export function inputText(input: JsonObject, key: string): string {
  const value = input[key];
  return typeof value === "string" ? value : "";
}
