// The hub's states. Every state of a session shares one mutable Store (store.ts), which shows one
// state at a time; a state is a version of a timeline (timeline.ts), and reading or reducing any
// other state first moves the store to it ("rerooting"). A live session only ever touches its
// newest state, so this is O(1) per event.

import type { BackgroundTask } from "../../shared/events.js";
import type { PermissionMode, Usage } from "../../shared/protocol/messages.js";
import type { SubagentStats, Transcript, TranscriptStatus } from "../../shared/transcript.js";
import { Store, type Node } from "./store.js";
import { makeCurrent, Timeline, type Page } from "./timeline.js";
import { clearBuilt } from "./tree.js";
import type { UndoLog } from "./undoLog.js";

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
  /** The last turn result's `subagent_stats` (2.1.332+). */
  readonly subagentStats?: SubagentStats;
  /** Live background agents an interrupt would stop (sessionStatus.ts); absent when none. */
  readonly backgroundAgents?: number;
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
  /** The CLI process's last `background_tasks_changed` level; undefined until it sends one (2.1.197 never does). */
  readonly backgroundTasks: readonly BackgroundTask[] | undefined;
  /** A background agent finished outside a turn: the turn that delivers its report is still to come. */
  readonly notificationDue: boolean;
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
  backgroundTasks: readonly BackgroundTask[] | undefined;
  notificationDue: boolean;
  /** This state is version `slot` of `timeline`; `page` is the journal page of that slot. */
  timeline: Timeline;
  slot: number;
  page: Page;
  /** While the state is being written only: the store, and the journal page its writes go to. */
  store: Store | undefined;
  log: UndoLog | undefined;

  constructor(s: Scalars, timeline: Timeline) {
    this.meta = s.meta;
    this.costBefore = s.costBefore;
    this.costThisProcess = s.costThisProcess;
    this.seq = s.seq;
    this.lastLineKey = s.lastLineKey;
    this.lastLineCount = s.lastLineCount;
    this.streaming = s.streaming;
    this.inTurn = s.inTurn;
    this.backgroundTasks = s.backgroundTasks;
    this.notificationDue = s.notificationDue;
    this.timeline = timeline;
    this.slot = timeline.applied;
    this.page = timeline.appliedPage;
    this.store = undefined;
    this.log = undefined;
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
    backgroundTasks: undefined,
    notificationDue: false,
  };
  return new HubState(scalars, new Timeline(new Store()));
}

export function hubState(state: SessionState): HubState {
  if (!(state instanceof HubState)) throw new TypeError("not a hub SessionState (use createSessionState)");
  if (state.slot < state.timeline.floor) throw new Error("hub: this state was used up by reduceAllConsuming(); read the state it returned");
  return state;
}

/** Whether a top-level turn is in progress (a prompt or init seen, its result not yet). */
export function turnRunning(state: SessionState): boolean {
  return hubState(state).inTurn;
}

/** Makes `state` the one the store shows, and returns the store. */
export function reroot(state: HubState): Store {
  const t = state.timeline;
  // Built blocks are cached without logging (tree.ts): forget them rather than trust them.
  if (makeCurrent(t, state.slot, state.page)) clearBuilt((t.store as Store).top);
  return t.store as Store;
}

export type { Transcript };
