// Where a search hit stands in its restored session: the block its row's event made and the
// subagent cards that hold that block, outermost first. The index names a row by its file, its
// line's byte offset and the event of that line (search/extract.ts reads each line alone through
// the "lines" stream); the same line read again the same way gives the same event, and the hub's
// rules give its block id (toolCalls.ts, turns.ts): a call and its result are the tool_use id's
// block, a text or thinking `<line uuid or message id>:<n>`, a prompt its line's uuid, and a
// subagent's prompt its card. A sidechain's card is the Agent call its file is linked to; a nested
// one's parents are the agents whose sidechains hold their calls, loaded here as a card opened by
// hand would load them.
import path from "node:path";
import type { ClientEvent } from "../../shared/events.js";
import type { Json } from "../../shared/protocol/messages.js";
import { isObject } from "../../shared/jsonFields.js";
import type { Block, Transcript } from "../../shared/transcript.js";
import { eventStream } from "./eventStream.js";
import { loadSubagentBlocks, sidechainSource, type HistorySession } from "./historySession.js";
import { readLineAt } from "./lineAt.js";
import { parseJsonLine } from "./splitJson.js";

/** A search hit's row, as the index places it. */
export interface HitRow {
  readonly file: string;
  /** Byte offset of the row's line in `file`. */
  readonly offset: number;
  /** The event of that line the row comes from (as the "lines" stream gives them). */
  readonly event: number;
}

/** Where a hit shows: its block, and the cards around it, outermost first. */
export interface HitPlace {
  /** Agent tool_use ids from the top-level card down to the one whose steps hold the block. */
  readonly cards: readonly string[];
  readonly blockId: string;
  /** The block's position at each depth (transcript order, for sorting hits). */
  readonly order: readonly number[];
}

/** A row's event as a block: its id, or "card" for a subagent's prompt (shown by the card itself). */
export type EventBlock = string | "card" | undefined;

/** The block `events[index]` makes, by the hub's rules; undefined when it makes none. */
export function blockOfEvent(events: readonly ClientEvent[], index: number, inSidechain: boolean): EventBlock {
  const event = events[index];
  switch (event?.kind) {
    case "user_prompt":
      if (inSidechain) return "card";
      return event.isMeta === true ? undefined : event.uuid;
    case "tool_result":
      return event.toolUseId === "" ? undefined : event.toolUseId;
    case "assistant_block": {
      const block = event.block;
      if (block.type === "tool_use" || block.type === "server_tool_use" || block.type === "mcp_tool_use") return block.id;
      // n counts the blocks of the line before this one (lineBlockIndex in hub/toolCalls.ts).
      const key = event.uuid ?? event.messageId;
      let n = 0;
      for (let i = 0; i < index; i++) {
        const before = events[i];
        if (before?.kind === "assistant_block" && (before.uuid ?? before.messageId) === key) n++;
      }
      return `${key}:${n}`;
    }
    default:
      return undefined;
  }
}

/** The events of the line at `offset` of `file`, read alone as the index read it; undefined when it is gone. */
export function lineEventsAt(file: string, offset: number): readonly ClientEvent[] | undefined {
  const text = readLineAt(file, offset);
  if (text === undefined) return undefined;
  const lines = eventStream({ kind: "lines" });
  const events: ClientEvent[] = [];
  try {
    for (const value of parseJsonLine(text)?.values ?? []) {
      const line = value as Json;
      if (isObject(line)) events.push(...lines.line(line));
    }
  } catch {
    return undefined;
  }
  return events;
}

/**
 * Where each row stands in the session (undefined for a row no block shows: a title, a prompt the
 * CLI injected, a line changed since it was indexed, a file of no card). Loads the sidechains the
 * rows are in and those around them, as opening their cards would.
 */
export async function placeHits(session: HistorySession, transcript: () => Transcript, rows: readonly HitRow[]): Promise<(HitPlace | undefined)[]> {
  const cardsOf = new Map<string, readonly string[] | undefined>();
  const out: (HitPlace | undefined)[] = [];
  for (const row of rows) {
    const file = path.resolve(row.file);
    if (!cardsOf.has(file)) cardsOf.set(file, await cardChain(session, file));
    const cards = cardsOf.get(file);
    const events = cards === undefined ? undefined : lineEventsAt(file, row.offset);
    const block = events === undefined ? undefined : blockOfEvent(events, row.event, cards!.length > 0);
    out.push(block === undefined ? undefined : await placeOf(session, transcript(), cards!, block));
  }
  return out;
}

/** The cards around a file's blocks: [] for the session's own file, undefined for a file of no card. */
async function cardChain(session: HistorySession, file: string): Promise<readonly string[] | undefined> {
  if (file === path.resolve(session.path)) return [];
  const card = await cardOfFile(session, file);
  if (card === undefined) return undefined;
  const chain = [card];
  for (let parent = session.calls.get(card)?.parentToolUseId; parent != null; parent = session.calls.get(parent)?.parentToolUseId) {
    if (chain.includes(parent)) return undefined; // a loop is no nesting
    chain.unshift(parent);
  }
  return chain;
}

/** The Agent call whose sidechain `file` is; a nested agent's is known once its parent's sidechain is read. */
async function cardOfFile(session: HistorySession, file: string): Promise<string | undefined> {
  if (!session.files.some((f) => path.resolve(f.path) === file)) return undefined;
  for (;;) {
    for (const [toolUseId, linked] of session.links) if (path.resolve(linked.path) === file) return toolUseId;
    const next = [...session.calls.keys()].find((id) => !session.loaded.has(id) && sidechainSource(session, id) !== undefined);
    if (next === undefined) return undefined;
    await loadSubagentBlocks(session, next);
  }
}

/** The block's place, checked against the transcript and each card's full step list. */
async function placeOf(session: HistorySession, transcript: Transcript, cards: readonly string[], block: string): Promise<HitPlace | undefined> {
  const blockId = block === "card" ? cards[cards.length - 1] : block;
  if (blockId === undefined) return undefined;
  const chain = block === "card" ? cards : [...cards, blockId];
  const order: number[] = [];
  let list: readonly Block[] = transcript.blocks;
  for (let depth = 0; depth < chain.length; depth++) {
    const id = chain[depth]!;
    const at = list.findIndex((b) => b.id === id);
    if (at === -1) return undefined;
    order.push(at);
    if (depth < chain.length - 1) list = await loadSubagentBlocks(session, id);
  }
  return { cards: block === "card" ? cards.slice(0, -1) : cards, blockId, order };
}

/** Hits in the order the transcript shows them (a card before its steps). */
export function compareOrder(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}
