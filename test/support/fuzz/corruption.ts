// Damage done to recorded lines: what a cut pipe, a bad disk, a buggy or newer CLI, or a hostile
// file can put where a line was. Each corruption is data (fast-check shrinks and prints it), and
// `corrupt` applies it to one line's text.

import fc from "fast-check";

/** Values of every JSON type, and extremes, put where a line had something else. */
const oddValues: readonly unknown[] = [
  null,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  5e-324,
  Number.MAX_SAFE_INTEGER + 2,
  "",
  "x",
  "\u0000",
  "\uFEFF",
  "__proto__",
  "constructor",
  true,
  [],
  {},
  [null],
  [1, "a"],
  { type: "text" },
  { text: 5 },
  [{ type: "tool_use" }],
  { __proto__: null, toString: 1 },
];

export type Corruption =
  /** The line cut after `at` characters (a write cut off). */
  | { readonly kind: "truncate"; readonly at: number }
  /** One character replaced (a flipped bit, a stray byte). */
  | { readonly kind: "flip"; readonly at: number; readonly char: string }
  /** Text put in at a place. */
  | { readonly kind: "insert"; readonly at: number; readonly text: string }
  /** One `{` or `}` taken out. */
  | { readonly kind: "dropBrace"; readonly which: number }
  /** A value at a path (chosen by `picks`) replaced with a value of another type. */
  | { readonly kind: "wrongType"; readonly picks: readonly number[]; readonly value: unknown }
  /** A value at a path wrapped in `depth` arrays. */
  | { readonly kind: "deepNest"; readonly picks: readonly number[]; readonly depth: number }
  /** Byte-order marks before the line (an editor's, many times over). */
  | { readonly kind: "marks"; readonly count: number }
  /** A raw number far beyond a double's range put in as a field's text. */
  | { readonly kind: "hugeNumber"; readonly picks: readonly number[]; readonly digits: number };

const strayText = fc.constantFrom("\\", '"', "{", "}", "[", "]", ",", ":", "\u0000", "\uFFFD", "\u2028", "é", "🎼", "null", '"type":', '"__proto__":{"type":"x"},', "\r", "\t");

export const corruption: fc.Arbitrary<Corruption> = fc.oneof(
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("flip" as const), at: fc.nat(), char: fc.oneof(strayText, fc.string({ minLength: 1, maxLength: 1, unit: "binary" })) }),
  fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), text: fc.oneof(strayText, fc.string({ maxLength: 8, unit: "binary" })) }),
  fc.record({ kind: fc.constant("dropBrace" as const), which: fc.nat() }),
  fc.record({ kind: fc.constant("wrongType" as const), picks: fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), value: fc.constantFrom(...oddValues) }),
  fc.record({ kind: fc.constant("deepNest" as const), picks: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), depth: fc.oneof(fc.integer({ min: 90, max: 130 }), fc.constant(100_000)) }),
  fc.record({ kind: fc.constant("marks" as const), count: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.constant(50_000)) }),
  fc.record({ kind: fc.constant("hugeNumber" as const), picks: fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), digits: fc.integer({ min: 20, max: 400 }) }),
);

/** `text` with `c` done to it. */
export function corrupt(text: string, c: Corruption): string {
  switch (c.kind) {
    case "truncate":
      return text.slice(0, c.at % Math.max(text.length, 1));
    case "flip": {
      const at = c.at % Math.max(text.length, 1);
      return text.slice(0, at) + c.char + text.slice(at + 1);
    }
    case "insert": {
      const at = c.at % (text.length + 1);
      return text.slice(0, at) + c.text + text.slice(at);
    }
    case "dropBrace": {
      const braces = [...text.matchAll(/[{}]/g)].map((m) => m.index);
      if (braces.length === 0) return text;
      const at = braces[c.which % braces.length] as number;
      return text.slice(0, at) + text.slice(at + 1);
    }
    case "wrongType":
      return editJson(text, c.picks, () => c.value);
    case "deepNest":
      // Built as text: JSON.stringify of 100,000 nested arrays would spend the stack this probes.
      return spliceRaw(text, c.picks, (old) => "[".repeat(c.depth) + (JSON.stringify(old) ?? "null") + "]".repeat(c.depth));
    case "marks":
      return "\uFEFF".repeat(c.count) + text;
    case "hugeNumber":
      return spliceRaw(text, c.picks, () => "9".repeat(c.digits));
  }
}

/** A string no recorded line holds: stands where raw JSON text goes in after JSON.stringify. */
const Marker = "\u0001raw\u0001";

/** `text` with the value at the path `picks` chooses replaced by the raw JSON text `raw(old value)`. */
function spliceRaw(text: string, picks: readonly number[], raw: (old: unknown) => string): string {
  let replacement = "null";
  const marked = editJson(text, picks, (old) => {
    replacement = raw(old);
    return Marker;
  });
  return marked.replace(JSON.stringify(Marker), () => replacement);
}

/** `text` parsed, the value at the path `picks` chooses replaced by `edit` of it, written again. */
function editJson(text: string, picks: readonly number[], edit: (value: unknown) => unknown): string {
  try {
    return JSON.stringify(replaceAt(JSON.parse(text), picks, edit, 0)) ?? text;
  } catch {
    // Not JSON, or nested too deep to write again (an earlier deepNest): left as it is.
    return text;
  }
}

function replaceAt(value: unknown, picks: readonly number[], edit: (value: unknown) => unknown, depth: number): unknown {
  if (value === null || typeof value !== "object") return edit(value);
  const keys = Object.keys(value);
  const pick = picks[depth];
  if (keys.length === 0 || pick === undefined) return edit(value);
  const key = keys[pick % keys.length] as string;
  const copy: Record<string, unknown> = Array.isArray(value) ? ([...value] as unknown as Record<string, unknown>) : { ...value };
  copy[key] = replaceAt((value as Record<string, unknown>)[key], picks, edit, depth + 1);
  return copy;
}

/** What happens to one line of a file or stream: lost, read twice, or damaged. */
export type LineEdit =
  | { readonly kind: "drop"; readonly line: number }
  | { readonly kind: "duplicate"; readonly line: number }
  | { readonly kind: "corrupt"; readonly line: number; readonly corruption: Corruption };

export const lineEdit: fc.Arbitrary<LineEdit> = fc.oneof(
  fc.record({ kind: fc.constant("drop" as const), line: fc.nat() }),
  fc.record({ kind: fc.constant("duplicate" as const), line: fc.nat() }),
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("corrupt" as const), line: fc.nat(), corruption }) },
);

/** `lines` with the edits done, each at `line` modulo the length it has then. */
export function editLines<T>(lines: readonly T[], edits: readonly LineEdit[], damage: (line: T, c: Corruption) => T): T[] {
  const out = [...lines];
  for (const edit of edits) {
    if (out.length === 0) break;
    const at = edit.line % out.length;
    const line = out[at] as T;
    if (edit.kind === "drop") out.splice(at, 1);
    else if (edit.kind === "duplicate") out.splice(at + 1, 0, line);
    else out[at] = damage(line, edit.corruption);
  }
  return out;
}
