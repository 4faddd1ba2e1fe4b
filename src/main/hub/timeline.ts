// The versions of a session's store. Every state of a session shares one mutable Store, which
// shows one version at a time; the journal of writes (undoLog.ts) leads from it to any other.
//
// A timeline is a line of versions: its version k is its first version with the first k slots of
// its journal applied. Reducing a version that already has a successor starts a new timeline, so
// timelines form a tree, kept with Baker's trick: each timeline but the current one has one edge
// toward it, and moving the current version turns the edges it crosses around.
//
// Why a journal rather than a log per state, linked to the next state: a state that lived through
// two young-generation collections sits in the old generation, and everything it reaches stays
// alive until the next full collection. One such state used to keep every later state of a busy
// session alive, with its log, and the collector copied them all, which cost more than reducing.
// A state here reaches its timeline and its own page (a few hundred steps' writes in one array),
// and a page is freed once no state on it or before it is left. What the journal must keep, the
// values that writes replaced, is all that such a state still holds on to.

import type { Store } from "./store.js";
import { redoRange, undoRange, UndoLog } from "./undoLog.js";

/** A new page starts, between versions, once the tail page holds this many slots. */
const PageSlots = 3 * 2048;

/** A page of a timeline's journal: the slots from `start` on. */
export class Page extends UndoLog {
  next: Page | undefined = undefined;

  constructor(
    /** The timeline slot of the page's first slot; moved only when the journal is forgotten (forgetJournal). */
    public start: number,
    capacity?: number,
  ) {
    super(capacity);
  }

  get end(): number {
    return this.start + this.length;
  }
}

export class Timeline {
  /** Set on the current timeline only. */
  store: Store | undefined;
  /** Slots applied to the store (so far as this timeline goes); while `next` is a child, where it forked. */
  applied = 0;
  /** The page that holds (or ends at) slot `applied`. */
  appliedPage: Page;
  /** The page new slots go to. Pages link forward only: the timeline holds no page before its tail. */
  tail: Page;
  /** One edge toward the current timeline; undefined on the current one. */
  next: Timeline | undefined = undefined;
  /** Whether `next` is the timeline this one forked from (else `next` forked from this one). */
  nextIsParent = false;
  /** `next` is the parent: the slot it forked at, and that slot's page. */
  edgeSlot = 0;
  /** `next` is the parent: the page of `edgeSlot`. `next` is a child: its first page. */
  edgePage: Page | undefined = undefined;
  /** Versions before this slot are gone (forgetJournal): their states can no longer be read. */
  floor = 0;
  /** Another timeline forked from this one or this one from another: their versions need this journal. */
  forked = false;

  constructor(store: Store | undefined) {
    this.store = store;
    this.appliedPage = this.tail = new Page(0);
  }

  get length(): number {
    return this.tail.end;
  }
}

/** Makes version (timeline, slot) current, `page` being the page of `slot`; true if the store changed. */
export function makeCurrent(timeline: Timeline, slot: number, page: Page): boolean {
  let moved = false;
  if (timeline.store === undefined) {
    const path: Timeline[] = [];
    for (let t: Timeline = timeline; t.store === undefined; t = t.next as Timeline) path.push(t);
    for (let i = path.length - 1; i >= 0; i--) hop(path[i] as Timeline);
    moved = true;
  }
  if (timeline.applied !== slot) {
    moveTo(timeline, slot, page);
    moved = true;
  }
  return moved;
}

/** Makes `y` current; its `next` is current now. Turns their edge around. */
function hop(y: Timeline): void {
  const x = y.next as Timeline;
  if (y.nextIsParent) {
    moveTo(x, y.edgeSlot, y.edgePage as Page);
    x.nextIsParent = false;
    x.edgePage = y.appliedPage; // y has nothing applied: this is its first page
  } else {
    moveTo(x, 0, y.edgePage as Page);
    x.nextIsParent = true;
    x.edgeSlot = y.applied;
    x.edgePage = y.appliedPage;
  }
  x.next = y;
  y.store = x.store;
  x.store = undefined;
  y.next = undefined;
  y.edgePage = undefined;
}

/** Moves the current timeline to `slot`, undoing or redoing its journal in place. */
function moveTo(t: Timeline, slot: number, page: Page): void {
  if (slot < t.applied) {
    const pages: Page[] = [];
    for (let p: Page | undefined = page; p !== t.appliedPage; p = p.next) {
      if (p === undefined) throw new Error("hub: journal page chain broken");
      pages.push(p);
    }
    pages.push(t.appliedPage);
    for (let i = pages.length - 1; i >= 0; i--) {
      const p = pages[i] as Page;
      undoRange(p, Math.max(slot, p.start) - p.start, Math.min(t.applied, p.end) - p.start);
    }
  } else if (slot > t.applied) {
    for (let p: Page | undefined = t.appliedPage; ; p = p.next) {
      if (p === undefined) throw new Error("hub: journal page chain broken");
      redoRange(p, Math.max(t.applied, p.start) - p.start, Math.min(slot, p.end) - p.start);
      if (p === page) break;
    }
  }
  t.applied = slot;
  t.appliedPage = page;
}

/**
 * The timeline a step from the current version of `t` writes to: `t` itself when that version is
 * its last, else a new timeline forked there (which becomes current). Either way its applied page
 * is its tail, where the step's writes go.
 */
export function writableFrom(t: Timeline): Timeline {
  if (t.applied === t.length) {
    if (t.tail.length >= PageSlots) {
      const page = new Page(t.tail.end, PageSlots + 3 * 64);
      t.tail.next = page;
      t.tail = page;
    }
    t.appliedPage = t.tail;
    return t;
  }
  const fork = new Timeline(t.store);
  t.forked = fork.forked = true;
  t.store = undefined;
  t.next = fork;
  t.nextIsParent = false;
  t.edgePage = fork.tail;
  return fork;
}

/**
 * Forgets every version of current `t` before its last: their states can no longer be read, and
 * the values the journal kept for them are let go. The tail page is emptied and reused for the
 * next steps. Nothing is forgotten when another timeline depends on this journal.
 */
export function forgetJournal(t: Timeline): void {
  if (t.forked || t.store === undefined || t.applied !== t.length) return;
  const tail = t.tail;
  t.floor = t.applied;
  tail.truncate(0);
  tail.start = t.applied;
  t.appliedPage = tail;
}

/** After a step wrote to the tail of current `t`: its new version is the last one. */
export function advance(t: Timeline): void {
  t.applied = t.tail.end;
  t.appliedPage = t.tail;
}

/** Undoes and forgets what a failed step wrote to the tail of current `t` since `mark` (a tail index). */
export function discard(t: Timeline, mark: number): void {
  undoRange(t.tail, mark, t.tail.length);
  t.tail.truncate(mark);
}
