// Choosing where the first screen of a restore starts: parse the lines read from the end of the
// file, estimate how many top-level blocks each will make, and start at the newest prompt that
// leaves at least the wanted number of blocks after it (a turn boundary, so the window holds whole
// turns). A very long turn has no prompt near the end: then any user/assistant line will do,
// because results whose call lies before the window are left out.

import type { JsonObject } from "../../shared/protocol/messages.js";
import { diskLineToEvents } from "./diskToEvents.js";
import { ExcerptChars, MaxKeptProblems, type JsonlProblem, type JsonlStats } from "./jsonlReader.js";
import { bool, str } from "../../shared/jsonFields.js";
import { isHeavyLine } from "./heavyLines.js";
import { parseJsonLine } from "./splitJson.js";
import type { TailLine } from "./tailReader.js";

/** How many blocks past the wanted number a window may grow while looking for a prompt. */
const MaxExtraBlocks = 200;

export interface WindowLine {
  readonly value: JsonObject;
  readonly offset: number;
  /** Top-level blocks this line will probably add. */
  readonly blocks: number;
  /** A prompt the person typed: a turn starts here. */
  readonly turnStart: boolean;
  /** A user or assistant line of the main conversation: a window may start here. */
  readonly clean: boolean;
}

const BlockTypes = new Set(["text", "thinking", "redacted_thinking", "tool_use", "server_tool_use", "mcp_tool_use"]);

export function windowLine(value: JsonObject, offset: number): WindowLine {
  const type = str(value, "type");
  if (bool(value, "isSidechain") || (type !== "user" && type !== "assistant" && type !== "system" && type !== "attachment")) {
    return { value, offset, blocks: 0, turnStart: false, clean: false };
  }
  let blocks = 0;
  let prompt = false;
  for (const event of diskLineToEvents(value, null)) {
    if (event.kind === "assistant_block") blocks += BlockTypes.has(event.block.type) ? 1 : 0;
    else if (event.kind === "user_prompt" && event.isMeta !== true) {
      blocks++;
      prompt = true;
    } else if (event.kind === "interrupt_marker" || event.kind === "notice" || event.kind === "compact_boundary") blocks++;
  }
  return { value, offset, blocks, turnStart: type === "user" && prompt, clean: type === "user" || type === "assistant" };
}

/**
 * Index (into `newestFirst`) of the line the window starts at, or undefined when more lines are
 * needed. The window is the lines from that index back to 0, i.e. to the end of the file.
 */
export function chooseStart(newestFirst: readonly WindowLine[], wantBlocks: number): number | undefined {
  let count = 0;
  let fallback: number | undefined;
  for (let i = 0; i < newestFirst.length; i++) {
    const line = newestFirst[i]!;
    count += line.blocks;
    if (count < wantBlocks) continue;
    if (line.turnStart) return i;
    if (fallback === undefined && line.clean) fallback = i;
    if (fallback !== undefined && count >= wantBlocks + MaxExtraBlocks) return fallback;
  }
  return undefined;
}

/** The oldest prompt read so far, else the oldest line a window may start at (0 if none is). */
export function oldestStart(newestFirst: readonly WindowLine[]): number {
  let clean: number | undefined;
  for (let i = newestFirst.length - 1; i >= 0; i--) {
    const line = newestFirst[i]!;
    if (line.turnStart) return i;
    clean ??= line.clean ? i : undefined;
  }
  return clean ?? 0;
}

/** Parses one line read backwards; bad lines are counted like the forward reader counts them. */
export class TailLineParser {
  private readonly kept: JsonlProblem[] = [];
  /** Where the earliest record read starts (reading backwards, it only moves towards the start). */
  private firstRecord = Number.POSITIVE_INFINITY;
  private readonly decoder = new TextDecoder("utf-8", { fatal: true });

  constructor(readonly stats: JsonlStats) {}

  parse(line: TailLine): JsonObject[] {
    this.stats.lines++;
    if (isHeavyLine(line.bytes)) {
      this.stats.heavy++;
      return [];
    }
    if (line.tooLong) return this.bad("too_long", line);
    let text: string;
    try {
      text = this.decoder.decode(line.bytes).trim();
    } catch {
      return this.bad("invalid_utf8", line);
    }
    const parsed = parseJsonLine(text);
    if (parsed === undefined) return this.bad(line.terminated ? "not_json" : "truncated", line, text);
    if (parsed.glued) this.stats.glued++;
    const out: JsonObject[] = [];
    for (const value of parsed.values) {
      if (value === null || typeof value !== "object" || Array.isArray(value)) {
        this.bad("not_object", line, text);
        continue;
      }
      this.stats.records++;
      this.firstRecord = line.offset;
      out.push(value as JsonObject);
    }
    return out;
  }

  /** The bad lines kept; those before the first record are not quoted, as the forward reader does (jsonlReader.ts). */
  get problems(): JsonlProblem[] {
    return this.kept.map((p) => (p.offset < this.firstRecord && p.excerpt !== undefined ? { reason: p.reason, lineNumber: p.lineNumber, offset: p.offset } : p));
  }

  private bad(reason: JsonlProblem["reason"], line: TailLine, text?: string): [] {
    const key = ({ too_long: "tooLong", invalid_utf8: "invalidUtf8", not_json: "notJson", truncated: "truncated", not_object: "notObject" } as const)[reason];
    this.stats[key]++;
    if (this.kept.length < MaxKeptProblems) {
      // Line numbers are unknown when reading backwards; the offset locates the line.
      this.kept.push({ reason, lineNumber: 0, offset: line.offset, ...(text !== undefined ? { excerpt: text.slice(0, ExcerptChars) } : {}) });
    }
    return [];
  }
}
