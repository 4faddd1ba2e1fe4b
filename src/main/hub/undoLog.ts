// Undo logs for the hub's mutable store. Every write the reducer makes to the store is logged as
// (target, key, previous value); the log travels with the state it was reduced from, so that state
// can be brought back (see `reroot` in state.ts). Rewinding a log yields the log that redoes it.

/** Flat triples: target, key, previous value (`undefined` = absent, for maps). */
export type UndoLog = unknown[];

type Keyed = Record<PropertyKey, unknown>;

/** Sets `target[key]`, logging the previous value. */
export function write<T extends object, K extends keyof T>(log: UndoLog, target: T, key: K, value: T[K]): void {
  log.push(target, key, target[key]);
  target[key] = value;
}

/** Sets (or, with `undefined`, deletes) a map entry, logging the previous value. */
export function writeMap<K, V>(log: UndoLog, map: Map<K, V>, key: K, value: V | undefined): void {
  const previous = map.get(key);
  if (previous === value) return;
  log.push(map, key, previous);
  if (value === undefined) map.delete(key);
  else map.set(key, value);
}

/** Undoes `log` (newest write first) and returns the log that redoes it. */
export function rewind(log: UndoLog): UndoLog {
  const redo: UndoLog = new Array<unknown>(log.length);
  for (let i = log.length - 3, j = 0; i >= 0; i -= 3, j += 3) {
    const target = log[i];
    const key = log[i + 1];
    const previous = log[i + 2];
    let current: unknown;
    if (target instanceof Map) {
      current = target.get(key);
      if (previous === undefined) target.delete(key);
      else target.set(key, previous);
    } else {
      const object = target as Keyed;
      current = object[key as PropertyKey];
      object[key as PropertyKey] = previous;
    }
    redo[j] = target;
    redo[j + 1] = key;
    redo[j + 2] = current;
  }
  return redo;
}
