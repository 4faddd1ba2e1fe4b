// JSON values from a history file or the CLI's stdout, cut to a depth every consumer can take.
// JSON.parse reads any nesting, but JSON.stringify, structuredClone (worker and IPC messages),
// the WebSocket, recursive walkers and React all recurse, and a value 18,000 levels deep throws
// "Maximum call stack size exceeded" in each. So each line is bounded once, where it comes in,
// and nothing downstream ever sees a value deeper than `MaxJsonDepth`.

/** Levels of objects and arrays a value keeps (the line itself is level 1); real lines use about 10. */
export const MaxJsonDepth = 100;

/** What a cut-off part of a value is replaced by starts with this. */
export const TooDeepPrefix = "[nested too deep to show:";

export interface BoundedJson<T> {
  /** The value itself when nothing was cut, else a copy with the too-deep parts replaced. */
  readonly value: T;
  /** How many parts were replaced by a stand-in (0: the value is unchanged). */
  readonly cut: number;
}

/**
 * `value` with every object or array below level `maxDepth` replaced by a stand-in string that
 * says how deep and how big the part was. Recursion never goes past `maxDepth` levels, and the
 * parts that are kept are shared, not copied, so a value within bounds costs one walk and no copy.
 */
export function boundJsonDepth<T>(value: T, maxDepth = MaxJsonDepth): BoundedJson<T> {
  const counter = { cut: 0 };
  const bounded = bound(value, maxDepth, counter) as T;
  return { value: bounded, cut: counter.cut };
}

function bound(value: unknown, room: number, counter: { cut: number }): unknown {
  if (value === null || typeof value !== "object") return value;
  if (room === 0) {
    counter.cut++;
    return standIn(value);
  }
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const kept = bound(item, room - 1, counter);
      if (kept !== item) (copy ??= value.slice())[i] = kept;
    }
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  // for…in without an own-key check: parsed JSON has only own keys, and this runs on every line.
  for (const key in record) {
    const item = record[key];
    const kept = bound(item, room - 1, counter);
    // defineProperty: a parsed "__proto__" key is an own property, and must stay one.
    if (kept !== item) Object.defineProperty((copy ??= { ...record }), key, { value: kept, writable: true, enumerable: true, configurable: true });
  }
  return copy ?? value;
}

/** The honest stand-in for a cut-off part: its depth and about how much JSON it was. */
export function standIn(value: object): string {
  const { levels, chars } = measure(value);
  return `${TooDeepPrefix} ${levels.toLocaleString("en-US")} more levels, ${sizeText(chars)} of JSON]`;
}

/** Depth and approximate serialised length of a value, walked without recursion. */
function measure(root: object): { levels: number; chars: number } {
  const stack: { value: unknown; level: number }[] = [{ value: root, level: 1 }];
  let levels = 0;
  let chars = 0;
  while (stack.length > 0) {
    const { value, level } = stack.pop()!;
    if (typeof value === "string") chars += value.length + 2;
    else if (value === null || typeof value !== "object") chars += String(value).length;
    else {
      levels = Math.max(levels, level);
      const entries = Array.isArray(value) ? value : Object.values(value as Record<string, unknown>);
      chars += 2 + Math.max(0, entries.length - 1);
      if (!Array.isArray(value)) for (const key of Object.keys(value)) chars += key.length + 3;
      for (const item of entries) stack.push({ value: item, level: level + 1 });
    }
  }
  return { levels, chars };
}

function sizeText(chars: number): string {
  if (chars < 1024) return `${chars} B`;
  if (chars < 1024 * 1024) return `${(chars / 1024).toFixed(1)} KB`;
  return `${(chars / (1024 * 1024)).toFixed(1)} MB`;
}
