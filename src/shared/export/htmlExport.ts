// A session as one self-contained HTML file: no script at all (none is needed to read it: each
// subagent is a `<details>` section the browser folds, at every depth), its one style inline, and a
// Content-Security-Policy that lets the page load nothing and run nothing, so even a mistake in
// escaping could not fetch or run what a transcript holds. Answers and agents' reports are
// Markdown, rendered as the window renders them (shared/markdown: raw HTML escaped, links by the
// link policy, images as links); every other transcript text is escaped (htmlText.ts) and shown
// as written.

import type { ExportAgent, ExportDocument, ExportHead, ExportItem, ExportTool } from "./exportDocument.js";
import { agentSummary, headFacts, leftOutNote, toolMark } from "./exportWords.js";
import { ExportCss } from "./htmlStyle.js";
import { renderMarkdown } from "../markdown/renderMarkdown.js";
import { controlsAsText, escapeHtml, visibleHtml } from "./htmlText.js";

/** Nothing may load or run; inline style only. */
export const ExportCsp = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; font-src 'none'; base-uri 'none'; form-action 'none'";

export function exportHtml(doc: ExportDocument, generator = "Baton"): string {
  const h = doc.head;
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${ExportCsp}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="generator" content="${escapeHtml(generator)}">`,
    `<title>${visibleHtml(h.title)}</title>`,
    `<style>${ExportCss}</style>`,
    "</head>",
    "<body>",
    head(h),
    '<main class="transcript">',
    ...doc.items.map(item),
    "</main>",
    `<footer>Exported by ${escapeHtml(generator)}. Subagents are folded: open a section to read its steps.</footer>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

function head(h: ExportHead): string {
  const facts = headFacts(h)
    .map(([name, value]) => `<dt>${escapeHtml(name)}</dt><dd><code>${visibleHtml(value)}</code></dd>`)
    .join("");
  const note = leftOutNote(h);
  return `<header class="session"><h1>${visibleHtml(h.title)}</h1><dl class="facts">${facts}</dl>${note !== undefined ? `<p class="left-out">${escapeHtml(note)}</p>` : ""}</header>`;
}

function item(i: ExportItem): string {
  switch (i.kind) {
    case "prompt": {
      const images = i.images > 0 ? `<p class="images">(${i.images === 1 ? "1 image" : `${i.images} images`})</p>` : "";
      const rewound = i.rewound !== undefined ? `<p class="rewound" role="note">${escapeHtml(i.rewound)}</p>` : "";
      return `<section class="prompt" aria-label="Prompt"><h2>You</h2><div class="text">${visibleHtml(i.text)}</div>${images}${rewound}</section>`;
    }
    case "answer":
      return `<section class="answer" aria-label="Answer"><div class="md">${markdownHtml(i.text)}</div></section>`;
    case "thinking":
      return `<details class="thinking"><summary>Thinking</summary><div class="text">${visibleHtml(i.text)}</div></details>`;
    case "notice":
      return `<div class="notice ${escapeHtml(i.level)}" role="note"><span class="text">${visibleHtml(i.text)}</span></div>`;
    case "tool":
      return tool(i);
    case "agent":
      return agent(i);
  }
}

function tool(t: ExportTool): string {
  const permission = t.permission !== undefined ? ` <span class="status">(${escapeHtml(t.permission)})</span>` : "";
  const summary = t.summary !== "" ? ` <code>${visibleHtml(t.summary)}</code>` : "";
  const output =
    t.output === undefined
      ? ""
      : `<details class="output${t.output.isError ? " error" : ""}"><summary>${t.output.isError ? "Error" : "Output"}</summary><pre>${visibleHtml(t.output.text)}</pre></details>`;
  return [
    `<section class="tool st-${escapeHtml(t.status)}" aria-label="Tool ${escapeHtml(t.name)}">`,
    `<div class="tool-head"><span class="mark">${toolMark(t.status)}</span> <b>${visibleHtml(t.name)}</b>${summary} <span class="status">${escapeHtml(t.status)}</span>${permission}</div>`,
    `<pre class="input lang-${t.input.language}">${visibleHtml(t.input.text)}</pre>`,
    output,
    "</section>",
  ].join("");
}

function agent(a: ExportAgent): string {
  const body: string[] = [];
  if (a.prompt.trim() !== "") body.push(`<section class="agent-prompt"><h2>Prompt</h2><div class="text">${visibleHtml(a.prompt)}</div></section>`);
  if (a.stepsMissing > 0) body.push(`<p class="notice">${a.stepsMissing} earlier steps are not in this transcript.</p>`);
  body.push(...a.items.map(item));
  if (a.report !== undefined) body.push(`<section class="agent-report"><h2>Report</h2><div class="md">${markdownHtml(a.report)}</div></section>`);
  return `<details class="agent depth-${a.depth}" data-depth="${a.depth}"><summary>${visibleHtml(agentSummary(a))}</summary><div class="agent-body">${body.join("\n")}</div></details>`;
}

/** Markdown as the window draws it, its control characters as markers. */
function markdownHtml(text: string): string {
  return renderMarkdown(controlsAsText(text.replace(/\r\n/g, "\n")));
}
