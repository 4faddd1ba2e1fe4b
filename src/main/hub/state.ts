// The hub's state: the transcript tree (top-level blocks in a persistent vector, subagent records
// nested inside their Agent tool blocks) plus indexes kept in versioned maps shared along a lineage.

import type { PermissionMode, Usage } from "../../shared/protocol/messages.js";
import type { Block, PermissionState, SubagentRecord, Transcript, TranscriptStatus } from "../../shared/transcript.js";
import { PersistentVector } from "./persistentVector.js";
import { VersionedMap } from "./versionedMap.js";

/** Where a block lives: top-level index, then the block's sequence number in each enclosing record. */
export type Path = readonly number[];

/** task_id → the Agent (or Bash) tool_use it belongs to; the first `task_started` wins. */
export interface TaskLink {
  readonly toolUseId: string;
  readonly kind: "agent" | "bash";
}

/** requestId → the tool call it concerns and the subagent that asked. */
export interface PermissionLink {
  readonly toolUseId: string;
  readonly agentToolUseId?: string;
}

export class Lineage {
  /** The version of the only state allowed to write. */
  head: number;
  /** blockId (tool_use id for tools) → path. */
  readonly paths: VersionedMap<Path>;
  readonly tasks: VersionedMap<TaskLink>;
  /** Subagent records whose tool_use has not arrived (yet, or ever: depth ≥ 3), by tool_use id. */
  readonly drafts: VersionedMap<SubagentRecord>;
  readonly permissions: VersionedMap<PermissionLink>;
  /** Permission state for tool calls not seen yet, by tool_use id. */
  readonly earlyPermissions: VersionedMap<PermissionState>;
  /** Agent tool_use ids whose final tool_result has spoken: task events no longer change status. */
  readonly settled: VersionedMap<true>;
  /** Agent tool_use ids whose subagent answered with a synthetic API error, with its text. */
  readonly apiErrors: VersionedMap<string>;
  /**
   * Head-only: tool calls without a result and running subagents, with their paths. Rebuilt from
   * the tree when the lineage forks. Nearly every event concerns one of these, so looking here
   * first avoids the large `paths` map.
   */
  readonly open: Map<string, Path>;

  constructor(head: number, from?: { lineage: Lineage; version: number }, open?: Map<string, Path>) {
    this.head = head;
    const copy = <V>(pick: (l: Lineage) => VersionedMap<V>): VersionedMap<V> =>
      from === undefined ? new VersionedMap<V>() : pick(from.lineage).snapshot(from.version);
    this.paths = copy((l) => l.paths);
    this.tasks = copy((l) => l.tasks);
    this.drafts = copy((l) => l.drafts);
    this.permissions = copy((l) => l.permissions);
    this.earlyPermissions = copy((l) => l.earlyPermissions);
    this.settled = copy((l) => l.settled);
    this.apiErrors = copy((l) => l.apiErrors);
    this.open = open ?? new Map();
  }
}

/** Streaming top-level blocks of the message being received (`--include-partial-messages`). */
export interface StreamingMessage {
  readonly messageId: string;
  /** content block index → top-level position; `done` once its `assistant` line replaced it. */
  readonly blocks: readonly { readonly index: number; readonly position: number; readonly kind: "text" | "thinking"; readonly done: boolean }[];
}

export interface SessionMeta {
  readonly sessionId: string;
  readonly cwd?: string;
  readonly model?: string;
  readonly title?: string;
  readonly permissionMode?: PermissionMode;
  readonly status: TranscriptStatus;
  readonly usage?: Usage;
}

export interface SessionState {
  readonly version: number;
  readonly lineage: Lineage;
  readonly meta: SessionMeta;
  readonly top: PersistentVector<Block>;
  /** Cost of earlier CLI processes; `total_cost_usd` is cumulative within one process. */
  readonly costBefore: number;
  readonly costThisProcess?: number;
  /** Counter for synthetic block ids. */
  readonly seq: number;
  /** The line uuid (or message id) of the last assistant block, and how many blocks it had. */
  readonly lastLineKey?: string;
  readonly lastLineCount: number;
  readonly streaming?: StreamingMessage;
  /** A top-level turn is in progress (between a prompt or init and its result). */
  readonly inTurn: boolean;
}

export function createSessionState(init?: { sessionId?: string }): SessionState {
  return {
    version: 0,
    lineage: new Lineage(0),
    meta: { sessionId: init?.sessionId ?? "", status: "idle" },
    top: PersistentVector.empty<Block>(),
    costBefore: 0,
    seq: 0,
    lastLineCount: 0,
    inTurn: false,
  };
}

export type { Transcript };
