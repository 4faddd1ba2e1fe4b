// The CLI wraps what a subagent hands back before the model reads it. 2.1.197 appended a trailer
// to every Agent tool_result: "agentId: … (use SendMessage with to: '…' to continue this agent)
// \n<usage>…</usage>". 2.1.332 also opens it with the tools the agent used
// (`<tools-used-before-summary>…</tools-used-before-summary>`) and a "[Subagent hand-back] …
// The report follows:" frame, and indents every line of the report, all in one text block.
// People never read the wrapping: cards, summaries and the search index show the report alone.
// The trailer is the only place a result inside a sidechain (a depth-2 agent's) names the agent
// and its totals: such lines carry no toolUseResult envelope.

/** A result block that is only the trailer. */
export const AgentTrailerBlock = /^agentId: \S+ \(use SendMessage[\s\S]*$/;

// The trailer is the text's last part, from a line of its own.
const TrailerLine = /(?:^|\n)agentId: \S+ \(use SendMessage[\s\S]*$/;

/** `text` without its Agent wrapping (tools-used line, hand-back frame, trailer): the report alone. */
export function withoutAgentTrailer(text: string): string {
  // Most texts (every tool output the index reads) have none: plain searches are cheaper than patterns.
  if (!text.includes("(use SendMessage") && !text.includes(ToolsUsedTag) && !text.includes(HandBack)) return text;
  return unwrapAgentResult(text).report;
}

/** What a trailer says of the agent: its id and the `<usage>` figures. */
export interface AgentTrailer {
  readonly agentId: string;
  readonly totalTokens?: number;
  readonly toolUses?: number;
  readonly durationMs?: number;
  /** The worktree the agent kept (`isolation: "worktree"`): "worktreePath: …" / "worktreeBranch: …" lines. */
  readonly worktreePath?: string;
  readonly worktreeBranch?: string;
}

const TrailerStart = /agentId: (\S+) \(use SendMessage/;
const UsageBody = /<usage>([\s\S]*?)<\/usage>/;

/** The trailer of an Agent result's text, if it has one. */
export function agentTrailerOf(text: string): AgentTrailer | undefined {
  if (!text.includes("(use SendMessage")) return undefined;
  const start = TrailerStart.exec(text);
  if (start === null) return undefined;
  const agentId = start[1]!;
  const figures = new Map<string, number>();
  for (const m of (UsageBody.exec(text.slice(start.index))?.[1] ?? "").matchAll(/(\w+):\s*(\d+)/g)) {
    figures.set(m[1]!, Number(m[2]));
  }
  const totalTokens = figures.get("subagent_tokens") ?? figures.get("total_tokens");
  const toolUses = figures.get("tool_uses");
  const durationMs = figures.get("duration_ms");
  const tail = text.slice(start.index);
  const worktreePath = /\nworktreePath: ([^\n]+)/.exec(tail)?.[1]?.trim();
  const worktreeBranch = /\nworktreeBranch: ([^\n]+)/.exec(tail)?.[1]?.trim();
  return {
    agentId,
    ...(totalTokens === undefined ? {} : { totalTokens }),
    ...(toolUses === undefined ? {} : { toolUses }),
    ...(durationMs === undefined ? {} : { durationMs }),
    ...(worktreePath ? { worktreePath } : {}),
    ...(worktreeBranch ? { worktreeBranch } : {}),
  };
}

/** An Agent result's text taken apart. */
export interface AgentHandBack {
  /** The subagent's report, de-indented; the whole text when the wrapping is not recognised. */
  readonly report: string;
  /** The tools the agent called, from `<tools-used-before-summary>`; undefined when the text has no such line. */
  readonly toolsUsed?: readonly string[];
  readonly trailer?: AgentTrailer;
}

const ToolsUsedTag = "<tools-used-before-summary>";
const ToolsUsedLine = /^[ \t]*<tools-used-before-summary>([^<\n]*)<\/tools-used-before-summary>[ \t]*(?:\n|$)/;
const HandBack = "[Subagent hand-back]";
const ReportFollows = "The report follows:";
const Indent = "  ";

/**
 * Takes an Agent result's text apart (2.1.332's one-block form, 2.1.197's report + trailer, or a
 * report alone). Tolerant: each part is removed only when it is whole, so an unknown or partial
 * wrapper leaves the text as it is, and the report is never lost.
 */
export function unwrapAgentResult(text: string): AgentHandBack {
  const trailer = agentTrailerOf(text);
  let rest = text;
  if (trailer !== undefined) {
    const at = TrailerLine.exec(rest);
    if (at !== null) rest = rest.slice(0, at.index);
  }
  const tools = ToolsUsedLine.exec(rest);
  const toolsUsed = tools === null ? undefined : toolNames(tools[1]!);
  if (tools !== null) rest = rest.slice(tools[0].length);
  rest = withoutFrame(rest, toolsUsed !== undefined);
  const report = rest.trim();
  return {
    // A wrapper with nothing inside it: keep the text rather than show nothing.
    report: report === "" && trailer === undefined && toolsUsed === undefined ? text : report,
    ...(toolsUsed === undefined ? {} : { toolsUsed }),
    ...(trailer === undefined ? {} : { trailer }),
  };
}

/** The tools line's names: "Bash, Read" (the CLI's separator), blanks left out. */
export function toolNames(list: string): string[] {
  return list
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
}

/**
 * The report inside a "[Subagent hand-back] … The report follows:" frame, de-indented; `text`
 * itself without a whole frame (de-indented only after a tools line: 2.1.197 never indents).
 */
function withoutFrame(text: string, wrapped: boolean): string {
  const lines = text.split("\n");
  // The frame starts at column zero (the harness indents the report, so the report cannot forge one).
  const start = lines.findIndex((line) => line.startsWith(HandBack));
  if (start < 0) return wrapped ? (deindented(lines) ?? text) : text;
  const end = lines.findIndex((line, i) => i >= start && line.trimEnd().endsWith(ReportFollows));
  if (end < 0) return text; // a partial frame: show it all rather than guess where the report starts
  const before = lines.slice(0, start).filter((line) => line.trim() !== "");
  if (before.length > 0) return text; // something unknown before the frame
  return deindented(lines.slice(end + 1)) ?? lines.slice(end + 1).join("\n");
}

/** `lines` with the harness's indent removed, or undefined when some line lacks it (not the CLI's indenting). */
function deindented(lines: readonly string[]): string | undefined {
  const body = lines.filter((line) => line.trim() !== "");
  if (body.length === 0 || !body.every((line) => line.startsWith(Indent))) return undefined;
  return lines.map((line) => (line.startsWith(Indent) ? line.slice(Indent.length) : line.trim())).join("\n");
}
