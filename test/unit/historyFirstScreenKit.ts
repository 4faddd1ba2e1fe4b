// A session writer for the first-screen tests: lines shaped like the CLI's history files (as in
// fixtures/recordings/*/projects), with subagent sidechains and meta.json, and multi-byte text so
// chunk edges fall inside characters.

import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Writes a session shaped like the CLI's history: turns of prompts, thinking, tool calls, subagents. */
export class SessionWriter {
  readonly file: string;
  private readonly subDir: string;
  private parts: string[] = [];
  private n = 0;
  private parent: string | null = null;
  private clock = Date.UTC(2026, 0, 1);
  bytes = 0;

  constructor(
    readonly projectDir: string,
    readonly sessionId: string,
  ) {
    this.file = path.join(projectDir, `${sessionId}.jsonl`);
    this.subDir = path.join(projectDir, sessionId, "subagents");
    mkdirSync(this.subDir, { recursive: true });
  }

  id(prefix: string): string {
    return `${prefix}${(++this.n).toString(16).padStart(12, "0")}`;
  }

  raw(line: object): void {
    const text = `${JSON.stringify(line)}\n`;
    this.parts.push(text);
    this.bytes += Buffer.byteLength(text);
    if (this.parts.length > 2000) this.flush();
  }

  private line(fields: object): void {
    const uuid = this.id("u-");
    this.clock += 1000;
    this.raw({ parentUuid: this.parent, isSidechain: false, uuid, timestamp: new Date(this.clock).toISOString(), cwd: "/home/user/code/x", sessionId: this.sessionId, version: "2.1.197", ...fields });
    this.parent = uuid;
  }

  prompt(text: string): void {
    this.raw({ type: "queue-operation", operation: "enqueue", sessionId: this.sessionId, content: text });
    this.line({ type: "user", message: { role: "user", content: text }, permissionMode: "default" });
  }

  /** `usage`: the call's, as the CLI writes it on the line (the token shares count it). */
  assistant(block: object, usage?: object): void {
    this.line({ type: "assistant", message: { id: this.id("msg_"), role: "assistant", model: "claude-opus-4-8", content: [block], ...(usage !== undefined ? { usage } : {}) } });
  }

  result(toolUseId: string, text: string, structured?: unknown, isError = false): void {
    this.line({
      type: "user",
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: toolUseId, content: text, is_error: isError }] },
      ...(structured !== undefined ? { toolUseResult: structured } : {}),
    });
  }

  tool(output: string): void {
    const id = this.id("toolu_");
    this.assistant({ type: "tool_use", id, name: "Bash", input: { command: `echo ${id}`, description: "Echo ✓" } });
    this.result(id, output, { stdout: output, stderr: "", interrupted: false });
  }

  /** A foreground Agent call with its sidechain file; `stoppedByUser` marks it in meta.json. */
  agent(final: string, options: { background?: boolean; stoppedByUser?: boolean; usage?: object } = {}): { toolUseId: string; agentId: string } {
    const toolUseId = this.id("toolu_");
    const agentId = `a${this.id("").padStart(16, "0")}`;
    const description = `agent ${agentId.slice(-4)}`;
    const prompt = `Investigate part ${agentId} — ünïcødé`;
    this.assistant({ type: "tool_use", id: toolUseId, name: "Agent", input: { description, prompt, subagent_type: "general-purpose", ...(options.background ? { run_in_background: true } : {}) } });
    const side = [
      { isSidechain: true, agentId, type: "user", uuid: this.id("s-"), message: { role: "user", content: prompt }, sessionId: this.sessionId },
      {
        isSidechain: true,
        agentId,
        type: "assistant",
        uuid: this.id("s-"),
        message: { id: this.id("msg_"), role: "assistant", model: "claude-opus-4-8", content: [{ type: "text", text: final }], ...(options.usage !== undefined ? { usage: options.usage } : {}) },
        sessionId: this.sessionId,
      },
    ];
    writeFileSync(path.join(this.subDir, `agent-${agentId}.jsonl`), side.map((l) => `${JSON.stringify(l)}\n`).join(""));
    writeFileSync(path.join(this.subDir, `agent-${agentId}.meta.json`), JSON.stringify({ agentType: "general-purpose", description, toolUseId, ...(options.stoppedByUser ? { stoppedByUser: true } : {}) }));
    if (options.background === true) {
      this.result(toolUseId, `Async agent launched.\nagentId: ${agentId}`, { status: "async_launched", agentId, description, prompt });
    } else {
      const structured = { status: "completed", agentId, content: [{ type: "text", text: final }], totalTokens: 1234, totalToolUseCount: 2, totalDurationMs: 5000 };
      this.result(toolUseId, `${final}\nagentId: ${agentId} (use SendMessage to continue)`, structured);
    }
    return { toolUseId, agentId };
  }

  notify(agentId: string, toolUseId: string, final: string): void {
    const text = `<task-notification>\n<task-id>${agentId}</task-id>\n<tool-use-id>${toolUseId}</tool-use-id>\n<status>completed</status>\n<summary>Agent finished</summary>\n<result>${final}</result>\n<usage>total_tokens: 999\ntool_uses: 3\nduration_ms: 4000</usage>\n</task-notification>`;
    this.line({ type: "user", message: { role: "user", content: text }, origin: { kind: "task-notification" } });
  }

  interrupt(): void {
    this.line({ type: "user", message: { role: "user", content: [{ type: "text", text: "[Request interrupted by user]" }] } });
  }

  flush(): void {
    appendFileSync(this.file, this.parts.join(""));
    this.parts = [];
  }
}

