// A history folder whose every field carries a payload of the XSS corpus (xssPayloads.ts), in the
// CLI's own JSONL shapes: prompts, command echoes, markdown, thinking, every
// kind of tool input and output, an MCP tool name and call id, a subagent with its sidechain,
// notices, titles, cwd and branch. Each placement ends with a tag (`xssp07bc`: payload p07 in a
// Bash command) so a test can tell that the field was drawn, as text.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { XssPayload } from "./xssPayloads.js";

export interface XssPlacement {
  readonly payloadId: string;
  /** Two-letter field code (see `Fields`). */
  readonly field: string;
  /** The word appended to the payload in that field. */
  readonly tag: string;
  /** False for fields the window does not draw (a branch name, a replaced title). */
  readonly shown: boolean;
}

/** What each field code stands for, for failure messages. */
export const Fields: Record<string, string> = {
  ct: "custom title",
  ai: "AI title (the session without a custom one)",
  a2: "AI title under a custom one",
  cw: "cwd",
  gb: "gitBranch",
  qo: "queue-operation content",
  pr: "user prompt",
  im: "prompt beside hostile images",
  ce: "command echo (bash-input / bash-stdout)",
  qc: "queued_command attachment prompt",
  md: "assistant markdown",
  th: "thinking",
  mo: "assistant model name",
  bc: "Bash command",
  bd: "Bash description",
  to: "tool_result text",
  te: "error tool_result",
  fp: "file path",
  wc: "Write content",
  eo: "Edit old_string",
  en: "Edit new_string",
  ep: "Edit structuredPatch line",
  gp: "Grep pattern",
  wu: "WebFetch url",
  wp: "WebFetch prompt",
  td: "TodoWrite item",
  tn: "MCP tool name",
  ti: "tool_use id",
  mi: "MCP tool input",
  aq: "AskUserQuestion question",
  aa: "AskUserQuestion answer",
  pl: "ExitPlanMode plan (markdown)",
  ad: "Agent description",
  ap: "Agent prompt (and sidechain prompt)",
  at: "subagent_type",
  as: "Agent result summary (markdown)",
  rm: "Agent resolvedModel",
  sd: "subagent meta.json description",
  st: "sidechain thinking",
  sm: "sidechain markdown",
  sb: "sidechain Bash command",
  so: "sidechain tool output",
  no: "system notice",
  ae: "API error notice",
  cl: "Console (a live session's working directory)",
};

const MarkdownFields = new Set(["md", "as", "pl", "sm"]);

/** Hands out payloads round-robin, so each field gets different ones and every payload is used. */
export class XssPlacer {
  readonly placements: XssPlacement[] = [];
  private next = 0;

  constructor(private readonly corpus: readonly XssPayload[]) {}

  /** The next payload (or the next one that `fits`) for `field`, with its tag appended. */
  take(field: string, options: { shown?: boolean; fits?: (text: string) => boolean } = {}): string {
    for (let tries = 0; tries < this.corpus.length; tries++) {
      const payload = this.corpus[this.next++ % this.corpus.length]!;
      if (options.fits !== undefined && !options.fits(payload.text)) continue;
      return this.place(payload, field, options.shown ?? true);
    }
    throw new Error(`no payload fits field ${field}`);
  }

  place(payload: XssPayload, field: string, shown = true): string {
    if (Fields[field] === undefined) throw new Error(`unknown field ${field}`);
    const tag = `xss${payload.id}${field}`;
    this.placements.push({ payloadId: payload.id, field, tag, shown });
    return `${payload.text}${MarkdownFields.has(field) ? "\n\n" : " "}${tag}`;
  }
}

/** Short, one-line payloads: titles are cut at 80 characters and must keep their tag. */
export const fitsTitle = (text: string): boolean => text.length <= 64 && !/[\n\r\t\u0000-\u001f]/.test(text);

class Lines {
  readonly lines: object[] = [];
  private parent: string | null = null;
  private clock = Date.parse("2026-01-01T10:00:00Z");

