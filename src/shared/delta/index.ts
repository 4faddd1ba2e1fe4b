// Transcript deltas: the main process diffs, the renderer applies, paced per tab (docs/transcript-model.md).
export { diffTranscript, fullDelta } from "./diffTranscript.js";
export { mergeDeltaList } from "./mergeDeltas.js";
export { normalizeBlock, TopLevel, type TranscriptMeta } from "./normalize.js";
export { applyDelta, blocksUnder, denormalize, emptyTranscriptState, type TranscriptState } from "./transcriptState.js";
