// A ClaudeClient that never starts a process: a test hands its listener the events of stdout reads,
// as the stdout reader would, to drive a real LiveSession.

import type { ClientEvent } from "../../src/shared/events.js";
import { ClaudeClient, type ClientListener } from "../../src/main/cli/claudeClient.js";

export class EmittingClient extends ClaudeClient {
  listener: ClientListener | undefined;

  override on(listener: ClientListener): () => void {
    this.listener = listener;
    return () => (this.listener = undefined);
  }

  emitRead(events: readonly ClientEvent[]): void {
    for (const event of events) this.listener?.(event);
  }
}
