// Export of a session as Markdown or one HTML file (issue 34), on a hand-made transcript holding
// what a hostile history could: markup and script in every text, an answer that leaves a code
// fence open or closes a section, hidden direction characters, terminal escapes, paths under the
// person's home. Nothing from the transcript becomes markup or runs; each subagent is a section at
// its depth; the choices leave out what they say; the home folder is `~`.
import { describe, expect, it } from "vitest";
import { exportSession, exportFileName } from "../../src/shared/export/exportSession.js";
import { tildeHome } from "../../src/shared/export/homePath.js";
import type { ExportChoices } from "../../src/shared/export/exportTypes.js";
import { terminalText } from "../../src/shared/terminalText.js";
import type { Block, SubagentRecord, ToolCallRecord, Transcript } from "../../src/shared/transcript.js";

const Home = "/home/alice";
const Evil = {
  script: "<script>window.pwned=1</script>",
  img: '<img src="https://example.com/x.png" onerror="alert(1)">',
  attr: '"><svg onload=alert(1)>',
  closeSection: "</details></div></section>",
  style: "</style><style>body{background:url(https://example.com/leak)}</style>",
  rlo: "file\u202Etxt.exe",
  esc: "\u001b]52;c;aGk=\u0007",
};
const Hostile = Object.values(Evil).join(" ");

let n = 0;
const block = (b: Partial<Block> & Pick<Block, "kind">): Block => ({ id: `b${++n}`, ...b });
const call = (name: string, input: ToolCallRecord["input"], result?: string, extra: Partial<ToolCallRecord> = {}): ToolCallRecord => ({
  toolUseId: `toolu_${++n}`,
  name,
  input,
  status: "completed",
  ...(result !== undefined ? { result: { text: result, isError: false } } : {}),
  ...extra,
});
const agent = (description: string, blocks: readonly Block[]): Block => {
  const record: SubagentRecord = { toolUseId: `toolu_${++n}`, taskId: `a${n}`, subagentType: "general-purpose", description, prompt: `${description}: ${Hostile}`, background: false, status: "completed", blocks, droppedBlockCount: 0, toolUses: 1 };
  return block({ kind: "tool", call: call("Agent", { description, prompt: record.prompt, subagent_type: "general-purpose" }, undefined, { subagent: record }) });
};

function transcript(): Transcript {
  return {
    sessionId: "1a2b3c4d-1111-4222-8333-444444444444",
    cwd: `${Home}/code/app`,
    model: "claude-test",
    status: "idle",
    blocks: [
      block({ kind: "user", text: `look at ${Home}/code/app/src/a.ts and ${Home}2/other ${Hostile}`, timestamp: "2026-11-30T02:00:00.000Z" }),
      block({ kind: "thinking", text: "marmoset thoughts" }),
      block({ kind: "text", text: `Here:\n\`\`\`html\n${Evil.script}\n` }),
      block({ kind: "text", text: `Closing ${Evil.closeSection} and \`<b>kept in a span</b>\` ${Evil.rlo}` }),
      block({ kind: "tool", call: call("Bash", { command: `cat ${Home}/notes.txt # ${Evil.script}` }, `output zephyr ${Evil.img} ${Evil.esc} at ${Home}/notes.txt`) }),
      block({ kind: "tool", call: call("Read", { file_path: `${Home}/code/app/${Evil.attr}` }, "read body") }),
      block({ kind: "tool", call: { ...call("Write", { file_path: `${Home}/x.ts`, content: "a\n" }), status: "failed", result: { text: "<tool_use_error>File has not been read yet</tool_use_error>", isError: true } } }),
      agent("Top agent", [
        block({ kind: "text", text: `top says ${Hostile}` }),
        agent("Middle agent", [agent("Deepest agent", [block({ kind: "tool", call: call("Bash", { command: "echo deep" }, "deep output quasar") })])]),
      ]),
      block({ kind: "notice", level: "error", text: `API Error: 500 ${Evil.script}` }),
    ],
  };
}

const all: ExportChoices = { format: "html", toolOutputs: true, thinking: true };
const html = (choices: Partial<ExportChoices> = {}) => exportSession(transcript(), { ...all, ...choices, format: "html" }, { title: `Fix ${Evil.script}`, home: Home }).text;
const md = (choices: Partial<ExportChoices> = {}) => exportSession(transcript(), { ...all, ...choices, format: "md" }, { title: `Fix ${Evil.script}`, home: Home }).text;

/** Every tag an HTML text opens or closes. */
const tagsOf = (text: string): Set<string> => new Set([...text.matchAll(/<\/?([A-Za-z][A-Za-z0-9-]*)/g)].map((m) => m[1]!.toLowerCase()));
/** A Markdown text without its fenced code blocks and code spans (whose text is shown as written). */
function outsideCode(markdown: string): string {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split("\n")) {
    const m = /^(`{3,})/.exec(line);
    if (fence === undefined && m !== null) fence = m[1];
    else if (fence !== undefined && line === fence) fence = undefined;
    else if (fence === undefined) out.push(line.replace(/(`+).*?\1/g, ""));
  }
  return out.join("\n");
}

