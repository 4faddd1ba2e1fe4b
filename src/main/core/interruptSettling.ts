// When an interrupt has taken effect. A running turn ends with its result, which normally follows
// the CLI's answer to the interrupt within a second; the wait is bounded so a result that never
// comes cannot hold the caller. With no turn running no result comes (2.1.332 only stops the
// background agents): the answer itself is the end.

import type { ClaudeClient, InterruptReceipt } from "../cli/claudeClient.js";

/** Past this after the CLI's answer, the interrupt answers anyway. */
export const InterruptSettleMs = 10_000;

/** A turn still running this long after Stop (answered or not) is taken to be hung: Baton kills the CLI. */
export const InterruptGraceMs = 20_000;

/** Whether `settled` settles (either way) within `graceMs`. */
export function settlesWithin(settled: Promise<unknown>, graceMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), graceMs);
    const done = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    settled.then(done, done);
  });
}

type InterruptibleClient = Pick<ClaudeClient, "on" | "interrupt">;

/** Sends the interrupt; resolves at the turn's end (at most `settleMs` after the answer) when `turnRunning`, else at the answer. */
export async function settledInterrupt(client: InterruptibleClient, turnRunning: boolean, settleMs: number): Promise<InterruptReceipt> {
  const ended = turnRunning ? nextTurnEnd(client) : undefined;
  try {
    const receipt = await client.interrupt();
    if (ended !== undefined) await ended.settled(settleMs);
    return receipt;
  } finally {
    ended?.cancel();
  }
}

/** The next end of a turn (its result, or the process's exit), listened for from now on. */
function nextTurnEnd(client: InterruptibleClient): { settled(boundMs: number): Promise<void>; cancel(): void } {
  let done: () => void = () => undefined;
  let ended = false;
  let timer: NodeJS.Timeout | undefined;
  const over = new Promise<void>((resolve) => (done = resolve));
  const finish = (): void => {
    ended = true;
    if (timer !== undefined) clearTimeout(timer);
    unsubscribe();
    done();
  };
  const unsubscribe = client.on((event) => {
    if (event.kind === "turn_result" || event.kind === "process_exit") finish();
  });
  return {
    settled: (boundMs) => {
      if (!ended) {
        timer = setTimeout(finish, boundMs);
        timer.unref();
      }
      return over;
    },
    cancel: () => {
      if (!ended) finish();
    },
  };
}
