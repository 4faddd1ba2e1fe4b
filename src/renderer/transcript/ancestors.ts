import type { TranscriptState } from "../../shared/delta/index.js";

/** The chain of block ids from the top-level ancestor down to `blockId`, or undefined if unknown. */
export function ancestorsOf(transcript: TranscriptState, blockId: string): string[] | undefined {
  const parentOf = new Map<string, string>();
  for (const [parent, ids] of transcript.children) for (const id of ids) parentOf.set(id, parent);
  if (!parentOf.has(blockId)) return undefined;
  const chain = [blockId];
  let current = parentOf.get(blockId);
  while (current !== undefined && current !== "") {
    chain.unshift(current);
    current = parentOf.get(current);
  }
  return chain;
}
