// Characters that change what text looks like without being seen: bidi controls (which reorder
// the text after them, so `rm -rf /⁮txt.exe` can read as something else) and zero-width or
// otherwise invisible format characters (which hide words, split look-alike names or smuggle
// text). Wherever a person decides from text (a permission prompt, a tool card, a title), the
// window and the command line show these as markers instead of applying them. Pure.

export type HiddenKind = "direction" | "invisible";

/** A run of plain text, or a run of consecutive hidden characters. */
export type TextPiece =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "hidden"; readonly chars: string; readonly hiddenKind: HiddenKind };

// Bidi formatting characters (UAX #9): embeddings, overrides, isolates and the implicit marks.
const Direction = "\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069";
// Format characters with no glyph: soft hyphen, grapheme joiner, Hangul fillers, Khmer inherent
// vowels, Mongolian selectors, zero-width space/joiners, word joiner and invisible operators,
// deprecated format controls, BOM, interlinear annotation, musical format marks, tag characters.
const Invisible =
  "\\u00AD\\u034F\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F\\u200B-\\u200D\\u2060-\\u2064\\u206A-\\u206F" +
  "\\u3164\\uFEFF\\uFFA0\\uFFF9-\\uFFFB\\u{1D173}-\\u{1D17A}\\u{E0000}-\\u{E007F}";
const Selector = "\\uFE00-\\uFE0F\\u{E0100}-\\u{E01EF}";
// Scripts that need ZWNJ/ZWJ between their letters to spell words correctly (Persian, Hindi, …).
const JoiningScripts = ["Arabic", "Syriac", "Devanagari", "Bengali", "Gurmukhi", "Gujarati", "Oriya", "Tamil", "Telugu", "Kannada", "Malayalam", "Sinhala", "Mongolian"]
  .map((s) => `\\p{Script=${s}}`)
  .join("|");
const JoiningLetter = `(?:(?:${JoiningScripts})\\p{M}*)`;
const Pictograph = "(?:\\p{Extended_Pictographic}[\\uFE0F\\u{1F3FB}-\\u{1F3FF}]?)";

/**
 * Legitimate uses kept as they are: ZWJ inside an emoji sequence (👨‍👩‍👧), ZWNJ/ZWJ between
 * letters of a script that needs them, and a single variation selector after a character (❤️).
 * A run of selectors is flagged: that is how bytes get smuggled into "one emoji".
 */
const Allowed =
  `(?<=${Pictograph})\\u200D(?=\\p{Extended_Pictographic})` +
  `|(?<=${JoiningLetter})[\\u200C\\u200D](?=${JoiningScripts})` +
  `|(?<![${Selector}])(?<!^)[${Selector}]`;

const Candidate = new RegExp(`[${Direction}${Invisible}${Selector}]`, "u");

/** A pattern source for one character that may be hidden (before the legitimate uses are excepted). */
export const HiddenCandidateClass = `[${Direction}${Invisible}${Selector}]`;
const HiddenSource = `(?:(?!${Allowed})[${Direction}${Invisible}${Selector}])+`;
const HiddenRun = new RegExp(HiddenSource, "gu");
const AnyHidden = new RegExp(HiddenSource, "u");
const DirectionChar = new RegExp(`[${Direction}]`, "u");

/** True when the text has any character the window and terminal show as a marker. */
export function hasHidden(text: string): boolean {
  // The cheap class test first: the full pattern's look-arounds are only worth running on a hit.
  if (!Candidate.test(text)) return false;
  return AnyHidden.test(text);
}

/** Which kinds of hidden characters the text holds. */
export function hiddenKinds(text: string): { readonly direction: boolean; readonly invisible: boolean } {
  let direction = false;
  let invisible = false;
  for (const piece of splitHidden(text)) {
    if (piece.kind !== "hidden") continue;
    for (const c of piece.chars) {
      if (DirectionChar.test(c)) direction = true;
      else invisible = true;
    }
  }
  return { direction, invisible };
}

/** The text cut into plain runs and hidden runs, in logical order; joined, they give the text back. */
export function splitHidden(text: string): readonly TextPiece[] {
  if (!Candidate.test(text)) return [{ kind: "text", text }];
  const pieces: TextPiece[] = [];
  let at = 0;
  HiddenRun.lastIndex = 0; // matchAll starts where the shared pattern last stopped
  for (const match of text.matchAll(HiddenRun)) {
    const start = match.index;
    if (start > at) pieces.push({ kind: "text", text: text.slice(at, start) });
    pieces.push({ kind: "hidden", chars: match[0], hiddenKind: DirectionChar.test(match[0]) ? "direction" : "invisible" });
    at = start + match[0].length;
  }
  if (at < text.length || pieces.length === 0) pieces.push({ kind: "text", text: text.slice(at) });
  return pieces;
}

/** `U+202E`: a code point as people look it up. */
export function codePointLabel(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** The code points of a hidden run, short: `U+202E`, `U+200B ×12`, `U+E0069 U+E0067 … (40 characters)`. */
export function hiddenRunLabel(chars: string): string {
  const points = [...chars];
  const labels = points.map(codePointLabel);
  if (points.length === 1) return labels[0]!;
  if (new Set(points).size === 1) return `${labels[0]!} ×${points.length}`;
  if (points.length <= 4) return labels.join(" ");
  return `${labels.slice(0, 3).join(" ")} … (${points.length} characters)`;
}

const Names: Readonly<Record<string, string>> = {
  "U+061C": "arabic letter mark",
  "U+200E": "left-to-right mark",
  "U+200F": "right-to-left mark",
  "U+202A": "left-to-right embedding",
  "U+202B": "right-to-left embedding",
  "U+202C": "pop directional formatting",
  "U+202D": "left-to-right override",
  "U+202E": "right-to-left override",
  "U+2066": "left-to-right isolate",
  "U+2067": "right-to-left isolate",
  "U+2068": "first strong isolate",
  "U+2069": "pop directional isolate",
  "U+00AD": "soft hyphen",
  "U+200B": "zero-width space",
  "U+200C": "zero-width non-joiner",
  "U+200D": "zero-width joiner",
  "U+2060": "word joiner",
  "U+FEFF": "zero-width no-break space (byte order mark)",
};

/** What a hidden run is and why it is shown: for a marker's tooltip. */
export function describeHiddenRun(chars: string): string {
  const distinct = [...new Set(chars)].slice(0, 6);
  const names = distinct.map((c) => {
    const label = codePointLabel(c);
    const cp = c.codePointAt(0) ?? 0;
    const name = Names[label] ?? (cp >= 0xe0000 && cp <= 0xe007f ? "tag character" : cp >= 0xfe00 ? "variation selector" : "invisible format character");
    return `${label} ${name}`;
  });
  const why = DirectionChar.test(chars)
    ? "Hidden direction character: it would reorder the text after it, so it is shown here instead."
    : "Invisible character: it has no width, so it is shown here instead.";
  return `${why} ${names.join(", ")}${new Set(chars).size > distinct.length ? ", …" : ""}`;
}

/** The text as one string with every hidden run as `⟨U+202E⟩`: for tooltips and other plain-text spots. */
export function markHidden(text: string): string {
  if (!hasHidden(text)) return text;
  return splitHidden(text)
    .map((p) => (p.kind === "text" ? p.text : `⟨${hiddenRunLabel(p.chars)}⟩`))
    .join("");
}
