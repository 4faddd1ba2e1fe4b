// The hub: one pure reducer that turns ClientEvents (live or from history) into the Transcript.
export { createSessionState, turnRunning, type SessionState } from "./state.js";
export { findToolCall, reduce, reduceAll, reduceAllConsuming, reduceAllInSteps, stoppedByTaskStop, toTranscript } from "./reduce.js";
