// Markdown to HTML for assistant text and summaries, in the window and in an exported HTML file.
// Safe by construction: markdown-it escapes raw HTML (`html: false`), links pass the shared link
// policy (https: and mailto: only, as the desktop shell), images become links (nothing is
// fetched), and code is highlighted by highlight.js, which escapes its input. Hidden direction and
// zero-width characters in text and code are drawn as markers. Pure: no DOM, so it is unit-tested
// in Node.

import MarkdownIt from "markdown-it";
import hljs from "highlight.js/lib/common";
import { describeHiddenRun, hasHidden, hiddenRunLabel, splitHidden } from "../hiddenCharacters.js";
import { isAllowedExternalUrl } from "../linkPolicy.js";

/** True for links Baton will open: the shared policy (absolute https: and mailto: only). */
export function isAllowedLink(url: string): boolean {
  return isAllowedExternalUrl(url);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Escaped HTML (text content only, never an attribute value) with each hidden run replaced by the
 * same marker VisibleText draws. Hidden characters are not HTML syntax, so replacing them inside
 * escaped text or highlight.js markup cannot open a tag.
 */
function markHiddenHtml(html: string): string {
  if (!hasHidden(html)) return html;
  return splitHidden(html)
    .map((p) =>
      p.kind === "text"
        ? p.text
        : `<span class="hidden-char ${p.hiddenKind}" data-hidden="${p.hiddenKind}" title="${escapeHtml(describeHiddenRun(p.chars))}">⟨${hiddenRunLabel(p.chars)}⟩</span>`,
    )
    .join("");
}

function highlight(code: string, lang: string): string {
  try {
    if (lang !== "" && hljs.getLanguage(lang) !== undefined) {
      return markHiddenHtml(hljs.highlight(code, { language: lang, ignoreIllegals: true }).value);
    }
  } catch {
    // Fall through to plain escaped text.
  }
  return markHiddenHtml(escapeHtml(code));
}

const md = new MarkdownIt({ html: false, linkify: true, breaks: false, highlight });
md.validateLink = isAllowedLink;
// markdown-it's own text rules, plus the hidden-character markers.
const escapeText = md.utils.escapeHtml;
md.renderer.rules.text = (tokens, idx) => markHiddenHtml(escapeText(tokens[idx]!.content));
md.renderer.rules.code_inline = (tokens, idx, _options, _env, self) =>
  `<code${self.renderAttrs(tokens[idx]!)}>${markHiddenHtml(escapeText(tokens[idx]!.content))}</code>`;
md.renderer.rules.code_block = (tokens, idx, _options, _env, self) =>
  `<pre${self.renderAttrs(tokens[idx]!)}><code>${markHiddenHtml(escapeText(tokens[idx]!.content))}</code></pre>\n`;

// Links open outside Baton (the click handler routes them); mark them so.
const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx]!;
  token.attrSet("rel", "noopener noreferrer");
  token.attrSet("target", "_blank");
  return defaultLinkOpen(tokens, idx, options, env, self);
};

// Images would fetch remote content: show them as links instead.
md.renderer.rules.image = (tokens, idx) => {
  const token = tokens[idx]!;
  const src = token.attrGet("src") ?? "";
  const alt = escapeHtml(token.content);
  const label = markHiddenHtml(alt) || "image";
  return isAllowedLink(src) ? `<a href="${escapeHtml(src)}" rel="noopener noreferrer" target="_blank">${label}</a>` : markHiddenHtml(alt);
};

const cache = new Map<string, string>();
const CacheLimit = 500;

export function renderMarkdown(text: string): string {
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  const html = md.render(text);
  if (cache.size >= CacheLimit) cache.delete(cache.keys().next().value as string);
  cache.set(text, html);
  return html;
}
