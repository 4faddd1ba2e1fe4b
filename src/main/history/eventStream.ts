// How the lines of a history file become ClientEvents, for every reader of history: the full
// restore and export (restore.ts), the first screen (firstScreen.ts), a file followed as it grows
// (tail.ts), a restored subagent's sidechain (historySession.ts) and a Workflow agent's
// (workflowRuns.ts), a live tab's sidechains (core/liveSidechains.ts), the session list
// (sessionList.ts) and the search index (search/extract.ts). Each reader keeps its own way of
// reading bytes (forwards in chunks, backwards from the end, from an offset, on the index's own
// thread) and hands every parsed line, in order, to a stream made here for what the file is:
//
//   session    a session's file: each line routed to the conversation or, in old layouts, to a
//              subagent kept inside it (diskMapper.ts); fork cards and side notes placed between
//              its lines (lineInserts.ts); Baton's audit trail applied (auditOverlay.ts). An
//              `agent-*.jsonl` named on its own is read as a conversation of its own.
//   sidechain  a subagent's own transcript: every line belongs to its Agent call.
//   lines      each line alone, keeping nothing from one line to the next: the search index
//              resumes a file from a stored offset, and keeps every row a file holds.
//
// The session and sidechain streams, whose events are kept, point a tool result's structured copy
// at its text (sharedStrings.ts).

import path from "node:path";
import type { ClientEvent } from "../../shared/events.js";
import type { JsonObject } from "../../shared/protocol/messages.js";
import { sessionIdFromPath } from "../platform/projectsDir.js";
import { AuditOverlay, type AuditWithTrail } from "./auditOverlay.js";
import { DiskMapper } from "./diskMapper.js";
import { mapDiskLine } from "./diskToEvents.js";
import type { LineInserts } from "./lineInserts.js";
import { tooDeepProblems, unknownSystemProblems, type HistoryProblem } from "./problems.js";
import { shareResultText } from "./sharedStrings.js";

export type StreamOf =
  | {
      readonly kind: "session";
      /** The session's file: its name gives the session id. */
      readonly file: string;
      /** Events that go between its lines (sessionInserts.ts); placed by the first reading only. */
      readonly inserts?: LineInserts;
      /** Baton's audit trail for this session: its decisions and interrupts, where the disk cannot say. */
      readonly audit?: AuditWithTrail;
    }
  | { readonly kind: "sidechain"; readonly sessionId: string; readonly toolUseId: string }
  | { readonly kind: "lines" };

/** A file's lines, in order, as events. */
export interface LineEvents {
  /** The events of the file's next line. */
  line(value: JsonObject): readonly ClientEvent[];
  /** Lines so far whose values were nested too deeply and are shown cut short (boundedJson.ts). */
  readonly tooDeepLines: number;
}

/** A session's file or a subagent's: what its lines said beyond their events, too. */
export interface EventStream extends LineEvents {
  /** After the last line: the inserted events no line placed (their line is gone), and what the audit trail puts after everything (auditOverlay.ts). */
  end(): readonly ClientEvent[];
  /** The file was truncated or replaced: its lines come again from the first, for a new session model. */
  restart(): void;
  /** What the lines said: the session's facts, Agent calls, old layouts' subagents (a new one after `restart`). */
  readonly mapper: DiskMapper;
  /** Baton's audit trail as applied to this file; a restored session applies it to its sidechains too. */
  readonly overlay: AuditOverlay | undefined;
  /** What the lines held that is not shown as written: values nested too deeply, unknown system lines. */
  problems(file: string): HistoryProblem[];
}

/** A file named `agent-*.jsonl` opened on its own: its rows are the conversation (and it has no forks of its own). */
export function isStandaloneFile(file: string): boolean {
  return path.basename(file).startsWith("agent-");
}

export function eventStream(of: Exclude<StreamOf, { kind: "lines" }>): EventStream;
export function eventStream(of: Extract<StreamOf, { kind: "lines" }>): LineEvents;
export function eventStream(of: StreamOf): EventStream | LineEvents {
  return of.kind === "lines" ? new EachLine() : new FileStream(of);
}

class FileStream implements EventStream {
  mapper: DiskMapper;
  overlay: AuditOverlay | undefined;

  constructor(private readonly of: Exclude<StreamOf, { kind: "lines" }>) {
    this.mapper = this.newMapper(of.kind === "session" ? of.inserts : undefined);
    this.overlay = of.kind === "session" ? AuditOverlay.from(of.audit) : undefined;
  }

  get tooDeepLines(): number {
    return this.mapper.tooDeepLines;
  }

  line(value: JsonObject): readonly ClientEvent[] {
    return this.shown(this.mapper.map(value));
  }

  end(): readonly ClientEvent[] {
    const inserted = this.shown(this.mapper.insertedAtEnd());
    const last = this.overlay?.end() ?? [];
    return last.length === 0 ? inserted : [...inserted, ...last];
  }

  restart(): void {
    this.mapper = this.newMapper(undefined);
    if (this.of.kind === "session") this.overlay = AuditOverlay.from(this.of.audit);
  }

  problems(file: string): HistoryProblem[] {
    return [...tooDeepProblems(file, this.mapper.tooDeepLines), ...unknownSystemProblems(file, this.mapper.unknownSystemSubtypes)];
  }

  private shown(mapped: readonly ClientEvent[]): readonly ClientEvent[] {
    const events = this.overlay === undefined ? mapped : this.overlay.apply(mapped);
    for (const event of events) shareResultText(event);
    return events;
  }

  private newMapper(inserts: LineInserts | undefined): DiskMapper {
    const of = this.of;
    const standalone = of.kind === "session" && isStandaloneFile(of.file);
    return new DiskMapper(
      of.kind === "sidechain"
        ? { sessionId: of.sessionId, sidechainOf: of.toolUseId }
        : { sessionId: sessionIdFromPath(of.file), standalone, ...(inserts !== undefined && !standalone ? { inserts } : {}) },
    );
  }
}

class EachLine implements LineEvents {
  tooDeepLines = 0;

  line(value: JsonObject): readonly ClientEvent[] {
    const { events, tooDeep } = mapDiskLine(value, null);
    if (tooDeep > 0) this.tooDeepLines++;
    return events;
  }
}
