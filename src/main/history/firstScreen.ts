// The first screen of a past session: its newest blocks, read from the end of the file backwards,
// so a 100 MB transcript opens as fast as a small one. The window starts at a prompt (whole turns),
// its lines go through the same event stream and reducer as a full restore, and results whose call
// lies before the window are left out. The full restore (`restoreSession`) then replaces it.

import path from "node:path";
import type { ClientEvent, SessionInitEvent } from "../../shared/events.js";
import type { Block, Transcript } from "../../shared/transcript.js";
import type { SessionAudit } from "../audit/audit.js";
import { eventStream, isStandaloneFile, type EventStream } from "./eventStream.js";
import { windowSidechainFiles } from "./firstScreenSidechains.js";
import { TailLineParser, chooseStart, oldestStart, windowLine, type WindowLine } from "./firstScreenWindow.js";
import { createHistorySession, MainFileReader, type HistorySession } from "./historySession.js";
import { emptyStats, readJsonl } from "./jsonlReader.js";
import { HistoryError, lineProblems, type HistoryProblem } from "./problems.js";
import { sessionIdFromPath } from "../platform/projectsDir.js";
import { openRegularFile } from "../platform/regularFile.js";
import { forkOriginsOf, linkForkedSidechains } from "./copiedSidechains.js";
import { resolveSessionFile } from "./restore.js";
import { annotatedTranscript } from "./sidechainPaths.js";
import { fileIdentity } from "./tail.js";
import { findSidechainFiles } from "./sidechains.js";
import { findLineInserts } from "./sessionInserts.js";
import { TailReader } from "./tailReader.js";

export const DefaultFirstScreenBlocks = 50;
/** Id of the notice at the top of an incomplete first screen. */
export const EarlierBlocksNoticeId = "history:earlier-not-loaded";
/** How much of the file's start is read for what the window cannot say (cwd, version, title). */
const HeadBytes = 64 * 1024;
const MaxLineBytes = 64 * 1024 * 1024;
/** A first screen never reads more than this; lines this big are rare, but a screen must stay fast. */
const MaxWindowBytes = 32 * 1024 * 1024;

export interface FirstScreenOptions {
  readonly projectsDir?: string;
  /** At least this many top-level blocks (fewer only when the session has fewer). Default 50. */
  readonly minBlocks?: number;
  /** The file may still grow: an unterminated last line is left for later, open calls keep running. */
  readonly live?: boolean;
  readonly chunkBytes?: number;
  /** Never read more than this from the end, even for fewer blocks (default 32 MB). */
  readonly maxBytes?: number;
  /** Baton's audit trail for this session (see RestoreOptions.audit). */
  readonly audit?: SessionAudit;
}

export interface FirstScreen {
  readonly file: string;
  readonly sessionId: string;
  /**
   * The newest blocks, annotated like a full restore's. When not `complete`, a notice with id
   * `EarlierBlocksNoticeId` comes first, saying how much of the session is still to load.
   */
  readonly transcript: Transcript;
  /** The window holds the whole file: this is the full restore (sidechains not loaded). */
  readonly complete: boolean;
  /** Byte offset where the window starts (0 when complete). */
  readonly startOffset: number;
  /** Where the window ends: the file's size, or the start of an unterminated last line when live. */
  readonly endOffset: number;
  /** Top-level blocks of the window, without the notice. */
  readonly blockCount: number;
  readonly problems: readonly HistoryProblem[];
  /** The window as a session (its subagent cards can load their sidechains). */
  readonly session: HistorySession;
  /** The session's first real prompt and summary, from the start of the file (the window may not hold them). */
  readonly titleFacts: { readonly firstPrompt?: string; readonly summary?: string };
}

