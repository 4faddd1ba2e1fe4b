// Turns a scripted reply into what the Messages API sends: a JSON message, or the SSE event
// sequence a streaming client expects (message_start, content_block_* per block, message_delta,
// message_stop).

export type ReplyBlock =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "thinking"; readonly thinking: string }
  | { readonly type: "tool_use"; readonly id: string; readonly name: string; readonly input: Record<string, unknown> };

export interface Reply {
  readonly id: string;
  readonly model: string;
  readonly blocks: readonly ReplyBlock[];
  readonly stopReason: "end_turn" | "tool_use" | "max_tokens";
}

export interface SseEvent {
  readonly event: string;
  readonly data: Record<string, unknown>;
}

const INPUT_TOKENS = 100;

function blockLength(block: ReplyBlock): number {
  if (block.type === "text") return block.text.length;
  if (block.type === "thinking") return block.thinking.length;
  return JSON.stringify(block.input).length;
}

/** Roughly four characters a token, at least one. */
export function outputTokens(blocks: readonly ReplyBlock[]): number {
  const chars = blocks.reduce((sum, b) => sum + blockLength(b), 0);
  return Math.max(1, Math.ceil(chars / 4));
}

function usage(output: number): Record<string, unknown> {
  return {
    input_tokens: INPUT_TOKENS,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: output,
    service_tier: "standard",
  };
}

function signatureOf(thinking: string): string {
  return Buffer.from(`scripted:${thinking.length}`).toString("base64");
}

/** The complete block as it appears in a non-streaming reply. */
function finalBlock(block: ReplyBlock): Record<string, unknown> {
  if (block.type === "thinking") return { ...block, signature: signatureOf(block.thinking) };
  return { ...block };
}

export function jsonMessage(reply: Reply): Record<string, unknown> {
  return {
    id: reply.id,
    type: "message",
    role: "assistant",
    model: reply.model,
    content: reply.blocks.map(finalBlock),
    stop_reason: reply.stopReason,
    stop_sequence: null,
    usage: usage(outputTokens(reply.blocks)),
  };
}

/** Splits a string into up to `parts` pieces of similar length (never empty pieces). */
export function splitPieces(text: string, parts: number): string[] {
  if (text.length === 0) return [];
  const size = Math.max(1, Math.ceil(text.length / parts));
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

function startBlock(block: ReplyBlock): Record<string, unknown> {
  if (block.type === "text") return { type: "text", text: "" };
  if (block.type === "thinking") return { type: "thinking", thinking: "", signature: "" };
  return { type: "tool_use", id: block.id, name: block.name, input: {} };
}

function deltas(block: ReplyBlock): Record<string, unknown>[] {
  if (block.type === "text") {
    return splitPieces(block.text, 3).map((text) => ({ type: "text_delta", text }));
  }
  if (block.type === "thinking") {
    const pieces = splitPieces(block.thinking, 2).map((thinking) => ({ type: "thinking_delta", thinking }));
    return [...pieces, { type: "signature_delta", signature: signatureOf(block.thinking) }];
  }
  const json = JSON.stringify(block.input);
  return splitPieces(json, 3).map((partial_json) => ({ type: "input_json_delta", partial_json }));
}

export function sseEvents(reply: Reply): SseEvent[] {
  const events: SseEvent[] = [];
  const push = (event: string, data: Record<string, unknown>): void => {
    events.push({ event, data: { type: event, ...data } });
  };
  push("message_start", {
    message: { ...jsonMessage(reply), content: [], stop_reason: null, usage: usage(1) },
  });
  reply.blocks.forEach((block, index) => {
    push("content_block_start", { index, content_block: startBlock(block) });
    for (const delta of deltas(block)) push("content_block_delta", { index, delta });
    push("content_block_stop", { index });
  });
  push("message_delta", {
    delta: { stop_reason: reply.stopReason, stop_sequence: null },
    usage: { output_tokens: outputTokens(reply.blocks) },
  });
  push("message_stop", {});
  return events;
}

export function sseFrame(e: SseEvent): string {
  return `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

export function errorBody(type: string, message: string): Record<string, unknown> {
  return { type: "error", error: { type, message } };
}

/** The Anthropic error type that goes with an HTTP status. */
export function errorTypeFor(status: number): string {
  switch (status) {
    case 400:
      return "invalid_request_error";
    case 401:
      return "authentication_error";
    case 403:
      return "permission_error";
    case 404:
      return "not_found_error";
    case 413:
      return "request_too_large";
    case 429:
      return "rate_limit_error";
    case 529:
      return "overloaded_error";
    default:
      return "api_error";
  }
}
