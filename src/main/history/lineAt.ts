// One line of a history file, read by its byte offset: what the search index keeps of a row's place
// (search/rowText.ts reads a row's text back), and where a hit is found again in its session
// (hitPlaces.ts). Also the tool call a tool result answers, looked for a little way before it.
import fs from "node:fs";
import type { Json } from "../../shared/protocol/messages.js";
import { arr, isObject, obj, str } from "../../shared/jsonFields.js";
import { openRegularFileSync } from "../platform/regularFile.js";
import { DefaultMaxLineBytes } from "./jsonlReader.js";
import { parseJsonLine } from "./splitJson.js";

const ReadBytes = 64 * 1024;

/**
 * The line that starts at `offset`, without its newline; undefined if the file or the line is gone.
 * A line longer than the reader takes was never read as a line, so reading stops there.
 */
export function readLineAt(path: string, offset: number): string | undefined {
  let fd: number;
  try {
    fd = openRegularFileSync(path);
  } catch {
    return undefined;
  }
  try {
    const parts: Buffer[] = [];
    let total = 0;
    for (let at = offset; total < DefaultMaxLineBytes; ) {
      const buf = Buffer.allocUnsafe(ReadBytes);
      const n = fs.readSync(fd, buf, 0, ReadBytes, at);
      if (n === 0) break;
      const newline = buf.subarray(0, n).indexOf(10);
      parts.push(buf.subarray(0, newline === -1 ? n : newline));
      total += newline === -1 ? n : newline;
      if (newline !== -1) break;
      at += n;
    }
    if (total === 0) return undefined;
    return new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(parts, total)).trim();
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** How far before a tool result its call is looked for: the CLI writes the call a line or a few before. */
export const ToolUseLookBack = 256 * 1024;

/** A tool call as a result's label needs it: the tool's name, and an Agent call's description. */
export interface ToolUseSeen {
  readonly name: string;
  readonly description?: string;
}

/**
 * The tool_use `toolUseId` in a line that ends before `offset` and starts at most ToolUseLookBack
 * before it; undefined when there is none (a call further back, or in another file).
 */
export function toolUseBefore(path: string, offset: number, toolUseId: string): ToolUseSeen | undefined {
  if (toolUseId === "" || offset <= 0) return undefined;
  const from = Math.max(0, offset - ToolUseLookBack);
  let window: Buffer;
  try {
    const fd = openRegularFileSync(path);
    try {
      window = Buffer.alloc(offset - from);
      window = window.subarray(0, fs.readSync(fd, window, 0, window.length, from));
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const needle = Buffer.from(JSON.stringify(toolUseId));
  for (let at = window.lastIndexOf(needle); at !== -1; at = at === 0 ? -1 : window.lastIndexOf(needle, at - 1)) {
    const start = window.lastIndexOf(10, at) + 1;
    // A line cut by the window's start cannot be read whole.
    if (start === 0 && from > 0) return undefined;
    const newline = window.indexOf(10, at);
    const found = toolUseIn(window.subarray(start, newline === -1 ? window.length : newline).toString("utf8"), toolUseId);
    if (found !== undefined) return found;
    at = start;
  }
  return undefined;
}

function toolUseIn(text: string, toolUseId: string): ToolUseSeen | undefined {
  for (const value of parseJsonLine(text)?.values ?? []) {
    const line = value as Json;
    if (!isObject(line)) continue;
    for (const b of arr(obj(line, "message"), "content") ?? []) {
      if (!isObject(b)) continue;
      if (str(b, "id") !== toolUseId || !/tool_use$/.test(str(b, "type") ?? "")) continue;
      const name = str(b, "name");
      if (name === undefined) return undefined;
      const description = str(obj(b, "input"), "description");
      return { name, ...(description !== undefined && description !== "" ? { description } : {}) };
    }
  }
  return undefined;
}
