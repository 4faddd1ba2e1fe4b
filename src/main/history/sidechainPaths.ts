// Subagent cards whose steps are on disk and not loaded yet carry where to load them from
// (`SubagentRecord.sidechainPath`): a card opened asks for them. A restored session marks the cards
// it has a source for (a linked sidechain, a Workflow run's folder, an old layout's rows kept in the
// main file); a live tab marks those the stream carried no steps of, once their file is found
// (core/liveSidechains.ts). Both go through one walk over the records at every depth, which keeps
// every unchanged block and subtree by identity, and one cache, which gives the same transcript
// object until the session or what it knows of its files changes (the delta publisher and the
// window compare by identity).

import type { Block, SubagentRecord, Transcript } from "../../shared/transcript.js";
import { currentTranscript, sidechainSource, type HistorySession } from "./historySession.js";

/**
 * A record as it is shown: the record itself when nothing changes. `inner` marks a list of
 * blocks (the record's own, for the records nested in it) the same way.
 */
export type MarkRecord = (record: SubagentRecord, inner: (blocks: readonly Block[]) => readonly Block[]) => SubagentRecord;

/** The blocks with each subagent record marked by `mark`; unchanged blocks keep their identity. */
export function markRecords(blocks: readonly Block[], mark: MarkRecord): readonly Block[] {
  const inner = (list: readonly Block[]): readonly Block[] => markRecords(list, mark);
  let out: Block[] | undefined;
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    const record = block.call?.subagent;
    if (block.call === undefined || record === undefined) continue;
    const next = mark(record, inner);
    if (next === record) continue;
    out ??= [...blocks];
    out[i] = { ...block, call: { ...block.call, subagent: next } };
  }
  return out ?? blocks;
}

/**
 * A transcript with its records marked, kept while the transcript and `version` (a count of what
 * the marks depend on) stay the same: asked again, it returns the same object.
 */
export class MarkedTranscript {
  private last: { readonly from: Transcript; readonly version: string; readonly shown: Transcript } | undefined;

  constructor(private readonly markFor: () => MarkRecord) {}

  of(from: Transcript, version: string): Transcript {
    const last = this.last;
    if (last !== undefined && last.from === from && last.version === version) return last.shown;
    const blocks = markRecords(from.blocks, this.markFor());
    const shown = blocks === from.blocks ? from : { ...from, blocks };
    this.last = { from, version, shown };
    return shown;
  }
}

const restored = new WeakMap<HistorySession, MarkedTranscript>();

/**
 * A restored session's transcript with `sidechainPath` on every card whose transcript is not
 * loaded yet. The same object is returned until the session changes, so callers can compare by identity.
 */
export function annotatedTranscript(session: HistorySession): Transcript {
  let marked = restored.get(session);
  if (marked === undefined) {
    marked = new MarkedTranscript(() => (record, inner) => restoredRecord(session, record, inner));
    restored.set(session, marked);
  }
  // Loading a sidechain or linking a file changes the marks; both maps only grow while the model stays.
  return marked.of(currentTranscript(session), `${session.loaded.size}/${session.links.size}`);
}

/** Besides its path: a card its meta.json says the person stopped is stopped, and a linked file names its task. */
function restoredRecord(session: HistorySession, record: SubagentRecord, inner: (blocks: readonly Block[]) => readonly Block[]): SubagentRecord {
  const nested = inner(record.blocks);
  const file = session.links.get(record.toolUseId);
  const source = sidechainSource(session, record.toolUseId);
  const needsPath = source !== undefined && !session.loaded.has(record.toolUseId);
  const stopped = file?.meta?.stoppedByUser === true && record.status === "running";
  const taskId = record.taskId === "" && file !== undefined ? file.agentId : record.taskId;
  if (nested === record.blocks && !needsPath && !stopped && taskId === record.taskId) return record;
  return {
    ...record,
    blocks: nested,
    taskId,
    ...(needsPath ? { sidechainPath: source } : {}),
    ...(stopped ? { status: "stopped" as const } : {}),
  };
}
