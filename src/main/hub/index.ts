// The hub: one pure reducer that turns ClientEvents (live or from history) into the Transcript.
export { createSessionState, turnRunning, type SessionState } from "./state.js";
export { agentKilled, findToolCall, reduce, reduceAll, reduceAllConsuming, reduceAllInSteps, toTranscript } from "./reduce.js";
