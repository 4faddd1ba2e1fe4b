// Reads one transcript from an offset and turns it into index chunks: what extract.ts keeps from
// each line, cut every `chunkBytes` of transcript. No database here, so it can run on its own
// thread (extractWorker.ts) while the store's thread writes the previous chunks.
import { readJsonl, type ReadJsonlOptions, type ReadJsonlResult } from "../history/jsonlReader.js";
import { emptyExtracted, extractLine, type Extracted, type FileFacts, type TextRow } from "./extract.js";

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

export async function extractFile(
  job: FileJob,
  jobIndex: number,
  chunkBytes: number,
  emit: (chunk: FileChunk) => void,
  read: ReadJsonl = readJsonl,
): Promise<void> {
  const facts: FileFacts = { ...job.facts };
  let batch = emptyExtracted();
  let batchStart = job.fromOffset;
  let lastOffset = -1;
  const cut = (offset: number, lineCount: number, totals?: ReadTotals): void => {
    emit({ job: jobIndex, batch, facts: { ...facts }, offset, lineCount, ...(totals ? { totals } : {}) });
    batch = emptyExtracted();
    batchStart = offset;
  };
  const result = await read(job.path, {
    offset: job.fromOffset,
    firstLineNumber: job.fromLines + 1,
    onRecord: (record) => {
      // Glued lines give several records at one offset: never cut a chunk between them.
      if (record.offset !== lastOffset && record.offset - batchStart >= chunkBytes) {
        cut(record.offset, record.lineNumber - 1);
      }
      lastOffset = record.offset;
      extractLine(record.value, record.lineNumber, record.offset, job.isMain, facts, batch);
    },
  });
  const s = result.stats;
  cut(result.nextOffset, result.nextLineNumber - 1, {
    bytesRead: result.nextOffset - job.fromOffset,
    linesRead: s.lines,
    badLines: s.invalidUtf8 + s.tooLong + s.notJson + s.notObject,
  });
}
