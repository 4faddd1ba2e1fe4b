// Following a transcript that is still being written (a session running in a terminal): read
// new complete lines as the file grows, from a byte offset. fs.watch wakes us quickly; a poll
// timer catches what watch misses (network filesystems, editors replacing the file). A file that
// shrinks or is replaced is read again from the start, and the consumer is told to start over.

import { watch, type FSWatcher } from "node:fs";
import { stat } from "node:fs/promises";
import type { ClientEvent } from "../../shared/events.js";
import type { SessionAudit } from "../audit/audit.js";
import { eventStream, type EventStream } from "./eventStream.js";
import { readJsonl, type JsonlRecord } from "./jsonlReader.js";

export interface FollowOptions {
  /** Start here (e.g. where a restore stopped); default 0. */
  readonly offset?: number;
  /**
   * The file's identity (fileIdentity) when what comes before `offset` was read: a file replaced
   * since, before the first look, is read again from its start too. Default: the first look's.
   */
  readonly identity?: string;
  readonly pollMs?: number;
  readonly onRecords: (records: readonly JsonlRecord[]) => void;
  /** The file was truncated or replaced: everything read so far is void; reading restarts at 0. */
  readonly onReset?: () => void;
  readonly onError?: (error: unknown) => void;
}

export interface Follower {
  /** Reads what is new now (also runs on every watch event and poll tick). */
  readonly check: () => Promise<void>;
  readonly stop: () => void;
  readonly offset: () => number;
}

export function followJsonl(filePath: string, options: FollowOptions): Follower {
  let offset = options.offset ?? 0;
  let lineNumber = 1;
  let identity = options.identity;
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;

  const readNew = async (): Promise<void> => {
    let info;
    try {
      info = await stat(filePath);
    } catch {
      return; // Not there (yet, or while being replaced): the next tick looks again.
    }
    const id = identityOf(info);
    const replaced = identity !== undefined && identity !== id;
    identity = id;
    if (replaced || info.size < offset) {
      offset = 0;
      lineNumber = 1;
      if (replaced) rewatch();
      options.onReset?.();
    }
    if (info.size === offset) return;
    const records: JsonlRecord[] = [];
    const result = await readJsonl(filePath, { offset, firstLineNumber: lineNumber, onRecord: (r) => void records.push(r) });
    if (stopped) return;
    offset = result.nextOffset;
    lineNumber = result.nextLineNumber;
    if (records.length > 0) options.onRecords(records);
  };

  // One read at a time; a wake-up during a read schedules exactly one more.
  const check = async (): Promise<void> => {
    if (stopped) return;
    if (running !== undefined) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await readNew();
        } catch (error) {
          options.onError?.(error);
        }
      } while (again && !stopped);
    })();
    try {
      await running;
    } finally {
      running = undefined;
    }
  };

  let watcher: FSWatcher | undefined;
  // A watch follows an inode: after a replacement, watch the new file.
  const rewatch = (): void => {
    watcher?.close();
    watcher = undefined;
    if (stopped) return;
    try {
      watcher = watch(filePath, { persistent: false }, () => void check());
      watcher.on("error", () => {
        watcher?.close();
        watcher = undefined;
      });
    } catch {
      watcher = undefined; // Not there right now, or not watchable: the poll timer alone will do.
    }
  };
  rewatch();
  const timer = setInterval(() => void check(), options.pollMs ?? 500);
  timer.unref();
  void check();

  return {
    check,
    offset: () => offset,
    stop: () => {
      stopped = true;
      clearInterval(timer);
      watcher?.close();
      watcher = undefined;
    },
  };
}

export interface FollowTranscriptOptions {
  readonly offset?: number;
  /** See FollowOptions.identity. */
  readonly identity?: string;
  /**
   * Continue the stream a restore read the file with (`session.stream`, its audit trail with it),
   * so the session is not re-initialised; a reset starts it over.
   */
  readonly stream?: EventStream;
  /** Without `stream`: Baton's audit trail for this session (an AuditReader's answer), so new lines show its decisions. */
  readonly audit?: SessionAudit;
  readonly pollMs?: number;
  readonly onEvents: (events: readonly ClientEvent[]) => void;
  /** Start over: the file was truncated or replaced; events from now on rebuild the session. */
  readonly onReset?: () => void;
  readonly onError?: (error: unknown) => void;
}

/** Follows a main transcript and emits the ClientEvents of its new lines. */
export function followTranscript(filePath: string, options: FollowTranscriptOptions): Follower {
  const stream = options.stream ?? eventStream({ kind: "session", file: filePath, ...(options.audit !== undefined ? { audit: options.audit } : {}) });
  return followJsonl(filePath, {
    ...(options.offset !== undefined ? { offset: options.offset } : {}),
    ...(options.identity !== undefined ? { identity: options.identity } : {}),
    ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
    ...(options.onError !== undefined ? { onError: options.onError } : {}),
    onReset: () => {
      stream.restart();
      options.onReset?.();
    },
    onRecords: (records) => {
      const events = records.flatMap((r) => stream.line(r.value));
      if (events.length > 0) options.onEvents(events);
    },
  });
}

/** A file's identity (device and inode): a file replaced under the same name has another. Undefined when it is not there. */
export async function fileIdentity(filePath: string): Promise<string | undefined> {
  try {
    return identityOf(await stat(filePath));
  } catch {
    return undefined;
  }
}

function identityOf(info: { readonly dev: number; readonly ino: number }): string {
  return `${info.dev}:${info.ino}`;
}
