// The journal's writes. Every write the reducer makes to the store is recorded as a triple
// (target, key, previous value) in the journal (timeline.ts). Undoing a range of triples puts each
// previous value back and keeps the value it replaced in its place, so the same range, applied
// the other way, redoes it: the journal never copies itself to move between versions.

type Keyed = Record<PropertyKey, unknown>;

/**
 * Flat triples: target, key, value (`undefined` = absent, for maps). Slots are written by index
 * into an array that grows by doubling: `push` onto a large array costs several times as much.
 */
export class UndoLog {
  slots: unknown[];
  length = 0;

  constructor(capacity = 3 * 64) {
    this.slots = new Array<unknown>(capacity);
  }

  /** Records that `target[key]` was `previous`. */
  note(target: unknown, key: unknown, previous: unknown): void {
    let slots = this.slots;
    const n = this.length;
    if (n === slots.length) {
      slots = this.slots = slots.concat(new Array<unknown>(slots.length));
    }
    slots[n] = target;
    slots[n + 1] = key;
    slots[n + 2] = previous;
    this.length = n + 3;
  }

  /** Forgets the slots from `length` on. */
  truncate(length: number): void {
    this.slots.fill(undefined, length, this.length);
    this.length = length;
  }
}

/** Sets `target[key]`, logging the previous value. */
export function write<T extends object, K extends keyof T>(log: UndoLog, target: T, key: K, value: T[K]): void {
  log.note(target, key, target[key]);
  target[key] = value;
}

/** Sets (or, with `undefined`, deletes) a map entry, logging the previous value. */
export function writeMap<K, V>(log: UndoLog, map: Map<K, V>, key: K, value: V | undefined): void {
  const previous = map.get(key);
  if (previous === value) return;
  log.note(map, key, previous);
  if (value === undefined) map.delete(key);
  else map.set(key, value);
}

/** Undoes the triples in slots [from, to) of `log`, newest first, leaving the redo triples in their place. */
export function undoRange(log: UndoLog, from: number, to: number): void {
  for (let i = to - 3; i >= from; i -= 3) swap(log.slots, i);
}

/** Redoes the triples in slots [from, to) that `undoRange` left, oldest first, leaving undo triples again. */
export function redoRange(log: UndoLog, from: number, to: number): void {
  for (let i = from; i < to; i += 3) swap(log.slots, i);
}

/** Puts the triple's value into its target, and the value it replaces into the triple. */
function swap(log: unknown[], i: number): void {
  const target = log[i];
  const key = log[i + 1];
  const value = log[i + 2];
  if (target instanceof Map) {
    log[i + 2] = target.get(key);
    if (value === undefined) target.delete(key);
    else target.set(key, value);
  } else {
    const object = target as Keyed;
    log[i + 2] = object[key as PropertyKey];
    object[key as PropertyKey] = value;
  }
}
