// How an ordered id list changed, in the two common cases: it grew at its end, or (a capped
// record) it also lost its head. Checked by comparing ids in place, without a set, so following a
// list costs what it gained, not its length.

/** `next` is `previous` without its first `head` ids and with more after its first `kept`; undefined for any other change. */
export function listShift(previous: readonly string[], next: readonly string[]): { readonly head: number; readonly kept: number } | undefined {
  if (previous.length === 0) return { head: 0, kept: 0 };
  const head = next.length === 0 ? previous.length : previous.indexOf(next[0] as string);
  if (head < 0) return undefined;
  const kept = previous.length - head;
  if (kept > next.length) return undefined;
  for (let i = 0; i < kept; i++) if (previous[head + i] !== next[i]) return undefined;
  return { head, kept };
}
