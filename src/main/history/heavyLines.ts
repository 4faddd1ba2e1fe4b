// Lines Baton never shows or indexes, recognised from their first bytes so they are not decoded
// or JSON.parsed at all. CLI 2.1.332 writes request records (`api-request*`: every system prompt,
// tool schema and message as sent) and bookkeeping (`atis-latch`, `cost-state`, `tools-used`),
// and attaches the whole system prompt (`prompt_snapshot`) and skill listings to conversations:
// together most of a file's bytes (2.1.332's files are about ten times 2.1.197's; `prompt_snapshot`
// alone was 31 % of the recorded set). Reading them made a restore or an
// index run grow with the CLI's bookkeeping instead of with the conversation.
//
// The first `"type":"` key of a line names it: bookkeeping lines start with it, conversation
// lines carry it after a short envelope (`parentUuid`, `isSidechain`, …), and an attachment line
// has its attachment (`"attachment":{"type":…`) before its own `"type":"attachment"`. That key
// cannot occur inside a JSON string (a quote there is escaped), so the match is a real key. A
// hostile file can at worst hide its own lines this way; anything unrecognised is parsed as before.

/** Line types that hold nothing Baton reads (also ignored after a parse: diskToEvents.ts). */
export const HeavyLineTypes: ReadonlySet<string> = new Set([
  "api-request",
  "api-request-blob",
  "api-request-shape",
  "atis-latch",
  "cost-state",
  "tools-used",
]);

/** Attachments that are large and shown nowhere (Baton maps only `queued_command`). */
export const HeavyAttachmentTypes: ReadonlySet<string> = new Set(["prompt_snapshot", "skill_listing", "agent_listing_delta"]);

/** How far into a line its first `"type"` key is looked for; envelopes are a few hundred bytes. */
export const HeavyPrefixBytes = 2048;

const TypeKey = Buffer.from('"type":"');
const AttachmentOpen = Buffer.from('"attachment":{');
const Quote = 0x22;
/** Longer than any name above: a longer value is no heavy name, whatever follows. */
const MaxNameBytes = 40;

export type HeavyVerdict = "heavy" | "light" | "undecided";

/**
 * Whether the line in `bytes[start, end)` is one to skip. "undecided" only when the bytes end
 * before the prefix does and before a type key is found: the caller has only part of the line.
 */
export function heavyVerdict(bytes: Buffer, start: number, end: number, complete: boolean): HeavyVerdict {
  const scanEnd = Math.min(end, start + HeavyPrefixBytes + MaxNameBytes);
  const at = bytes.subarray(0, scanEnd).indexOf(TypeKey, start);
  if (at === -1 || at - start > HeavyPrefixBytes) return complete || scanEnd - start >= HeavyPrefixBytes ? "light" : "undecided";
  const nameStart = at + TypeKey.length;
  const close = bytes.subarray(0, Math.min(end, nameStart + MaxNameBytes + 1)).indexOf(Quote, nameStart);
  if (close === -1) return !complete && end < nameStart + MaxNameBytes + 1 ? "undecided" : "light";
  const name = bytes.toString("latin1", nameStart, close);
  if (HeavyLineTypes.has(name)) return "heavy";
  if (!HeavyAttachmentTypes.has(name)) return "light";
  const open = at - AttachmentOpen.length;
  return open >= start && bytes.subarray(open, at).equals(AttachmentOpen) ? "heavy" : "light";
}

/** `heavyVerdict` for a whole line. */
export function isHeavyLine(bytes: Buffer, start = 0, end = bytes.length): boolean {
  return heavyVerdict(bytes, start, end, true) === "heavy";
}
