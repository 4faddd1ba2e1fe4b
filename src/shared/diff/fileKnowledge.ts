// What a transcript shows of a file's content: a Read's lines, a Write's content, an edit applied
// to what was known before. An agent's view is what its own calls showed, which is also what the
// CLI checks an edit against (it refuses one to a file changed since the agent last read it).

import { isObject, num, obj, str } from "../jsonFields.js";
import type { JsonObject } from "../protocol/messages.js";
import type { ToolCallRecord } from "../transcript.js";
import { inputText } from "./toolResultPatch.js";

export interface Knowledge {
  /** The lines known, joined as in the file. */
  readonly text: string;
  /** The file's line number of the first of them. */
  readonly firstLine: number;
  /** The text is the whole file. */
  readonly whole: boolean;
}

export interface EditSpec {
  readonly oldString: string;
  readonly newString: string;
  readonly replaceAll: boolean;
}

/** The CLI's Read stops at this many lines when no limit is given. */
const ReadLineLimit = 2000;

/** `   12→text` (older CLIs) or `12\ttext` (2.1.x): a Read result's numbered line. */
const NumberedLine = /^ *(\d+)(?:\t|\u2192)(.*)$/s;

export function wholeFile(text: string): Knowledge {
  return { text, firstLine: 1, whole: true };
}

/** What a successful Read showed of its file, or undefined (an image, an empty file, an error, text that is not numbered lines). */
export function readKnowledge(call: ToolCallRecord): Knowledge | undefined {
  const result = call.result;
  if (result === undefined || result.isError || call.status !== "completed") return undefined;
  const file = isObject(result.structured) ? obj(result.structured, "file") : undefined;
  if (file !== undefined && str(result.structured as JsonObject, "type") === "text") return fromStructured(file);
  return fromNumberedText(result.text, call.input);
}

/** `{type:"text", file:{content, startLine, numLines, totalLines}}`: the main agent's Reads. */
function fromStructured(file: JsonObject): Knowledge | undefined {
  const text = str(file, "content");
  const startLine = num(file, "startLine") ?? 1;
  const numLines = num(file, "numLines");
  const totalLines = num(file, "totalLines");
  if (text === undefined || startLine < 1) return undefined;
  const whole = startLine === 1 && numLines !== undefined && totalLines !== undefined && numLines >= totalLines;
  return { text, firstLine: Math.floor(startLine), whole };
}

/**
 * A subagent's Read carries only the text the model read: numbered lines, maybe a note after
 * them. The run of consecutively numbered lines from the start is the file's text; it is the whole
 * file when the call asked for no range and stayed under the CLI's line limit.
 */
function fromNumberedText(text: string, input: JsonObject): Knowledge | undefined {
  const lines: string[] = [];
  let first = 0;
  for (const line of text.split("\n")) {
    const match = NumberedLine.exec(line);
    if (match === null) break;
    const n = Number(match[1]);
    if (lines.length === 0) first = n;
    else if (n !== first + lines.length) break;
    lines.push(match[2]!);
  }
  if (lines.length === 0 || first < 1) return undefined;
  const ranged = (typeof input["offset"] === "number" && input["offset"] > 1) || typeof input["limit"] === "number";
  return { text: lines.join("\n"), firstLine: first, whole: first === 1 && !ranged && lines.length < ReadLineLimit };
}

/** The edits of an Edit or MultiEdit call's input. */
export function editsOf(call: ToolCallRecord): readonly EditSpec[] {
  if (call.name === "Edit") return [specOf(call.input)];
  const edits = call.input["edits"];
  if (!Array.isArray(edits)) return [];
  return edits.filter(isObject).map(specOf);
}

function specOf(input: JsonObject): EditSpec {
  return { oldString: inputText(input, "old_string"), newString: inputText(input, "new_string"), replaceAll: input["replace_all"] === true };
}

/**
 * The known text with the edits made in order, as the CLI makes them, or undefined when one of
 * them would not apply to it (its text not there, or there more than once without replace_all).
 */
export function applyEdits(known: Knowledge, edits: readonly EditSpec[]): Knowledge | undefined {
  let text = known.text;
  for (const edit of edits) {
    const next = applyEdit(text, edit);
    if (next === undefined) return undefined;
    text = next;
  }
  return edits.length === 0 ? undefined : { ...known, text };
}

function applyEdit(text: string, edit: EditSpec): string | undefined {
  if (edit.oldString === "") return text === "" ? edit.newString : undefined;
  let old = edit.oldString;
  // Deleting a line without its newline deletes the newline too (the CLI's rule).
  if (edit.newString === "" && !old.endsWith("\n") && text.includes(`${old}\n`)) old = `${old}\n`;
  const at = text.indexOf(old);
  if (at === -1) return undefined;
  if (edit.replaceAll) return text.split(old).join(edit.newString);
  if (text.indexOf(old, at + 1) !== -1) return undefined;
  return text.slice(0, at) + edit.newString + text.slice(at + old.length);
}
