// The hub: a session model that applies ClientEvents (live or from history) in place and builds the Transcript on request.
export { modelOf, SessionModel, type SessionMeta } from "./session.js";
export type { RecordedCall } from "./tokenShares.js";