export async function restoreFirstScreen(pathOrId: string, options: FirstScreenOptions = {}): Promise<FirstScreen> {
  const file = await resolveSessionFile(pathOrId, options.projectsDir);
  const minBlocks = Math.max(1, options.minBlocks ?? DefaultFirstScreenBlocks);
  // Before the read: a file replaced while it is read is seen as replaced when followed.
  const identity = await fileIdentity(file);
  let tail: TailRead;
  try {
    tail = await readTail(file, minBlocks, options);
  } catch (error) {
    throw new HistoryError("unreadable", pathOrId, `Cannot read ${file}: ${String(error)}`);
  }
  return buildFirstScreen(file, tail, options, identity);
}

interface TailRead {
  /** The window's lines, oldest first. */
  readonly lines: readonly WindowLine[];
  readonly startOffset: number;
  readonly endOffset: number;
  readonly complete: boolean;
  readonly problems: HistoryProblem[];
}

/** Reads chunks from the end until a window with `minBlocks` top-level blocks is found. */
async function readTail(file: string, minBlocks: number, options: FirstScreenOptions): Promise<TailRead> {
  const handle = await openRegularFile(file);
  try {
    const size = (await handle.stat()).size;
    const reader = new TailReader(handle, { end: size, maxLineBytes: MaxLineBytes, ...(options.chunkBytes !== undefined ? { chunkBytes: options.chunkBytes } : {}) });
    const stats = emptyStats();
    const parser = new TailLineParser(stats);
    const newestFirst: WindowLine[] = [];
    let endOffset = size;
    let want = minBlocks;
    const maxBytes = options.maxBytes ?? MaxWindowBytes;
    for (;;) {
      let start = chooseStart(newestFirst, want);
      while (start === undefined && !reader.done && size - reader.offset < maxBytes) {
        for (const line of await reader.next()) {
          // A live file's unterminated last line is still being written: it is read once complete.
          if (!line.terminated && options.live === true) {
            endOffset = line.offset;
            continue;
          }
          const values = parser.parse(line);
          for (let i = values.length - 1; i >= 0; i--) newestFirst.push(windowLine(values[i]!, line.offset));
        }
        start = chooseStart(newestFirst, want);
      }
      // Past the byte cap, whatever was read makes the screen, even with fewer blocks.
      const capped = start === undefined && !reader.done;
      const first = start ?? (capped ? oldestStart(newestFirst) : newestFirst.length - 1);
      const complete = reader.done && first === newestFirst.length - 1;
      const lines = newestFirst.slice(0, first + 1).reverse();
      const blocks = countBlocks(lines);
      // The estimate can be high (a duplicate line, a result that adds nothing): widen and retry.
      if (complete || capped || blocks >= minBlocks) {
        const startOffset = complete ? 0 : (lines[0]?.offset ?? reader.offset);
        return { lines, startOffset, endOffset, complete, problems: lineProblems(file, stats, parser.problems) };
      }
      want += minBlocks - blocks;
    }
  } finally {
    await handle.close();
  }
}

function countBlocks(lines: readonly WindowLine[]): number {
  let n = 0;
  for (const line of lines) n += line.blocks;
  return n;
}