describe("HTML export", () => {
  it("is one file that loads and runs nothing: only Baton's own tags, a CSP that forbids the rest", () => {
    const page = html();
    expect([...tagsOf(page)].sort()).toEqual(["a", "b", "body", "code", "dd", "details", "div", "dl", "dt", "footer", "h1", "h2", "head", "header", "html", "main", "meta", "p", "pre", "section", "span", "style", "summary", "title"]);
    // The only links are an answer's https addresses, linked as the window links them (followed only
    // when clicked), never fetched as an image or a style.
    expect([...page.matchAll(/<a [^>]*>/g)].map((m) => m[0])).toEqual([
      '<a href="https://example.com/x.png" rel="noopener noreferrer" target="_blank">',
      '<a href="https://example.com/leak" rel="noopener noreferrer" target="_blank">',
    ]);
    expect(page).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'`);
    expect(page.match(/<style>/g)).toHaveLength(1);
    expect(page).not.toMatch(/https?:\/\/(?!example\.com)/);
    // The transcript's attempts are there, as text.
    expect(page).toContain("&#60;script&#62;window.pwned=1&#60;/script&#62;");
    expect(page).toContain("&#60;img src=&#34;https://example.com/x.png&#34; onerror=&#34;alert(1)&#34;&#62;");
  });

  it("renders answers and reports as the window renders their Markdown, raw HTML still text", () => {
    const answer = (text: string): string =>
      exportSession({ sessionId: "s", blocks: [block({ kind: "text", text })] } as unknown as Transcript, all, { title: "t", home: Home }).text;
    const page = answer("**bold** and `code`\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n![pic](https://example.com/p.png) [ok](https://example.com) [bad](javascript:alert(1)) <i>raw</i> \u001b[31m");
    expect(page).toContain("<strong>bold</strong> and <code>code</code>");
    expect(page).toContain("<table>");
    expect(page).not.toContain("<img");
    expect(page).toContain('<a href="https://example.com/p.png" rel="noopener noreferrer" target="_blank">pic</a>');
    expect(page).toContain('<a href="https://example.com" rel="noopener noreferrer" target="_blank">ok</a>');
    expect(page).not.toMatch(/href="javascript/i);
    expect(page).toContain("[bad](javascript:alert(1))");
    expect(page).toContain("&lt;i&gt;raw&lt;/i&gt;");
    expect(page).toContain("⟨U+001B⟩[31m");
    expect(terminalText(page)).toBe(page);
  });

  it("draws hidden direction characters and terminal escapes as markers, and nothing raw", () => {
    const page = html();
    expect(page).toContain("⟨U+202E⟩");
    expect(page).toContain("⟨U+001B⟩");
    expect(terminalText(page)).toBe(page);
  });

  it("has a folded section for each subagent at its depth, holding its steps", () => {
    const page = html();
    for (const [depth, name] of [[1, "Top agent"], [2, "Middle agent"], [3, "Deepest agent"]] as const) {
      expect(page).toMatch(new RegExp(`<details class="agent depth-${depth}" data-depth="${depth}"><summary>✓ Subagent general-purpose: ${name} \\(completed, 1 tool use\\)</summary>`));
    }
    expect(page.indexOf("Deepest agent")).toBeLessThan(page.indexOf("deep output quasar"));
    expect(page.match(/<details class="agent/g)).toHaveLength(3);
  });

  it("writes the home folder as ~ in paths, commands, inputs and outputs, and only the whole folder", () => {
    const page = html();
    expect(page).not.toContain(`${Home}/`);
    expect(page).toContain("<code>~/code/app</code>");
    expect(page).toContain("cat ~/notes.txt");
    expect(page).toContain("at ~/notes.txt");
    expect(page).toContain("~/code/app/&#34;&#62;&#60;svg");
    expect(page).toContain(`${Home}2/other`);
  });

  it("shows a tool error without the CLI's tags", () => {
    expect(html()).toContain('<details class="output error"><summary>Error</summary><pre>File has not been read yet</pre>');
  });

  it("leaves out tool outputs or thinking when asked, and says so", () => {
    const both = html();
    expect(both).toContain("zephyr");
    expect(both).toContain("marmoset");
    const noOutputs = html({ toolOutputs: false });
    expect(noOutputs).not.toContain("zephyr");
    expect(noOutputs).not.toContain("quasar");
    expect(noOutputs).toContain("cat ~/notes.txt");
    expect(noOutputs).toContain("Left out of this export: tool outputs.");
    const noThinking = html({ thinking: false });
    expect(noThinking).not.toContain("marmoset");
    expect(noThinking).toContain("zephyr");
    expect(html({ thinking: false, toolOutputs: false })).toContain("Left out of this export: tool outputs and thinking.");
  });
});

describe("Markdown export", () => {
  it("keeps the transcript's HTML as text outside code, and its own sections balanced", () => {
    const text = md();
    const prose = outsideCode(text);
    expect([...tagsOf(prose)].sort()).toEqual(["details", "summary"]);
    // Three subagents and four tool outputs, each opened and closed on lines of their own.
    expect(prose.match(/^<details>$/gm)).toHaveLength(3);
    expect(prose.match(/^<details><summary>(Output|Error)<\/summary>$/gm)).toHaveLength(4);
    expect(prose.match(/^<\/details>$/gm)).toHaveLength(7);
    expect(prose).toContain("Closing &lt;/details>&lt;/div>&lt;/section>");
    // Inside a code span the text is shown as written.
    expect(text).toContain("`<b>kept in a span</b>`");
    expect(terminalText(text)).toBe(text);
    expect(text).toContain("⟨U+202E⟩");
    expect(text).toContain("⟨U+001B⟩");
  });

  it("closes a code fence an answer left open, before the next section", () => {
    const text = md();
    const open = text.indexOf("```html");
    const close = text.indexOf("\n```\n", open);
    expect(open).toBeGreaterThan(-1);
    expect(close).toBeGreaterThan(open);
    expect(close).toBeLessThan(text.indexOf("Closing"));
  });

  it("fences tool inputs and outputs whatever backticks they hold", () => {
    const t = transcript();
    const withTicks: Transcript = { ...t, blocks: [block({ kind: "tool", call: call("Bash", { command: "echo ```` done" }, "````\nfour") })] };
    const text = exportSession(withTicks, { ...all, format: "md" }, { title: "x" }).text;
    expect(text).toContain("`````sh\necho ```` done\n`````");
    expect(text).toContain("`````text\n````\nfour\n`````");
  });

  it("nests each subagent's section in its caller's, with the home folder as ~ and the choices kept", () => {
    const text = md({ thinking: false });
    const [top, middle, deepest] = ["Top agent", "Middle agent", "Deepest agent"].map((d) => text.indexOf(`Subagent general-purpose: ${d}`));
    expect(top).toBeLessThan(middle!);
    expect(middle).toBeLessThan(deepest!);
    expect(text).not.toContain(`${Home}/`);
    expect(text).toContain("- **Folder:** `~/code/app`");
    expect(text).not.toContain("marmoset");
    expect(text).toContain("*Left out of this export: thinking.*");
  });
});

describe("a prompt the files were rewound to", () => {
  it("carries the mark in both formats, under that prompt only", () => {
    const t = transcript();
    const marked: Transcript = {
      ...t,
      blocks: [block({ kind: "user", text: "first" }), block({ kind: "user", text: "second", rewound: { files: 2, at: "2026-12-06T10:00:00.000Z" } }), block({ kind: "text", text: "done" })],
    };
    const page = exportSession(marked, all, { title: "x" }).text;
    expect(page.match(/<p class="rewound" role="note">Files rewound to here: 2 files<\/p>/g)).toHaveLength(1);
    expect(page.indexOf('class="rewound"')).toBeGreaterThan(page.indexOf(">second<"));
    const text = exportSession(marked, { ...all, format: "md" }, { title: "x" }).text;
    expect(text).toContain("### You\n\n> second\n>\n> *Files rewound to here: 2 files*");
    expect(text.match(/Files rewound/g)).toHaveLength(1);
    expect(exportSession(t, all, { title: "x" }).text).not.toContain("Files rewound");
  });
});

describe("export file names and home paths", () => {
  it("names the file after the title and the short id", () => {
    expect(exportFileName("Fix the parser: <now>", "1A2B3C4D-1111", "html")).toBe("fix-the-parser-now-1a2b3c4d.html");
    expect(exportFileName("(untitled) 1a2b3c4d", "1a2b3c4d-1111", "md")).toBe("untitled-1a2b3c4d.md");
    expect(exportFileName("請先分析", "1a2b3c4d-1111", "md")).toBe("1a2b3c4d.md");
  });

  it("replaces the home folder only where it is a whole folder", () => {
    expect(tildeHome("cd /home/al && ls /home/al/x /home/alice /srv/home/al file:///home/al/y in /home/al.", "/home/al/")).toBe("cd ~ && ls ~/x /home/alice /srv/home/al file://~/y in ~.");
    expect(tildeHome("/x", "/")).toBe("/x");
    expect(tildeHome(String.raw`C:\Users\al\x C:\Users\alice`, String.raw`C:\Users\al`)).toBe(String.raw`~\x C:\Users\alice`);
  });
});
