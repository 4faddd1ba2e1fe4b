// Reads one transcript from an offset and turns it into index chunks: what extract.ts keeps from
// each line, cut every `chunkBytes` of transcript. No database here, so it can run on its own
// thread (extractWorker.ts) while the store's thread writes the previous chunks.
import { MaxJsonDepth } from "../../shared/boundedJson.js";
import { eventStream, readJsonl, type JsonlRecord, type LineEvents, type ReadJsonlOptions, type ReadJsonlResult } from "../history/index.js";
import { emptyExtracted, extractLine, projectRow, type Extracted, type FileFacts, type TextRow } from "./extract.js";

export interface FileJob {
  readonly path: string;
  readonly isMain: boolean;
  readonly fromOffset: number;
  /** The file's size when the run was planned: how much there is to read, for scheduling only. */
  readonly size?: number;
  readonly fromLines: number;
  /** The facts stored so far (empty for a new or re-read file). */
  readonly facts: FileFacts;
}

export interface ReadTotals {
  readonly bytesRead: number;
  readonly linesRead: number;
  readonly badLines: number;
  /** What went wrong in this file (the rest of it, and every other file, is still indexed). */
  readonly problems?: readonly string[];
}

/** One slice of a file, to be written in the transaction that also records `offset`. */
export interface FileChunk<Rows = TextRow[]> {
  readonly job: number;
  readonly batch: Extracted<Rows>;
  /** Facts over the file up to `offset`. */
  readonly facts: FileFacts;
  readonly offset: number;
  readonly lineCount: number;
  /** The file's last chunk of this scan; carries what the read saw. */
  readonly totals?: ReadTotals;
}

/** How a file is read: `readJsonl`, or `readJsonlSync` on a thread of its own. */
export type ReadJsonl = (path: string, options: ReadJsonlOptions) => Promise<ReadJsonlResult> | ReadJsonlResult;

/**
 * Reads the job's file and emits its chunks, the last with `totals`. Nothing in one file stops
 * the run: a line that cannot be indexed is skipped and counted, and a file that fails to read
 * ends where it failed; both are reported in `totals.problems`, and the file is read again once
 * it changes.
 */
export async function extractFile(
  job: FileJob,
  jobIndex: number,
  chunkBytes: number,
  emit: (chunk: FileChunk) => void,
  read: ReadJsonl = readJsonl,
): Promise<void> {
  const facts: FileFacts = { ...job.facts };
  let batch = emptyExtracted();
  // A session's project folder is searchable too: one row, when its main file is read from the start.
  if (job.isMain && job.fromOffset === 0) batch.rows.push(projectRow(job.path));
  let batchStart = job.fromOffset;
  let lastOffset = -1;
  const trouble = new LineTrouble();
  let sinkFailed = false;
  const cut = (offset: number, lineCount: number, totals?: ReadTotals): void => {
    try {
      emit({ job: jobIndex, batch, facts: { ...facts }, offset, lineCount, ...(totals ? { totals } : {}) });
    } catch (error) {
      sinkFailed = true; // the writer's failure, not this file's: the run stops
      throw error;
    }
    batch = emptyExtracted();
    batchStart = offset;
  };
  let lineCount = job.fromLines;
  let result: ReadJsonlResult;
  try {
    result = await read(job.path, {
      offset: job.fromOffset,
      firstLineNumber: job.fromLines + 1,
      onRecord: (record) => {
        // Glued lines give several records at one offset: never cut a chunk between them.
        if (record.offset !== lastOffset && record.offset - batchStart >= chunkBytes) {
          cut(record.offset, record.lineNumber - 1);
          lineCount = record.lineNumber - 1;
        }
        lastOffset = record.offset;
        trouble.extract(record, job.isMain, facts, batch);
      },
    });
  } catch (error) {
    if (sinkFailed) throw error;
    // The lines read since the last chunk are dropped: the file is read from there when it changes.
    batch = emptyExtracted();
    cut(batchStart, lineCount, {
      bytesRead: batchStart - job.fromOffset,
      linesRead: lineCount - job.fromLines,
      badLines: trouble.failed,
      problems: [...trouble.problems(), `could not be read past byte ${batchStart}: ${messageOf(error)}`],
    });
    return;
  }
  const s = result.stats;
  const problems = trouble.problems();
  cut(result.nextOffset, result.nextLineNumber - 1, {
    bytesRead: result.nextOffset - job.fromOffset,
    linesRead: s.lines,
    badLines: s.invalidUtf8 + s.tooLong + s.notJson + s.notObject + trouble.failed,
    ...(problems.length > 0 ? { problems } : {}),
  });
}

/** Extracts records, keeping a line that throws or held too-deep values from stopping the file. */
class LineTrouble {
  failed = 0;
  private firstFailure = "";
  private deep = 0;
  private firstDeep = 0;
  /** The file's lines as events, each alone (eventStream.ts). */
  private readonly lines: LineEvents = eventStream({ kind: "lines" });

  extract(record: JsonlRecord, isMain: boolean, facts: FileFacts, batch: Extracted): void {
    const before = { rows: batch.rows.length, spawns: batch.spawns.length, results: batch.results.length, notified: batch.notified.length };
    try {
      if (extractLine(this.lines, record.value, record.lineNumber, record.offset, isMain, facts, batch)) {
        if (this.deep++ === 0) this.firstDeep = record.lineNumber;
      }
    } catch (error) {
      // None of the line, rather than part of it: a row's text is read back by extracting its line again.
      batch.rows.length = before.rows;
      batch.spawns.length = before.spawns;
      batch.results.length = before.results;
      batch.notified.length = before.notified;
      if (this.failed++ === 0) this.firstFailure = `line ${record.lineNumber}: ${messageOf(error)}`;
    }
  }

  problems(): string[] {
    const out: string[] = [];
    if (this.deep > 0) {
      out.push(`${this.deep} line(s) held values nested more than ${MaxJsonDepth} levels deep, indexed cut short (first: line ${this.firstDeep})`);
    }
    if (this.failed > 0) out.push(`${this.failed} line(s) could not be indexed and were skipped (first: ${this.firstFailure})`);
    return out;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
