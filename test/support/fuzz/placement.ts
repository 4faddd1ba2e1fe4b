// Where a subagent's blocks must be: never at the top level of the transcript, and inside the card
// of the Agent call their line names whenever the transcript has that card. A block is known by
// its id (transcript.ts: the tool_use id of a call, `<line uuid or message id>:<n>` otherwise), so
// the lines that name a parent give the ids to look for.

import { expect } from "vitest";
import type { Block, SubagentRecord, Transcript } from "../../../src/shared/transcript.js";

type Line = Readonly<Record<string, unknown>>;

/** What subagent lines put in a transcript: block ids and line keys, each with the Agent call the line names. */
export interface SubagentOrigins {
  /** tool_use ids of calls made (or answered) in a subagent's lines → the parent Agent call. */
  readonly calls: Map<string, string>;
  /** `uuid` (else message id) of a subagent's assistant line → the parent Agent call: its text blocks are `<key>:<n>`. */
  readonly lineKeys: Map<string, string>;
  /** `uuid` of a subagent's prompt line → the parent Agent call: the record's prompt, no block. */
  readonly prompts: Map<string, string>;
  /** Ids and keys a conductor's line used too (a damaged copy of a line lost its parent): not judged. */
  readonly conductors: Set<string>;
  /** Every parent some line gave an id or key (a damaged copy may name another): any of them is its home. */
  readonly named: Map<string, Set<string>>;
}

export function emptyOrigins(): SubagentOrigins {
  return { calls: new Map(), lineKeys: new Map(), prompts: new Map(), conductors: new Set(), named: new Map() };
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** Adds what one line (a stdout line, or a history line read as `parent`'s) would put under its parent. */
export function noteLine(origins: SubagentOrigins, line: Line, parent: string | undefined): void {
  const message = line["message"];
  const m = message !== null && typeof message === "object" && !Array.isArray(message) ? (message as Record<string, unknown>) : undefined;
  const content = m?.["content"];
  const key = str(line["uuid"]) ?? str(m?.["id"]);
  // A user line of a subagent with text is its prompt: the record's, never a block (its id would be the uuid).
  const prompt = typeof content === "string" || (Array.isArray(content) && content.some((b) => (b as Record<string, unknown> | null)?.["type"] === "text"));
  if (line["type"] === "user" && prompt && key !== undefined) {
    if (parent === undefined) origins.conductors.add(key);
    else origins.prompts.set(key, parent);
  }
  if (!Array.isArray(content)) return;
  const note = (map: Map<string, string>, id: string | undefined): void => {
    if (id === undefined) return;
    if (parent === undefined) return void origins.conductors.add(id);
    if (!map.has(id)) map.set(id, parent);
    const named = origins.named.get(id);
    if (named === undefined) origins.named.set(id, new Set([parent]));
    else named.add(parent);
  };
  for (const block of content) {
    if (block === null || typeof block !== "object") continue;
    const b = block as Record<string, unknown>;
    const type = str(b["type"]);
    if (type === "tool_result") note(origins.calls, str(b["tool_use_id"]));
    else if (type?.endsWith("tool_use") === true) note(origins.calls, str(b["id"]));
    else if (line["type"] === "assistant" && (type === "text" || type === "thinking" || type === "redacted_thinking")) note(origins.lineKeys, key);
  }
}

/** A stdout line's parent: its parent_tool_use_id. */
export function streamParent(line: Line): string | undefined {
  return str(line["parent_tool_use_id"]);
}

/**
 * Nothing of subagent origin is lost: each call and each assistant line that names a card the
 * transcript has shows in that card (unless the card's cap dropped older blocks).
 */
export function expectNothingLost(t: Transcript, origins: SubagentOrigins, what: string): void {
  const records = recordsById(t.blocks);
  const lost: string[] = [];
  const look = (home: SubagentRecord | undefined, found: (b: Block) => boolean, name: string): void => {
    if (home !== undefined && home.droppedBlockCount === 0 && !home.blocks.some(found)) lost.push(name);
  };
  for (const [id, parent] of origins.calls) look(records.get(parent), (b) => b.id === id, `call ${id} of ${parent}`);
  for (const [key, parent] of origins.lineKeys) look(records.get(parent), (b) => b.id.startsWith(`${key}:`), `line ${key} of ${parent}`);
  expect(lost, `${what}: subagent blocks missing from their card`).toEqual([]);
}

/** The Agent call a block of subagent origin belongs to, or undefined when a conductor's line made it. */
function originOf(origins: SubagentOrigins, block: Block): string | undefined {
  if (origins.conductors.has(block.id)) return undefined;
  const call = origins.calls.get(block.id) ?? origins.prompts.get(block.id);
  if (call !== undefined) return call;
  const cut = block.id.lastIndexOf(":");
  const key = block.id.slice(0, cut);
  return cut === -1 || origins.conductors.has(key) ? undefined : origins.lineKeys.get(key);
}

/** Every parent the lines that made `block` named. */
function namedBy(origins: SubagentOrigins, block: Block): ReadonlySet<string> {
  const cut = block.id.lastIndexOf(":");
  return origins.named.get(block.id) ?? (cut === -1 ? undefined : origins.named.get(block.id.slice(0, cut))) ?? new Set();
}

/** Every subagent record of the transcript, by its Agent call id, at any depth. */
function recordsById(blocks: readonly Block[], out = new Map<string, SubagentRecord>()): Map<string, SubagentRecord> {
  for (const b of blocks) {
    const record = b.call?.subagent;
    if (record === undefined) continue;
    out.set(b.id, record);
    recordsById(record.blocks, out);
  }
  return out;
}

/**
 * No block of subagent origin at the top level, and every block of subagent origin that the card
 * its line names could hold is in that card (or the card's cap dropped older blocks). Returns how
 * many blocks of subagent origin were checked inside cards.
 */
export function expectSubagentBlocksPlaced(t: Transcript, origins: SubagentOrigins, what: string): number {
  const strays = t.blocks.filter((b) => originOf(origins, b) !== undefined).map((b) => `${b.id} (line names ${originOf(origins, b)})`);
  expect(strays, `${what}: subagent blocks at the top level`).toEqual([]);
  const records = recordsById(t.blocks);
  let checked = 0;
  const misplaced: string[] = [];
  for (const [id, record] of records) {
    for (const b of record.blocks) {
      const origin = originOf(origins, b);
      if (origin === undefined) continue;
      checked++;
      const home = records.get(origin);
      if (origin !== id && !namedBy(origins, b).has(id) && home !== undefined && !home.blocks.some((x) => x.id === b.id) && home.droppedBlockCount === 0) {
        misplaced.push(`${b.id} in ${id}'s card, its line names ${origin}`);
      }
    }
  }
  expect(misplaced, `${what}: subagent blocks in another agent's card`).toEqual([]);
  return checked;
}
