// A small matcher for the gitignore-style patterns of Read/Edit rules, on absolute POSIX paths.
// Within a segment: `*` any run of characters, `?` one character, `[abc]` `[a-z]` `[!a]` `[^a]`
// one of a set, `\x` the character x. A segment that is exactly `**` spans any number of folders,
// none included; `**` inside a segment is just `*`. Dotfiles are not special (gitignore's `*`
// matches `.env`). Matching is by segment, with one backtracking point per level, so time stays
// linear-ish in the path and no regular expression is ever built from a rule.

type Char =
  | { readonly kind: "char"; readonly c: string }
  | { readonly kind: "one" }
  | { readonly kind: "star" }
  | { readonly kind: "set"; readonly negated: boolean; readonly ranges: readonly (readonly [string, string])[] };

type Segment = { readonly kind: "globstar" } | { readonly kind: "segment"; readonly chars: readonly Char[] };

export interface PathGlob {
  readonly segments: readonly Segment[];
}

/** `pattern` must be absolute (start with `/`); empty segments (`//`) are dropped. */
export function compilePathGlob(pattern: string): PathGlob {
  return { segments: splitSegments(pattern).map(compileSegment) };
}

/** Whether the absolute, folded `path` matches. */
export function matchPathGlob(glob: PathGlob, path: string): boolean {
  const parts = path.split("/").filter((p) => p !== "");
  return wildMatch(
    glob.segments,
    parts,
    (s) => s.kind === "globstar",
    (s, part) => s.kind === "segment" && wildMatch(s.chars, [...part], (c) => c.kind === "star", matchChar),
  );
}

/** Splits on unescaped `/` (an escaped one stays in its segment, as the character itself). */
function splitSegments(pattern: string): string[] {
  const out: string[] = [];
  let current = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === "\\" && i + 1 < pattern.length) {
      current += c + (pattern[++i] as string);
    } else if (c === "/") {
      if (current !== "") out.push(current);
      current = "";
    } else {
      current += c;
    }
  }
  if (current !== "") out.push(current);
  return out;
}

function compileSegment(text: string): Segment {
  if (text === "**") return { kind: "globstar" };
  const chars: Char[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "\\" && i + 1 < text.length) chars.push({ kind: "char", c: text[++i] as string });
    else if (c === "?") chars.push({ kind: "one" });
    else if (c === "*") {
      if (chars.at(-1)?.kind !== "star") chars.push({ kind: "star" });
    } else if (c === "[") {
      const set = compileSet(text, i);
      if (set === undefined) chars.push({ kind: "char", c });
      else {
        chars.push(set.char);
        i = set.end;
      }
    } else chars.push({ kind: "char", c });
  }
  return { kind: "segment", chars };
}

/** A `[...]` set starting at `start`, and the index of its `]`; undefined when it does not close. */
function compileSet(text: string, start: number): { char: Char; end: number } | undefined {
  let i = start + 1;
  const negated = text[i] === "!" || text[i] === "^";
  if (negated) i++;
  const ranges: [string, string][] = [];
  for (let first = true; i < text.length; first = false) {
    let c = text[i] as string;
    if (c === "]" && !first) return { char: { kind: "set", negated, ranges }, end: i };
    if (c === "\\" && i + 1 < text.length) c = text[++i] as string;
    if (text[i + 1] === "-" && i + 2 < text.length && text[i + 2] !== "]") {
      let to = text[i + 2] as string;
      i += 2;
      if (to === "\\" && i + 1 < text.length) to = text[++i] as string;
      ranges.push([c, to]);
    } else {
      ranges.push([c, c]);
    }
    i++;
  }
  return undefined;
}

function matchChar(pattern: Char, c: string): boolean {
  switch (pattern.kind) {
    case "char":
      return pattern.c === c;
    case "one":
      return true;
    case "star":
      return false;
    case "set":
      return pattern.ranges.some(([from, to]) => c >= from && c <= to) !== pattern.negated;
  }
}

/**
 * Wildcard matching of `items` by `pattern`, where a star element matches any run of items:
 * the classic greedy match with one backtracking point (the last star seen).
 */
function wildMatch<P, T>(pattern: readonly P[], items: readonly T[], isStar: (p: P) => boolean, matchOne: (p: P, item: T) => boolean): boolean {
  let p = 0;
  let t = 0;
  let starAt = -1;
  let resumeAt = 0;
  while (t < items.length) {
    const current = pattern[p];
    if (current !== undefined && isStar(current)) {
      starAt = p++;
      resumeAt = t;
    } else if (current !== undefined && matchOne(current, items[t] as T)) {
      p++;
      t++;
    } else if (starAt !== -1) {
      p = starAt + 1;
      t = ++resumeAt;
    } else {
      return false;
    }
  }
  while (p < pattern.length && isStar(pattern[p] as P)) p++;
  return p === pattern.length;
}
