// A live tab's events into its hub model, a stdout read at a time. The client emits a read's lines
// one by one, synchronously; they are applied together once that read is handled (a microtask
// later) or as soon as anything reads the model, so a burst of subagent lines tells the window
// once, not per line.

import type { ClientEvent } from "../../shared/events.js";
import { SessionModel } from "../hub/index.js";

export interface EventBatchOptions {
  /** A resumed session's id, known before its first event. */
  readonly sessionId?: string;
  /** An event the model could not take: reported, and every other event of its batch is kept. */
  readonly onError: (event: ClientEvent, error: unknown) => void;
  /** Events were applied (orchestration: agents whose phase ends). */
  readonly onApplied?: () => void;
  /** The transcript changed. */
  readonly onChange: () => void;
}

export class EventBatch {
  /** Every event applied so far; `model` applies the pending ones first. */
  private readonly applied: SessionModel;
  /** Events emitted since the last flush. */
  private pending: ClientEvent[] = [];

  constructor(private readonly options: EventBatchOptions) {
    this.applied = new SessionModel(options.sessionId !== undefined ? { sessionId: options.sessionId } : undefined);
  }

  /** The model with every event so far applied. */
  get model(): SessionModel {
    this.flush();
    return this.applied;
  }

  /** One event of the current read: applied with the rest of the read, a microtask from now at the latest. */
  push(event: ClientEvent): void {
    if (this.pending.length === 0) queueMicrotask(() => this.flush());
    this.pending.push(event);
  }

  /** Events read from disk, applied now, after the live ones before them (the model keeps one copy of lines seen live). */
  applyNow(events: readonly ClientEvent[]): void {
    this.flush();
    // The tab's own CLI wrote these files: the calls they hold are in its turn results' totals
    // already (hub/tokenShares.ts), and count on their cards only.
    this.applied.readingOwnFiles = true;
    try {
      for (const event of events) this.pending.push(event);
      this.flush();
    } finally {
      this.applied.readingOwnFiles = false;
    }
  }

  private flush(): void {
    const events = this.pending;
    if (events.length === 0) return;
    this.pending = [];
    this.applied.apply(events, this.options.onError);
    this.options.onApplied?.();
    this.options.onChange();
  }
}