  constructor(
    readonly sessionId: string,
    readonly cwd: string,
    readonly gitBranch: string,
    private readonly sidechain?: { readonly agentId: string; readonly agentType: string },
  ) {}

  /** Appends a conversational line with the envelope; returns its uuid. */
  add(fields: object): string {
    const uuid = randomUUID();
    this.clock += 1000;
    const side = this.sidechain;
    this.lines.push({
      parentUuid: this.parent,
      isSidechain: side !== undefined,
      ...(side !== undefined ? { agentId: side.agentId } : {}),
      ...fields,
      ...(side !== undefined && (fields as { type?: string }).type === "assistant" ? { attributionAgent: side.agentType } : {}),
      uuid,
      timestamp: new Date(this.clock).toISOString(),
      userType: "external",
      entrypoint: "sdk-cli",
      cwd: this.cwd,
      sessionId: this.sessionId,
      version: "2.1.197",
      gitBranch: this.gitBranch,
    });
    this.parent = uuid;
    return uuid;
  }

  raw(line: object): void {
    this.lines.push(line);
  }

  prompt(content: unknown): string {
    return this.add({ type: "user", message: { role: "user", content }, promptSource: "sdk" });
  }

  assistant(block: object, model = "claude-scripted"): string {
    const stop = (block as { type?: string }).type === "tool_use" ? "tool_use" : "end_turn";
    return this.add({
      type: "assistant",
      message: { id: `msg_${randomUUID()}`, type: "message", role: "assistant", model, content: [block], stop_reason: stop, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } },
    });
  }

  /** A tool call and its result. `result` is the text the model saw; `toolUseResult` the envelope. */
  tool(id: string, name: string, input: object, result: { text: string; isError?: boolean; toolUseResult?: unknown }): void {
    const source = this.assistant({ type: "tool_use", id, name, input });
    this.add({
      type: "user",
      message: { role: "user", content: [{ tool_use_id: id, type: "tool_result", content: result.text, is_error: result.isError === true }] },
      ...(result.toolUseResult !== undefined ? { toolUseResult: result.toolUseResult } : {}),
      sourceToolAssistantUUID: source,
    });
  }
}

function slug(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, "-");
}

