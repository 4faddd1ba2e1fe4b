// Builds a large synthetic stdout stream from the shapes of recorded lines: each recorded line is a
// template whose ids are renewed and whose text fields are resized, so the mix of line kinds and
// sizes resembles a long real session. Generated in memory; nothing is written to the repo.

import { readFileSync } from "node:fs";
import { listRecordings } from "../../test/support/recordings.js";

/** Used when `../shared/recordings` is absent, so the bench still runs. */
const BUILT_IN_TEMPLATES = [
  '{"type":"system","subtype":"init","cwd":"/home/user/code/x","session_id":"s","tools":["Task","Bash","Read","Edit"],"mcp_servers":[],"model":"claude-opus-4-8","permissionMode":"default","slash_commands":["compact"],"apiKeySource":"ANTHROPIC_API_KEY","claude_code_version":"2.1.197","output_style":"default","agents":["general-purpose"],"skills":[],"plugins":[],"uuid":"u"}',
  '{"type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-4-8","content":[{"type":"text","text":"Working on it."}],"stop_reason":null,"usage":{"input_tokens":100,"output_tokens":1}},"parent_tool_use_id":null,"session_id":"s","uuid":"u"}',
  '{"type":"assistant","message":{"id":"msg_2","type":"message","role":"assistant","model":"claude-opus-4-8","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls","description":"List"}}],"stop_reason":null},"parent_tool_use_id":"toolu_0","session_id":"s","uuid":"u"}',
  '{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_1","type":"tool_result","content":"a\\nb","is_error":false}]},"parent_tool_use_id":null,"session_id":"s","uuid":"u","timestamp":"2026-01-01T00:00:00.000Z","tool_use_result":{"stdout":"a\\nb","stderr":"","interrupted":false,"isImage":false}}',
  '{"type":"system","subtype":"task_progress","task_id":"a0123456789abcdef","tool_use_id":"toolu_0","description":"Running x","usage":{"total_tokens":10,"tool_uses":1,"duration_ms":5},"last_tool_name":"Bash","uuid":"u","session_id":"s"}',
  '{"type":"result","subtype":"success","is_error":false,"duration_ms":235,"num_turns":2,"result":"Done.","stop_reason":"end_turn","session_id":"s","total_cost_usd":0.01,"usage":{"input_tokens":1},"modelUsage":{"claude-opus-4-8":{"contextWindow":200000}},"permission_denials":[],"uuid":"u"}',
];

// Mostly plain words, as in real output, with some multibyte text and characters JSON escapes.
const WORDS = [
  ..."the a to of and in is it for on with as this that file test run build code line value error".split(" "),
  ..."function return const import export type string number object array true false null".split(" "),
  "naïve", "café", "日本語", "ключ", "🎼", "line\nbreak", "tab\there", '"quoted"',
];
const TEXT_POOL_SIZE = 512;

/** A small deterministic PRNG so runs are comparable. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function loadTemplates(): string[] {
  const lines = listRecordings().flatMap((r) =>
    r.streamFiles.flatMap((f) => readFileSync(f, "utf8").split("\n").filter((l) => l.trim() !== "")),
  );
  return lines.length > 0 ? lines : BUILT_IN_TEMPLATES;
}

type Mutable = { [key: string]: unknown };

/** Renews ids and resizes text in place; walks only the few places that vary. */
function vary(value: Mutable, random: () => number, serial: number, pool: readonly string[]): void {
  const id = (prefix: string) => `${prefix}${serial.toString(36)}_${Math.floor(random() * 1e9).toString(36)}`;
  const text = () => pool[Math.floor(random() * pool.length)]!;
  if (typeof value.uuid === "string") value.uuid = crypto.randomUUID();
  const message = value.message as Mutable | undefined;
  if (message && typeof message.id === "string") message.id = id("msg_");
  const content = message?.content;
  if (Array.isArray(content)) {
    for (const block of content as Mutable[]) {
      if (typeof block.text === "string") block.text = text();
      if (typeof block.thinking === "string") block.thinking = text();
      if (block.type === "tool_result" && typeof block.content === "string") block.content = text();
    }
  }
}

/** Texts of varied sizes: mostly short, some several KB. */
function textPool(random: () => number): string[] {
  const pool: string[] = [];
  for (let i = 0; i < TEXT_POOL_SIZE; i++) {
    const size = random() < 0.8 ? Math.floor(random() * 400) : Math.floor(random() * 8000);
    const parts: string[] = [];
    let length = 0;
    while (length < size) {
      const word = WORDS[Math.floor(random() * WORDS.length)]!;
      parts.push(word);
      length += word.length + 1;
    }
    pool.push(parts.join(" "));
  }
  return pool;
}

/** Yields newline-terminated lines, about `targetBytes` in all. */
export function* generateLines(targetBytes: number, seed = 1): Generator<string> {
  const random = prng(seed);
  const templates = loadTemplates();
  const pool = textPool(random);
  let bytes = 0;
  let serial = 0;
  while (bytes < targetBytes) {
    const template = templates[Math.floor(random() * templates.length)]!;
    const copy = JSON.parse(template) as Mutable;
    vary(copy, random, serial++, pool);
    const line = `${JSON.stringify(copy)}\n`;
    bytes += Buffer.byteLength(line);
    yield line;
  }
}
