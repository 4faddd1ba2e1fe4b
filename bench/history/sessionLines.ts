// Transcript lines shaped like the CLI's (PROTOCOL.md 6.2–6.4): envelopes, usage blocks, tool
// results with toolUseResult, Agent spawns with sidechains and meta.json.
import type { Rng, TextPool } from "./textPool.js";

export interface LineContext {
  readonly rng: Rng;
  readonly pool: TextPool;
  readonly sessionId: string;
  readonly cwd: string;
  readonly agentId?: string;
  clock: number;
  parent: string | null;
}

const USAGE = {
  input_tokens: 1200,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 48000,
  output_tokens: 420,
  server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
  service_tier: "standard",
  cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 },
};

function envelope(ctx: LineContext): Record<string, unknown> {
  const uuid = ctx.rng.uuid();
  ctx.clock += ctx.rng.int(50, 4000);
  const line = {
    parentUuid: ctx.parent,
    isSidechain: ctx.agentId !== undefined,
    ...(ctx.agentId !== undefined ? { agentId: ctx.agentId } : {}),
    uuid,
    timestamp: new Date(ctx.clock).toISOString(),
    userType: "external",
    entrypoint: "sdk-cli",
    cwd: ctx.cwd,
    sessionId: ctx.sessionId,
    version: "2.1.197",
    gitBranch: "main",
  };
  ctx.parent = uuid;
  return line;
}

export function promptLine(ctx: LineContext, text: string): string {
  return JSON.stringify({ ...envelope(ctx), type: "user", message: { role: "user", content: text }, promptSource: "sdk" });
}

export function queueLines(ctx: LineContext, text: string): string[] {
  const timestamp = new Date(ctx.clock).toISOString();
  return [
    JSON.stringify({ type: "queue-operation", operation: "enqueue", timestamp, sessionId: ctx.sessionId, content: text }),
    JSON.stringify({ type: "queue-operation", operation: "dequeue", timestamp, sessionId: ctx.sessionId }),
  ];
}

export function assistantLine(ctx: LineContext, block: Record<string, unknown>): string {
  return JSON.stringify({
    ...envelope(ctx),
    type: "assistant",
    message: {
      id: `msg_${ctx.rng.hex(24)}`,
      type: "message",
      role: "assistant",
      model: "claude-opus-4-8",
      content: [block],
      stop_reason: block["type"] === "tool_use" ? "tool_use" : "end_turn",
      stop_sequence: null,
      usage: USAGE,
    },
    requestId: `req_${ctx.rng.hex(24)}`,
  });
}

export function toolResultLine(ctx: LineContext, toolUseId: string, text: string, structured?: unknown): string {
  return JSON.stringify({
    ...envelope(ctx),
    type: "user",
    message: { role: "user", content: [{ tool_use_id: toolUseId, type: "tool_result", content: text, is_error: false }] },
    ...(structured !== undefined ? { toolUseResult: structured } : {}),
  });
}

const TOOLS = ["Bash", "Read", "Grep", "Edit"] as const;

/**
 * One tool call and its result: two lines. As in real transcripts (PROTOCOL.md 6.4), the main
 * thread's `toolUseResult` repeats the output (Read's file, Bash's stdout) or carries whole files
 * (Edit's originalFile), so many bytes on disk are not text anyone searches.
 */
export function toolPair(ctx: LineContext, outputBytes: number): string[] {
  const { rng, pool } = ctx;
  const name = rng.pick(TOOLS);
  const id = `toolu_${rng.hex(24)}`;
  const filePath = `${ctx.cwd}/src/${pool.word()}.ts`;
  const input: Record<string, string> =
    name === "Bash"
      ? { command: `${pool.word()} --${pool.word()} ${pool.word()}`, description: pool.sentence(6) }
      : name === "Edit"
        ? { file_path: filePath, old_string: pool.sentence(12), new_string: pool.sentence(14) }
        : { file_path: filePath, pattern: pool.word() };
  const output = name === "Edit" ? `The file ${filePath} has been updated successfully.` : pool.text(outputBytes);
  return [
    assistantLine(ctx, { type: "tool_use", id, name, input }),
    toolResultLine(ctx, id, output, ctx.agentId === undefined ? toolUseResult(ctx, name, input, output, outputBytes) : undefined),
  ];
}

function toolUseResult(ctx: LineContext, name: (typeof TOOLS)[number], input: Record<string, string>, output: string, bytes: number): unknown {
  switch (name) {
    case "Bash":
      return { stdout: output, stderr: "", interrupted: false, isImage: false, noOutputExpected: false };
    case "Read":
      return { type: "text", file: { filePath: input["file_path"], content: output, numLines: 200, startLine: 1, totalLines: 200 } };
    case "Grep":
      return { mode: "content", numFiles: 3, filenames: [], content: output, numLines: 40 };
    case "Edit":
      return {
        filePath: input["file_path"],
        oldString: input["old_string"],
        newString: input["new_string"],
        originalFile: ctx.pool.text(bytes * 2),
        structuredPatch: [{ oldStart: 10, oldLines: 1, newStart: 10, newLines: 1, lines: [`-${input["old_string"]}`, `+${input["new_string"]}`] }],
        userModified: false,
        replaceAll: false,
      };
  }
}

/** The skill listing the CLI attaches to every prompt: bytes on disk, nothing to search. */
export function attachmentLine(ctx: LineContext): string {
  // The CLI writes the attachment before the line's own type (PROTOCOL.md 6.2; the recordings).
  const { parentUuid, isSidechain, ...rest } = envelope(ctx);
  return JSON.stringify({
    parentUuid,
    isSidechain,
    attachment: { type: "skill_listing", content: ctx.pool.text(3000), skillCount: 12, isInitial: false },
    type: "attachment",
    ...rest,
  });
}
