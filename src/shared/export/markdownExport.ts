// A session as one Markdown file: a heading with its title and facts, then each prompt, answer,
// thinking block, notice and tool call in order, each subagent a collapsible `<details>` section
// holding its own steps, at every depth (GitHub and most viewers fold them). Transcript text goes
// through markdownText.ts, so it is shown as written and never becomes markup.

import type { ExportAgent, ExportDocument, ExportHead, ExportItem, ExportTool } from "./exportDocument.js";
import { codeBlock, codeSpan, htmlInMarkdown, proseMarkdown, quoted } from "./markdownText.js";
import { agentSummary, headFacts, leftOutNote, toolMark } from "./exportWords.js";

export function exportMarkdown(doc: ExportDocument): string {
  const parts = [head(doc.head), ...doc.items.map(item)];
  return `${parts.join("\n\n")}\n`;
}

function head(h: ExportHead): string {
  const lines = [`# ${proseMarkdown(h.title).replace(/\n/g, " ")}`, ""];
  for (const [name, value] of headFacts(h)) lines.push(`- **${name}:** ${codeSpan(value)}`);
  const note = leftOutNote(h);
  if (note !== undefined) lines.push("", `*${note}*`);
  return lines.join("\n");
}

function item(i: ExportItem): string {
  switch (i.kind) {
    case "prompt":
      return `### You\n\n${quoted(proseMarkdown(i.text))}${i.images > 0 ? `\n>\n> *(${i.images === 1 ? "1 image" : `${i.images} images`})*` : ""}${i.rewound !== undefined ? `\n>\n> *${i.rewound}*` : ""}`;
    case "answer":
      return proseMarkdown(i.text);
    case "thinking":
      return `> *Thinking*\n>\n${quoted(proseMarkdown(i.text))}`;
    case "notice":
      return `> **${i.level === "error" ? "Error" : i.level === "warning" ? "Warning" : "Note"}:** ${proseMarkdown(i.text).replace(/\n/g, "\n> ")}`;
    case "tool":
      return tool(i);
    case "agent":
      return agent(i);
  }
}

function tool(t: ExportTool): string {
  const lines = [`**${toolMark(t.status)} ${htmlInMarkdown(t.name)}** ${t.summary !== "" ? codeSpan(t.summary) : ""} — ${t.status}${t.permission !== undefined ? ` (${t.permission})` : ""}`];
  lines.push("", codeBlock(t.input.text, t.input.language));
  if (t.output !== undefined) {
    lines.push("", `<details><summary>${t.output.isError ? "Error" : "Output"}</summary>`, "", codeBlock(t.output.text, "text"), "", "</details>");
  }
  return lines.join("\n");
}

function agent(a: ExportAgent): string {
  const lines = [`<details>`, `<summary>${htmlInMarkdown(agentSummary(a))}</summary>`, ""];
  if (a.prompt.trim() !== "") lines.push(`**Prompt**`, "", quoted(proseMarkdown(a.prompt)), "");
  if (a.stepsMissing > 0) lines.push(`*(${a.stepsMissing} earlier steps are not in this transcript)*`, "");
  for (const child of a.items) lines.push(item(child), "");
  if (a.report !== undefined) lines.push(`**Report**`, "", quoted(proseMarkdown(a.report)), "");
  lines.push("</details>");
  return lines.join("\n");
}