function writeJsonl(file: string, lines: readonly object[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
}

export interface XssHistory {
  /** The session that carries nearly everything, and the one that shows an AI title. */
  readonly mainSessionId: string;
  readonly otherSessionId: string;
  /** Tags of the two sessions' titles (to find them in the session list). */
  readonly mainTitleTag: string;
  readonly otherTitleTag: string;
}

const Rounds = 3;

/** Writes the two sessions under `projectsDir`; placements go to `placer`. */
export function writeXssHistory(projectsDir: string, corpus: readonly XssPayload[], placer: XssPlacer): XssHistory {
  const mainSessionId = randomUUID();
  const otherSessionId = randomUUID();
  const mainTitle = placer.take("ct", { fits: fitsTitle });
  const mainTitleTag = placer.placements.at(-1)!.tag;
  const cwd = `/home/user/code/${placer.take("cw", { fits: fitsTitle })}`;
  const main = new Lines(mainSessionId, cwd, placer.take("gb", { shown: false }));
  main.raw({ type: "custom-title", customTitle: mainTitle, sessionId: mainSessionId });
  main.raw({ type: "ai-title", aiTitle: placer.take("a2", { shown: false, fits: fitsTitle }), sessionId: mainSessionId });
  main.raw({ type: "queue-operation", operation: "enqueue", timestamp: "2026-01-01T10:00:00.000Z", sessionId: mainSessionId, content: placer.take("qo", { shown: false }) });

  const svg = `<svg xmlns="http://www.w3.org/2000/svg" onload="(top.__xss=top.__xss||[]).push('image')"><script>(top.__xss=top.__xss||[]).push('image')</script></svg>`;
  main.prompt([
    { type: "text", text: placer.take("im") },
    { type: "image", source: { type: "base64", media_type: "image/svg+xml", data: Buffer.from(svg).toString("base64") } },
    { type: "image", source: { type: "base64", media_type: 'text/html" onerror="(top.__xss=top.__xss||[]).push(\'mime\')', data: Buffer.from(svg).toString("base64") } },
  ]);

  const subagents: { agentId: string; lines: object[]; meta: object }[] = [];
  for (let round = 0; round < Rounds; round++) {
    const id = (name: string) => `toolu_r${round}_${name}`;
    main.prompt(placer.take("pr"));
    // The session's model is the first assistant line's.
    main.assistant({ type: "thinking", thinking: placer.take("th"), signature: "sig" }, round === 0 ? placer.take("mo", { fits: fitsTitle }) : undefined);
    main.tool(id("bash"), "Bash", { command: placer.take("bc"), description: placer.take("bd") }, { text: placer.take("to") });
    main.tool(id("bash_err"), "Bash", { command: placer.take("bc") }, { text: placer.take("te"), isError: true, toolUseResult: "Error: Exit code 1" });
    main.tool(id("read"), "Read", { file_path: placer.take("fp") }, { text: placer.take("to") });
    const written = placer.take("wc");
    main.tool(id("write"), "Write", { file_path: placer.take("fp"), content: written }, { text: "File created" });
    const [oldString, newString, patchLine] = [placer.take("eo"), placer.take("en"), placer.take("ep")];
    main.tool(id("edit"), "Edit", { file_path: placer.take("fp"), old_string: oldString, new_string: newString }, {
      text: "The file has been updated.",
      toolUseResult: { filePath: "/home/user/code/app/a.txt", oldString, newString, originalFile: oldString, structuredPatch: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: [`-${oldString}`, `+${patchLine}`] }], userModified: false, replaceAll: false },
    });
    main.tool(id("grep"), "Grep", { pattern: placer.take("gp"), path: placer.take("fp") }, { text: placer.take("to") });
    main.tool(id("fetch"), "WebFetch", { url: placer.take("wu"), prompt: placer.take("wp") }, { text: placer.take("to") });
    main.tool(id("todo"), "TodoWrite", { todos: [{ content: placer.take("td"), status: "in_progress", activeForm: "Working" }] }, { text: "Todos updated" });
    // JSON.parse keeps "__proto__" an own key, as a hostile file would.
    const mcpInput = JSON.parse(JSON.stringify({ query: placer.take("mi") }).replace(/^\{/, `{"__proto__":{"innerHTML":"<img src=x onerror=alert(1)>"},`)) as object;
    main.tool(`${id("mcp")}_${placer.take("ti", { fits: fitsTitle })}`, `mcp__evil__${placer.take("tn", { fits: fitsTitle })}`, mcpInput, { text: placer.take("to") });
    const question = placer.take("aq");
    const answer = placer.take("aa");
    main.tool(id("ask"), "AskUserQuestion", { questions: [{ question, header: "Q", options: [{ label: "Yes", description: "yes" }, { label: "No", description: "no" }], multiSelect: false }] }, {
      text: `User has answered your questions: "${question}"="${answer}"`,
      toolUseResult: { questions: [{ question, header: "Q", options: [{ label: "Yes", description: "yes" }], multiSelect: false }], answers: { [question]: answer } },
    });
    main.tool(id("plan"), "ExitPlanMode", { plan: placer.take("pl") }, { text: "User has approved your plan.", toolUseResult: { plan: "p", isAgent: false, filePath: "/home/user/.claude/plans/p.md", planWasEdited: false } });
    subagents.push(agentRound(main, placer, id("agent"), round));
    main.raw({ ...systemEnvelope(main), type: "system", content: placer.take("no"), level: "warning" });
    main.raw({ ...systemEnvelope(main), type: "system", subtype: "api_error", error: { message: placer.take("ae") }, retryAttempt: 1, maxRetries: 3 });
    main.add({ type: "attachment", attachment: { type: "queued_command", prompt: placer.take("qc"), commandMode: "prompt" } });
    main.prompt(`<bash-input>${placer.take("ce", { fits: (t) => !t.includes("</") })}</bash-input><bash-stdout>${placer.take("ce", { fits: (t) => !t.includes("</") })}</bash-stdout><bash-stderr></bash-stderr>`);
    main.assistant({ type: "text", text: `Round ${round} done.` });
  }
  // The whole corpus as markdown, one block each, so no payload's syntax leaks into another's.
  main.prompt("Show every payload as markdown.");
  for (const payload of corpus) main.assistant({ type: "text", text: placer.place(payload, "md") });
  main.raw({ type: "last-prompt", lastPrompt: "Show every payload as markdown.", leafUuid: randomUUID(), sessionId: mainSessionId });

  const dir = path.join(projectsDir, slug(cwd));
  writeJsonl(path.join(dir, `${mainSessionId}.jsonl`), main.lines);
  for (const s of subagents) {
    writeJsonl(path.join(dir, mainSessionId, "subagents", `agent-${s.agentId}.jsonl`), s.lines);
    fs.writeFileSync(path.join(dir, mainSessionId, "subagents", `agent-${s.agentId}.meta.json`), JSON.stringify(s.meta));
  }

  // A second project whose session has only an AI title.
  const otherCwd = `/home/user/code/${placer.take("cw", { fits: fitsTitle })}`;
  const other = new Lines(otherSessionId, otherCwd, "main");
  other.raw({ type: "ai-title", aiTitle: placer.take("ai", { fits: fitsTitle }), sessionId: otherSessionId });
  const otherTitleTag = placer.placements.at(-1)!.tag;
  other.prompt(placer.take("pr"));
  other.assistant({ type: "text", text: placer.take("md") });
  writeJsonl(path.join(projectsDir, slug(otherCwd), `${otherSessionId}.jsonl`), other.lines);
  return { mainSessionId, otherSessionId, mainTitleTag, otherTitleTag };
}

