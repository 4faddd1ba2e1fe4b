// Claude Code 2.1.197 writes a turn's lines to the session's file after the turn's answer (tens of
// milliseconds; more on a loaded machine), while the window may already act on that answer: a
// fork from the prompt just answered, a rewind's preview of the changes that turn made. What reads
// the file for such an act waits, for a bounded time, for the file to grow, and reads it again only
// then (a big session is not parsed twenty times a second).
import { stat } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";

/** How long an act on a live tab waits for its CLI's late lines. */
export const LateLinesWaitMs = 3000;
const PollMs = 50;

/** The file's size now; -1 while it does not exist. Taken before a read, so lines written during the read count as growth. */
export function sizeOf(file: string): Promise<number> {
  return stat(file).then(
    (s) => s.size,
    () => -1,
  );
}

/** True once `file` is no longer `size` bytes long (made, grown, replaced), false at `until` (a Date.now() time). */
export async function changedFrom(file: string, size: number, until: number): Promise<boolean> {
  while (Date.now() < until) {
    await delay(PollMs);
    if ((await sizeOf(file)) !== size) return true;
  }
  return false;
}
