// Transcript deltas: the main process diffs, the renderer applies (DESIGN.md "batched deltas").
export { diffTranscript, fullDelta } from "./diffTranscript.js";
export { mergeDeltaList } from "./mergeDeltas.js";
export { normalizeBlock, TopLevel, type TranscriptMeta } from "./normalize.js";
export { applyDelta, blocksUnder, denormalize, emptyTranscriptState, type TranscriptState } from "./transcriptState.js";