async function buildFirstScreen(file: string, tail: TailRead, options: FirstScreenOptions, identity: string | undefined): Promise<FirstScreen> {
  const sessionId = sessionIdFromPath(file);
  const projectDir = path.dirname(file);
  const head = tail.complete ? undefined : await readHead(file, Math.min(HeadBytes, tail.startOffset));
  // Fork cards and side notes go between the lines (lineInserts.ts); the window shows those it places.
  const inserts = isStandaloneFile(file) ? undefined : await findLineInserts(projectDir, sessionId, tail.problems);
  const stream = eventStream({ kind: "session", file, ...(inserts !== undefined ? { inserts } : {}), ...(options.audit !== undefined ? { audit: options.audit } : {}) });
  const reader = new MainFileReader(sessionId, stream);
  if (head?.title !== undefined) reader.add([head.title]);
  const seen = new Set<string>();
  for (const line of tail.lines) {
    const events = stream.line(line.value);
    reader.add(tail.complete ? events : windowEvents(events, seen, head?.stream.mapper.facts.customTitle !== undefined));
  }
  if (tail.complete) reader.add(stream.end());
  const finished = options.live !== true;
  const model = reader.finish(finished, head === undefined ? undefined : mergedInit(head.stream, stream));
  const files = tail.complete ? await findSidechainFiles(projectDir, sessionId, tail.problems) : await windowSidechainFiles(projectDir, sessionId, stream.mapper.agentCalls, tail.problems);
  const session = createHistorySession({ sessionId, path: file, projectDir, finished, model, stream, offset: tail.endOffset, ...(identity !== undefined ? { identity } : {}), files, problems: tail.problems });
  // The whole file is in: make it exactly what the full restore gives (a fork's sidechains too).
  if (tail.complete) await linkForkedSidechains(session, forkOriginsOf(options));
  const transcript = annotatedTranscript(session);
  const blockCount = transcript.blocks.length;
  const { firstPrompt, summary } = (head?.stream ?? stream).mapper.facts;
  return {
    file,
    sessionId,
    transcript: tail.complete ? transcript : { ...transcript, blocks: [earlierNotice(tail.startOffset, blockCount), ...transcript.blocks] },
    complete: tail.complete,
    startOffset: tail.startOffset,
    endOffset: tail.endOffset,
    blockCount,
    problems: session.problems,
    session,
    titleFacts: { firstPrompt, summary },
  };
}

/**
 * The window's events as the full restore would reduce them: a result whose call lies before the
 * window is left out (the call is not on this screen), and a title the model suggested does not
 * replace one the person chose at the start of the file.
 */
function windowEvents(events: readonly ClientEvent[], toolUses: Set<string>, customTitle: boolean): readonly ClientEvent[] {
  let out: ClientEvent[] | undefined;
  for (let i = 0; i < events.length; i++) {
    const event = events[i]!;
    let keep = true;
    if (event.kind === "assistant_block") {
      const block = event.block;
      if (block.type === "tool_use" || block.type === "server_tool_use" || block.type === "mcp_tool_use") toolUses.add(block.id);
    } else if (event.kind === "tool_result") keep = toolUses.has(event.toolUseId);
    else if (event.kind === "title") keep = !(customTitle && event.source === "ai");
    if (!keep) out ??= events.slice(0, i);
    else out?.push(event);
  }
  return out ?? events;
}

interface Head {
  readonly stream: EventStream;
  readonly title?: ClientEvent;
}

/** The facts and title the start of the file gives (the CLI writes titles first). */
async function readHead(file: string, limit: number): Promise<Head> {
  const stream = eventStream({ kind: "session", file });
  let title: ClientEvent | undefined;
  if (limit <= 0) return { stream };
  try {
    await readJsonl(file, {
      chunkBytes: limit,
      onRecord: ({ value, offset }) => {
        if (offset >= limit) return false;
        for (const event of stream.line(value)) if (event.kind === "title") title = event;
        return true;
      },
    });
  } catch {
    // The window alone still makes a first screen.
  }
  return { stream, ...(title !== undefined ? { title } : {}) };
}

/** The init the full restore would end with: first cwd, version and model; the last mode. */
function mergedInit(head: EventStream, window: EventStream): SessionInitEvent {
  const h = head.mapper.facts;
  const w = window.mapper.facts;
  const init = window.mapper.initEvent();
  const version = h.version ?? w.version;
  return {
    ...init,
    cwd: h.cwd ?? w.cwd ?? "",
    model: h.model ?? w.model ?? "",
    permissionMode: w.permissionMode ?? h.permissionMode ?? "default",
    ...(version !== undefined ? { cliVersion: version } : {}),
  };
}

function earlierNotice(startOffset: number, blocks: number): Block {
  const mb = (startOffset / 1024 / 1024).toFixed(1);
  return { kind: "notice", id: EarlierBlocksNoticeId, level: "info", text: `Showing the newest ${blocks} blocks; the earlier ${mb} MB of this session are still loading.` };
}
