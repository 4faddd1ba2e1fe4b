// The exported page's only style, inline: system fonts (nothing is fetched), light or dark as the
// reader's system prefers. The file stands alone, so its colours are its own, not the window's
// theme variables.

export const ExportCss = `
:root { color-scheme: light dark; --bg: #ffffff; --text: #1f2328; --dim: #57606a; --line: #d0d7de; --panel: #f6f8fa;
  --prompt: #ddf4ff; --error: #cf222e; --warning: #9a6700; --ok: #1a7f37; --mark: #8250df; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0d1117; --text: #e6edf3; --dim: #9198a1; --line: #3d444d; --panel: #151b23;
    --prompt: #12263a; --error: #ff7b72; --warning: #d29922; --ok: #3fb950; --mark: #d2a8ff; }
}
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 60rem; padding: 1.5rem; background: var(--bg); color: var(--text);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
h1 { font-size: 1.5rem; margin: 0 0 0.5rem; overflow-wrap: anywhere; }
h2 { font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.05em; color: var(--dim); margin: 0 0 0.25rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.1rem 1rem; margin: 0 0 0.5rem; color: var(--dim); }
dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.left-out { color: var(--dim); font-style: italic; }
main > * + *, .agent-body > * + * { margin-top: 0.75rem; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; }
.md { overflow-wrap: anywhere; } .md > :first-child { margin-top: 0; } .md > :last-child { margin-bottom: 0; }
.md table { border-collapse: collapse; } .md th, .md td { border: 1px solid var(--line); padding: 0.2rem 0.5rem; }
.md blockquote { margin: 0.5rem 0; padding-left: 0.75rem; border-left: 3px solid var(--line); color: var(--dim); }
.md a { color: var(--mark); }
.hljs-keyword, .hljs-built_in, .hljs-type { color: var(--error); } .hljs-string, .hljs-regexp { color: var(--ok); }
.hljs-comment, .hljs-quote { color: var(--dim); font-style: italic; } .hljs-number, .hljs-literal, .hljs-title { color: var(--mark); }
.prompt { background: var(--prompt); border-radius: 6px; padding: 0.5rem 0.75rem; }
.prompt .rewound { margin: 0.25rem 0 0; color: var(--dim); font-size: 0.9em; }
.thinking { color: var(--dim); font-style: italic; }
.notice { border-left: 3px solid var(--dim); padding: 0.25rem 0.75rem; }
.notice.error { border-color: var(--error); color: var(--error); }
.notice.warning { border-color: var(--warning); }
.tool { border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem 0.75rem; background: var(--panel); }
.tool-head { overflow-wrap: anywhere; }
.tool-head .status { color: var(--dim); }
.st-completed .mark { color: var(--ok); } .st-failed .mark, .st-denied .mark { color: var(--error); }
pre { margin: 0.5rem 0 0; padding: 0.5rem; overflow-x: auto; border-radius: 4px; background: var(--bg); border: 1px solid var(--line);
  font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: pre-wrap; overflow-wrap: anywhere; }
code { font: 0.9em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.output.error pre { border-color: var(--error); }
details > summary { cursor: pointer; }
details.agent { border-left: 3px solid var(--mark); padding: 0.25rem 0 0.25rem 0.75rem; }
details.agent > summary { font-weight: 600; overflow-wrap: anywhere; }
.agent-body { padding-top: 0.5rem; }
.hidden-char { color: var(--error); border: 1px dashed var(--error); border-radius: 3px; padding: 0 2px; font-size: 0.85em; }
footer { margin-top: 2rem; color: var(--dim); font-size: 0.8rem; }
`;