function systemEnvelope(lines: Lines): object {
  return { parentUuid: null, isSidechain: false, uuid: randomUUID(), timestamp: "2026-01-01T11:00:00.000Z", cwd: lines.cwd, sessionId: lines.sessionId, version: "2.1.197" };
}

/** An Agent call in `main` and its sidechain, whose every line carries payloads too. */
function agentRound(main: Lines, placer: XssPlacer, toolUseId: string, round: number): { agentId: string; lines: object[]; meta: object } {
  const agentId = `a${String(round).padStart(2, "0")}c0ffee1234567`;
  const description = placer.take("ad", { fits: fitsTitle });
  const prompt = placer.take("ap");
  const agentType = placer.take("at", { fits: fitsTitle });
  const side = new Lines(main.sessionId, main.cwd, "main", { agentId, agentType });
  side.prompt(prompt);
  side.assistant({ type: "thinking", thinking: placer.take("st"), signature: "sig" });
  side.assistant({ type: "text", text: placer.take("sm") });
  side.tool(`toolu_side_r${round}`, "Bash", { command: placer.take("sb"), description: "side" }, { text: placer.take("so") });
  const summary = placer.take("as");
  side.assistant({ type: "text", text: summary });
  main.tool(toolUseId, "Agent", { description, prompt, subagent_type: agentType }, {
    text: summary,
    toolUseResult: {
      status: "completed",
      prompt,
      agentId,
      agentType,
      content: [{ type: "text", text: summary }],
      resolvedModel: placer.take("rm", { fits: fitsTitle }),
      totalDurationMs: 1200,
      totalTokens: 142,
      totalToolUseCount: 1,
      usage: { input_tokens: 100, output_tokens: 42 },
    },
  });
  const meta = { agentType, description: placer.take("sd", { shown: false }), toolUseId, spawnDepth: 1 };
  return { agentId, lines: side.lines, meta };
}
