// Reading Claude Code's on-disk history (session files and their sidechains) into the same events
// and reducer as the live stream; every reader turns a file's lines into events through one factory
// (eventStream.ts). Baton only reads under the projects folder; it never writes there.

export { resolveProjectsDir, projectFolderName, isMainTranscriptName, sessionIdFromPath } from "../platform/projectsDir.js";
export {
  readJsonl,
  readAllJsonl,
  DefaultMaxLineBytes,
  readJsonlSync,
  type JsonlRecord,
  type JsonlStats,
  type JsonlProblem,
  type ReadJsonlResult,
  type ReadJsonlOptions,
} from "./jsonlReader.js";
export { DiskMapper, type SessionFacts } from "./diskMapper.js";
export { eventStream, type EventStream, type LineEvents, type StreamOf } from "./eventStream.js";
export type { AgentCall } from "./agentCall.js";
export { workflowEvents, workflowRunDir, recordedAgents, runRecordPath } from "./workflowRuns.js";
export { findSidechainFiles, linkSidechains, type SidechainFile } from "./sidechains.js";
export { isCompactionAgent, type SidechainMeta } from "./subagentFolder.js";
export { listSessions, listSessionsWithProblems, type SessionSummary, type KnownSession, type TitleSource } from "./sessionList.js";
export {
  restoreSession,
  resolveSessionFile,
  type RestoreOptions,
  type RestoreResult,
} from "./restore.js";
export { findSessionFile } from "./sessionFile.js";
export { findCopiedRuns, findOriginSidechains, originPlaces, type ForkOrigins, type SessionPlace } from "./copiedSidechains.js";
export { loadSubagentBlocks, loadAllSubagents, ownBlocks, sidechainSource, type HistorySession } from "./historySession.js";
export { agentCallsOf, countSubagentUsage } from "./subagentUsage.js";
export { linkRunningAgent } from "./agentLink.js";
export { fullTranscript } from "./fullTranscript.js";
export { exportSessionFile, type ExportFileOptions, type SessionExport } from "./exportFile.js";
export { annotatedTranscript, markRecords, MarkedTranscript, type MarkRecord } from "./sidechainPaths.js";
export { followJsonl, followTranscript, type Follower, type FollowOptions, type FollowTranscriptOptions } from "./tail.js";
export { HistoryError, type HistoryProblem, type HistoryProblemKind } from "./problems.js";
export {
  restoreFirstScreen,
  DefaultFirstScreenBlocks,
  EarlierBlocksNoticeId,
  type FirstScreen,
  type FirstScreenOptions,
} from "./firstScreen.js";
export { TailReader, DefaultTailChunkBytes, type TailLine, type TailReaderOptions } from "./tailReader.js";
export { type AuditWithTrail } from "./auditOverlay.js";
export { isSideConversation, isWarmupPrompt } from "./sideConversations.js";
export { parseJsonLine } from "./splitJson.js";
export { readLineAt, toolUseBefore, ToolUseLookBack, type ToolUseSeen } from "./lineAt.js";
export { placeHits, compareOrder, blockOfEvent, lineEventsAt, type HitRow, type HitPlace } from "./hitPlaces.js";
