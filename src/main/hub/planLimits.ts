// The plan's limits a session last heard of (`rate_limit_event`). Each report carries what one
// model response's headers said: a response without them reports no windows, so a window keeps
// the value last seen until a report names it again (docs/protocol-notes.md).

import type { RateLimitEvent } from "../../shared/events.js";
import type { PlanLimits } from "../../shared/transcript.js";
import type { SessionModel } from "./session.js";

export function onRateLimit(s: SessionModel, ev: RateLimitEvent): void {
  // The report carries no time of its own; when it came tells the newest among sessions (the windows are the account's).
  s.meta = { ...s.meta, planLimits: mergePlanLimits(s.meta.planLimits, ev.limits, Date.now()) };
}

/** `next`'s fields over `previous`'s: a field the newer report lacks keeps its last value. */
export function mergePlanLimits(previous: PlanLimits | undefined, next: RateLimitEvent["limits"], receivedAt: number): PlanLimits {
  return { ...previous, ...next, receivedAt };
}
