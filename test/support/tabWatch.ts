// One tab as a subscribed window holds it: every delta applied, every permission request it was
// asked remembered, and waits that re-check on each delta until a state is reached.
import type { PendingPermission } from "../../src/shared/api.js";
import { applyDelta, denormalize, emptyTranscriptState, type TranscriptState } from "../../src/shared/delta/index.js";
import type { Transcript } from "../../src/shared/transcript.js";
import type { BatonService } from "../../src/main/core/batonService.js";

export interface TabWatch {
  transcript(): Transcript;
  pending(): readonly PendingPermission[];
  /** Every request the tab showed, in order, even those answered since. */
  readonly seen: readonly PendingPermission[];
  waitFor<T>(what: string, read: () => T | undefined): Promise<T>;
  /** The transcript once the session is idle and a text block holds `part`. */
  idleWith(part: string): Promise<Transcript>;
  stop(): void;
}

export function watchTab(service: BatonService, tabId: string, waitMs: number): TabWatch {
  let state: TranscriptState = emptyTranscriptState();
  const seen: PendingPermission[] = [];
  const checks = new Set<() => void>();
  const stop = service.onTranscriptDelta(tabId, (delta) => {
    state = applyDelta(state, delta);
    for (const p of delta.pending ?? []) if (!seen.some((s) => s.requestId === p.requestId)) seen.push(p);
    for (const check of [...checks]) check();
  });
  const waitFor = <T>(what: string, read: () => T | undefined): Promise<T> =>
    new Promise((resolve, reject) => {
      const check = () => {
        const v = read();
        if (v === undefined) return;
        checks.delete(check);
        clearTimeout(timer);
        resolve(v);
      };
      const timer = setTimeout(() => {
        checks.delete(check);
        reject(new Error(`timed out waiting for ${what}`));
      }, waitMs);
      checks.add(check);
      check();
    });
  const idleWith = (part: string): Promise<Transcript> =>
    waitFor(`an idle transcript with "${part}"`, () => {
      const t = denormalize(state);
      return t.status === "idle" && t.blocks.some((b) => b.kind === "text" && b.text?.includes(part)) ? t : undefined;
    });
  return { transcript: () => denormalize(state), pending: () => state.pending, seen, waitFor, idleWith, stop };
}

/** Subscribes to a tab until `done` holds for its transcript (checked on every delta); then unsubscribes. */
export async function transcriptWhen(service: BatonService, tabId: string, done: (t: Transcript) => boolean, waitMs: number): Promise<Transcript> {
  const watch = watchTab(service, tabId, waitMs);
  try {
    return await watch.waitFor("the transcript's state", () => {
      const t = watch.transcript();
      return done(t) ? t : undefined;
    });
  } catch (error) {
    throw new Error(`${String(error)}; last transcript: ${JSON.stringify(watch.transcript()).slice(0, 500)}`);
  } finally {
    watch.stop();
  }
}
