// The hub's states. Every state of a session shares one mutable Store; exactly one state, the
// root, sees it as it is. Each other state keeps the undo log that turns its `next` state's view
// into its own (Baker's trick for persistent arrays). Reducing the root mutates the store and
// leaves the old root a log behind; reading or reducing any other state first "reroots" the
// store to it. A live session only ever touches its newest state, so all of this is O(1) per
// event, and an old state that nobody holds is garbage together with its log.

import type { PermissionMode, Usage } from "../../shared/protocol/messages.js";
import type { Transcript, TranscriptStatus } from "../../shared/transcript.js";
import { Store, type Node } from "./store.js";
import { clearBuilt } from "./tree.js";
import { rewind, type UndoLog } from "./undoLog.js";

/** Streaming top-level blocks of the message being received (`--include-partial-messages`). */
export interface StreamingMessage {
  readonly messageId: string;
  /** content block index → its top-level node; `done` once its `assistant` line replaced it. */
  readonly blocks: readonly { readonly index: number; readonly node: Node; readonly kind: "text" | "thinking"; readonly done: boolean }[];
}

export interface SessionMeta {
  readonly sessionId: string;
  readonly cwd?: string;
  readonly model?: string;
  readonly title?: string;
  readonly permissionMode?: PermissionMode;
  readonly status: TranscriptStatus;
  readonly usage?: Usage;
  readonly contextUsage?: Usage;
  readonly contextWindow?: number;
}

/** What a state holds besides the store; a state never changes these once it is returned. */
export interface Scalars {
  readonly meta: SessionMeta;
  /** Cost of earlier CLI processes; `total_cost_usd` is cumulative within one process. */
  readonly costBefore: number;
  readonly costThisProcess: number | undefined;
  /** Counter for synthetic block ids. */
  readonly seq: number;
  /** The line uuid (or message id) of the last assistant block, and how many blocks it had. */
  readonly lastLineKey: string | undefined;
  readonly lastLineCount: number;
  readonly streaming: StreamingMessage | undefined;
  /** A top-level turn is in progress (between a prompt or init and its result). */
  readonly inTurn: boolean;
}

/** An opaque hub state: read it with toTranscript / findToolCall, advance it with reduce. */
export interface SessionState {
  readonly meta: SessionMeta;
}

/** Scalars are written only while the state is being reduced into (draft.ts), never after. */
export class HubState implements SessionState, Scalars {
  meta: SessionMeta;
  costBefore: number;
  costThisProcess: number | undefined;
  seq: number;
  lastLineKey: string | undefined;
  lastLineCount: number;
  streaming: StreamingMessage | undefined;
  inTurn: boolean;
  /** Set on the root only. */
  store: Store | undefined;
  /** Toward the root, with the log that turns `next`'s view into this state's. */
  next: HubState | undefined = undefined;
  undo: UndoLog | undefined = undefined;
  /** The undo log of the step writing this state; only while it is written. */
  log: UndoLog | undefined = undefined;

  constructor(s: Scalars, store: Store) {
    this.meta = s.meta;
    this.costBefore = s.costBefore;
    this.costThisProcess = s.costThisProcess;
    this.seq = s.seq;
    this.lastLineKey = s.lastLineKey;
    this.lastLineCount = s.lastLineCount;
    this.streaming = s.streaming;
    this.inTurn = s.inTurn;
    this.store = store;
  }
}

export function createSessionState(init?: { sessionId?: string }): SessionState {
  const scalars: Scalars = {
    meta: { sessionId: init?.sessionId ?? "", status: "idle" },
    costBefore: 0,
    costThisProcess: undefined,
    seq: 0,
    lastLineKey: undefined,
    lastLineCount: 0,
    streaming: undefined,
    inTurn: false,
  };
  return new HubState(scalars, new Store());
}

export function hubState(state: SessionState): HubState {
  if (!(state instanceof HubState)) throw new TypeError("not a hub SessionState (use createSessionState)");
  return state;
}

/** Makes `state` the root and returns the store as `state` sees it. */
export function reroot(state: HubState): Store {
  if (state.store !== undefined) return state.store;
  const chain: HubState[] = [];
  let root: HubState = state;
  while (root.store === undefined) {
    chain.push(root);
    root = root.next as HubState;
  }
  const store = root.store;
  // Walk back from the root, one state at a time, turning each hop around.
  let newer = root;
  for (let i = chain.length - 1; i >= 0; i--) {
    const older = chain[i] as HubState;
    newer.undo = rewind(older.undo as UndoLog);
    newer.next = older;
    newer.store = undefined;
    older.undo = undefined;
    older.next = undefined;
    older.store = store;
    newer = older;
  }
  // Built blocks are cached without logging (tree.ts): forget them rather than trust them.
  clearBuilt(store.top);
  return store;
}

/** After `from` was reduced into `next` with `log`: `next` is the root, `from` keeps the log. */
export function publish(from: HubState, next: HubState, log: UndoLog): void {
  from.store = undefined;
  from.next = next;
  from.undo = log;
}

export type { Transcript };
