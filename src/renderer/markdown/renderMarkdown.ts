// Markdown to HTML for assistant text and summaries. Safe by construction: markdown-it escapes
// raw HTML (`html: false`), links pass an allowlist of schemes, and code is highlighted by
// highlight.js, which escapes its input. Pure: no DOM, so it is unit-tested in Node.

import MarkdownIt from "markdown-it";
import hljs from "highlight.js/lib/common";

const AllowedSchemes = /^(https?:|mailto:)/i;

/** True for links Baton will open: absolute http(s) and mailto only. */
export function isAllowedLink(url: string): boolean {
  return AllowedSchemes.test(url.trim());
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function highlight(code: string, lang: string): string {
  try {
    if (lang !== "" && hljs.getLanguage(lang) !== undefined) {
      return hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
    }
  } catch {
    // Fall through to plain escaped text.
  }
  return escapeHtml(code);
}

const md = new MarkdownIt({ html: false, linkify: true, breaks: false, highlight });
md.validateLink = isAllowedLink;

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
  return isAllowedLink(src) ? `<a href="${escapeHtml(src)}" rel="noopener noreferrer" target="_blank">${alt || "image"}</a>` : alt;
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
