// Sends each tab's transcript changes to its subscribers: at most one coalesced delta per interval
// (50 ms), however many events arrived. The first change after a quiet interval goes out at once;
// a burst after it waits for the interval to end, so a busy session costs 20 diffs and 20 messages
// a second, not one per event. A new subscriber first gets a full `reset`.

import type { PendingPermission, TranscriptDelta } from "../../shared/api.js";
import { diffTranscript, fullDelta } from "../../shared/delta/index.js";
import type { Transcript } from "../../shared/transcript.js";

export type DeltaListener = (delta: TranscriptDelta) => void;

/** What the publisher reads: the tab's current transcript and pending requests. */
export interface DeltaSource {
  transcript(tabId: string): Transcript | undefined;
  pending(tabId: string): readonly PendingPermission[];
}

interface Channel {
  readonly listeners: Set<DeltaListener>;
  sent?: { readonly transcript: Transcript; readonly pending: readonly PendingPermission[] };
  timer?: ReturnType<typeof setTimeout>;
  /** When the last delta was computed (performance.now()). */
  lastFlush: number;
}

export class DeltaPublisher {
  private readonly channels = new Map<string, Channel>();

  constructor(
    private readonly source: DeltaSource,
    private readonly intervalMs = 50,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  subscribe(tabId: string, listener: DeltaListener): () => void {
    const channel = this.channel(tabId);
    // Bring the others up to date first, so everyone continues from the same state.
    this.flush(tabId);
    channel.listeners.add(listener);
    const transcript = this.source.transcript(tabId);
    if (transcript !== undefined) {
      const pending = this.source.pending(tabId);
      channel.sent = { transcript, pending };
      this.deliver(listener, fullDelta(tabId, transcript, pending));
    }
    return () => {
      channel.listeners.delete(listener);
      if (channel.listeners.size === 0 && this.channels.get(tabId) === channel) this.drop(tabId);
    };
  }

  /** Something in the tab changed: publish at the next tick. */
  markDirty(tabId: string): void {
    const channel = this.channels.get(tabId);
    if (channel === undefined || channel.listeners.size === 0 || channel.timer !== undefined) return;
    // A timer even when the interval is over: the events of one chunk of stdout arrive together.
    const wait = Math.max(0, channel.lastFlush + this.intervalMs - performance.now());
    channel.timer = setTimeout(() => {
      channel.timer = undefined;
      this.flush(tabId);
    }, wait);
  }

  /** The tab's transcript was replaced (not edited): subscribers start over. */
  reset(tabId: string): void {
    const channel = this.channels.get(tabId);
    if (channel === undefined) return;
    channel.sent = undefined;
    this.flush(tabId);
  }

  /** Publishes now whatever changed since the last delta. */
  flush(tabId: string): void {
    const channel = this.channels.get(tabId);
    if (channel === undefined || channel.listeners.size === 0) return;
    if (channel.timer !== undefined) clearTimeout(channel.timer);
    channel.timer = undefined;
    channel.lastFlush = performance.now();
    const transcript = this.source.transcript(tabId);
    if (transcript === undefined) return;
    const pending = this.source.pending(tabId);
    const delta = diffTranscript(tabId, channel.sent?.transcript, transcript, channel.sent?.pending, pending);
    channel.sent = { transcript, pending };
    if (delta === undefined) return;
    for (const listener of [...channel.listeners]) this.deliver(listener, delta);
  }

  /** The tab is gone: stop its timer and forget its subscribers. */
  drop(tabId: string): void {
    const channel = this.channels.get(tabId);
    if (channel?.timer !== undefined) clearTimeout(channel.timer);
    this.channels.delete(tabId);
  }

  close(): void {
    for (const tabId of [...this.channels.keys()]) this.drop(tabId);
  }

  private channel(tabId: string): Channel {
    let channel = this.channels.get(tabId);
    if (channel === undefined) {
      channel = { listeners: new Set(), lastFlush: Number.NEGATIVE_INFINITY };
      this.channels.set(tabId, channel);
    }
    return channel;
  }

  private deliver(listener: DeltaListener, delta: TranscriptDelta): void {
    try {
      listener(delta);
    } catch (error) {
      this.onError(error);
    }
  }
}
