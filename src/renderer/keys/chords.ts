// Key chords as the command registry writes them ("Mod+K", "Mod+1", "?", "Escape"): parsed,
// matched against a key event and written for people ("Ctrl+K", "⌘K"). "Mod" is Cmd on a Mac and
// Ctrl elsewhere. Pure: the platform is an argument.

export interface Chord {
  /** A letter in lower case, a digit, a named key ("Escape", "F1") or a printable character ("?"). */
  readonly key: string;
  readonly mod: boolean;
  readonly shift: boolean;
  readonly alt: boolean;
}

/** What a chord reads of a keyboard event. */
export interface KeyLike {
  readonly key: string;
  readonly code: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
  readonly shiftKey: boolean;
}

/** "Mod+Shift+K" → a Chord; throws on a chord with no key, so a bad registration fails where it is made. */
export function parseChord(text: string): Chord {
  // The last "+" of "Mod++" is the key itself.
  const parts = text.endsWith("++") ? [...text.slice(0, -2).split("+"), "+"] : text.split("+");
  const key = parts.pop() ?? "";
  const mods = new Set(parts.map((p) => p.toLowerCase()));
  const unknown = [...mods].filter((m) => m !== "mod" && m !== "shift" && m !== "alt");
  if (key === "" || unknown.length > 0) throw new Error(`Not a key chord: ${JSON.stringify(text)}`);
  return { key: /^[A-Za-z]$/.test(key) ? key.toLowerCase() : key, mod: mods.has("mod"), shift: mods.has("shift"), alt: mods.has("alt") };
}

/** A chord without Mod or Alt types into a text field: it only acts outside one. */
export function typesText(chord: Chord): boolean {
  return !chord.mod && !chord.alt;
}

export function chordMatches(chord: Chord, e: KeyLike, mac: boolean): boolean {
  const mod = mac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey;
  const none = !e.ctrlKey && !e.metaKey;
  if ((chord.mod ? !mod : !none) || chord.alt !== e.altKey) return false;
  if (/^[a-z]$/.test(chord.key)) {
    // By the key's character, or by its place for layouts whose letters are not Latin.
    const latin = /^[a-z]$/i.test(e.key);
    return e.shiftKey === chord.shift && (latin ? e.key.toLowerCase() === chord.key : e.code === `Key${chord.key.toUpperCase()}`);
  }
  if (/^[0-9]$/.test(chord.key)) {
    // By place too: some layouts (AZERTY) type a digit with Shift only.
    return e.key === chord.key || e.code === `Digit${chord.key}` || e.code === `Numpad${chord.key}`;
  }
  if (chord.key.length > 1) return e.key === chord.key && e.shiftKey === chord.shift;
  // A printable character ("?") is whatever key and Shift make it on the person's layout.
  return e.key === chord.key;
}

const MacSymbols: Readonly<Record<string, string>> = { mod: "⌘", shift: "⇧", alt: "⌥" };
const KeyNames: Readonly<Record<string, string>> = { Escape: "Esc", ArrowUp: "↑", ArrowDown: "↓", ArrowLeft: "←", ArrowRight: "→", " ": "Space" };

/** How the chord is written for this platform: "Ctrl+Shift+K" elsewhere, "⇧⌘K" on a Mac. */
export function chordLabel(chord: Chord, mac: boolean): string {
  const key = KeyNames[chord.key] ?? (chord.key.length === 1 ? chord.key.toUpperCase() : chord.key);
  if (mac) return `${chord.alt ? MacSymbols["alt"] : ""}${chord.shift ? MacSymbols["shift"] : ""}${chord.mod ? MacSymbols["mod"] : ""}${key}`;
  return [...(chord.mod ? ["Ctrl"] : []), ...(chord.alt ? ["Alt"] : []), ...(chord.shift ? ["Shift"] : []), key].join("+");
}

/** Whether this window runs on a Mac, where Mod is Cmd. */
export function onMac(): boolean {
  const platform = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData?.platform ?? navigator.platform;
  return /mac/i.test(platform);
}