/** Deterministic filler with multi-byte characters, so chunk edges fall inside them. */
export function filler(seed: number, bytes: number): string {
  const words = ["tempo", "allegro", "größe", "日本語", "🎼", "naïve", "déjà", "ƒ(x)", "rest"];
  const out: string[] = [];
  let len = 0;
  for (let i = 0; len < bytes; i++) {
    const w = words[(seed * 7 + i * 13) % words.length]!;
    out.push(w);
    len += Buffer.byteLength(w) + 1;
  }
  return out.join(" ");
}

/** A session of about `targetBytes`, with subagents throughout and a busy last stretch. */
export function writeBigSession(dir: string, targetBytes: number): SessionWriter {
  const w = new SessionWriter(path.join(dir, "-home-user-code-x"), "5e55f1e5-0000-4000-8000-00000000b16b");
  w.raw({ type: "ai-title", aiTitle: "Conducting a big session", sessionId: w.sessionId });
  let turn = 0;
  while (w.bytes < targetBytes) {
    w.prompt(`Turn ${turn}: ${filler(turn, 80)}`);
    w.assistant({ type: "thinking", thinking: filler(turn + 1, 400), signature: "sig" });
    for (let c = 0; c < 2 + (turn % 5); c++) w.tool(filler(turn * 10 + c, 1500 + ((turn * 131 + c * 17) % 6000)));
    if (turn % 3 === 0) w.agent(`Summary of turn ${turn}: ${filler(turn, 60)}`);
    if (turn % 17 === 5) w.interrupt();
    else w.assistant({ type: "text", text: `Done with turn ${turn}. ${filler(turn + 2, 200)}` });
    turn++;
  }
  // The newest turns: background agents (one finished, one never heard from), one stopped by the user.
  w.prompt("Final stretch: delegate in the background");
  const finished = w.agent("Background work finished: all green", { background: true });
  const silent = w.agent("never reported", { background: true });
  w.agent("Stopped halfway", { stoppedByUser: true });
  w.tool("a tool before the notification");
  w.notify(finished.agentId, finished.toolUseId, "Background work finished: all green");
  w.assistant({ type: "text", text: `All done; ${silent.agentId} may still run.` });
  w.raw({ type: "last-prompt", lastPrompt: "Final stretch", sessionId: w.sessionId });
  w.flush();
  return w;
}

