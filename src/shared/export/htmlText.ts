// Transcript text written into an exported HTML file: always escaped (it is never markup, and in
// an attribute it cannot end the quotes), with control, bidi and invisible characters drawn as a
// marker naming them, as the window draws them, instead of acting on the text around them.

import { codePointLabel, describeHiddenRun, hiddenRunLabel, splitHidden } from "../hiddenCharacters.js";

const Special = /[&<>"']/g;

/** `text` escaped for HTML content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(Special, (c) => `&#${c.charCodeAt(0)};`);
}

// C0 controls but tab and newline, DEL, C1 controls: what terminalText.ts neutralises too.
const Controls = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]+/g;

/** `text` as HTML content: escaped, hidden characters and controls as visible markers. */
export function visibleHtml(text: string): string {
  const plain = text.replace(/\r\n/g, "\n");
  let out = "";
  for (const piece of splitHidden(plain)) {
    out +=
      piece.kind === "text"
        ? escapeControls(piece.text)
        : `<span class="hidden-char" title="${escapeHtml(describeHiddenRun(piece.chars))}">⟨${escapeHtml(hiddenRunLabel(piece.chars))}⟩</span>`;
  }
  return out;
}

function escapeControls(text: string): string {
  let out = "";
  let at = 0;
  Controls.lastIndex = 0;
  for (const m of text.matchAll(Controls)) {
    out += escapeHtml(text.slice(at, m.index));
    const labels = [...m[0]].map(codePointLabel).join(" ");
    out += `<span class="hidden-char" title="Control character">⟨${labels}⟩</span>`;
    at = m.index + m[0].length;
  }
  return out + escapeHtml(text.slice(at));
}

/**
 * `text` with each run of control characters written as its marker's words (`⟨U+001B⟩`), for text
 * that goes through Markdown: the marker is then text like any other, escaped where it lands, even
 * inside an attribute (a link's title), where a marker element could not go.
 */
export function controlsAsText(text: string): string {
  return text.replace(Controls, (run) => `⟨${[...run].map(codePointLabel).join(" ")}⟩`);
}
