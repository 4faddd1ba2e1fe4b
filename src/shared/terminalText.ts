// Text from history files and recordings on its way to a terminal. A title, cwd, prompt or tool
// output can carry escape sequences (colours are the harmless case; OSC 52 writes the clipboard,
// OSC 8 hides a link, CSI moves the cursor and rewrites what was printed, DCS talks to the
// terminal itself) and bidi controls (terminals that reorder text then show a lie). None may reach
// the terminal as bytes it acts on.
//
// Convention: every neutralised code point is printed as `<U+XXXX>` (hex, at least four digits):
// ESC is `<U+001B>`, so `\x1b]52;c;…\x07` prints as `<U+001B>]52;c;…<U+0007>`. Neutralising the
// introducer is enough: the rest of a CSI/OSC/DCS sequence is then plain text, and shows what was
// attempted. ASCII only, so it reads the same in every terminal and font, and it is what the
// window's markers say (`⟨U+202E⟩`). Kept as they are: `\n` and `\t`; `\r\n` becomes `\n` (a lone
// `\r` would move the cursor back over what was printed, so it is neutralised). Pure.

import { HiddenCandidateClass, splitHidden } from "./hiddenCharacters.js";

// C0 controls but tab and newline, DEL, and the C1 controls (U+009B is a one-character CSI).
const Control = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;
const Controls = /\r\n|[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

function escapePoint(char: string): string {
  return `<U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}>`;
}

/** The text, safe to print: controls, bidi controls and invisible characters as `<U+XXXX>`. */
export function terminalText(text: string): string {
  const controlsDone = Control.test(text) ? text.replace(Controls, (c) => (c === "\r\n" ? "\n" : escapePoint(c))) : text;
  const pieces = splitHidden(controlsDone);
  if (pieces.length === 1 && pieces[0]!.kind === "text") return controlsDone;
  return pieces.map((p) => (p.kind === "text" ? p.text : [...p.chars].map(escapePoint).join(""))).join("");
}

// Inside JSON these only occur in strings (JSON's own syntax is ASCII), so escaping them keeps
// the value and the document valid. JSON.stringify already escapes U+0000–U+001F. Every character
// terminalText could change is escaped, so the output passes terminalIO unchanged.
const JsonUnsafe = new RegExp(`[\\u007F-\\u009F]|${HiddenCandidateClass}`, "gu");

/**
 * `JSON.stringify` for a terminal: the same value, with DEL, C1 controls, bidi controls and
 * zero-width characters written as `\uXXXX` escapes so the bytes cannot act on the terminal
 * (JSON.stringify leaves them raw). Programs reading the JSON see exactly the same strings.
 */
export function terminalJson(value: unknown, space?: number): string {
  const json = JSON.stringify(value, null, space) ?? "null";
  return json.replace(JsonUnsafe, (s) => {
    let out = "";
    for (let i = 0; i < s.length; i++) out += `\\u${s.charCodeAt(i).toString(16).padStart(4, "0")}`;
    return out;
  });
}
