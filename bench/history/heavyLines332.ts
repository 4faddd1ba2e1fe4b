// The lines CLI 2.1.332 adds to a transcript (PROTOCOL-2.1.332.md §3), for `--cli 2.1.332`: the
// conversation stays what the 2.1.197 shape writes, and these come on top in the proportions of
// the real 2.1.332 set: `prompt_snapshot` 31 % of all bytes, `api-request-shape` 19 %,
// `api-request-blob` 9 %, `skill_listing` 10 %; the rest (31 %) is the conversation and the small
// records (`api-request` per API call, `atis-latch`, `cost-state`, `tools-used`). Key order is the
// CLI's: request records and bookkeeping start with their type; an attachment line has its
// envelope, then its attachment, then `"type":"attachment"`.
import type { LineContext } from "./sessionLines.js";
import type { Rng, TextPool } from "./textPool.js";

export type CliShape = "2.1.197" | "2.1.332";

/** Share of all bytes per heavy kind; the conversation and small records are the remaining 31 %. */
const Share = { snapshot: 0.31, shape: 0.19, blob: 0.09, skills: 0.1 } as const;
const RestShare = 1 - Share.snapshot - Share.shape - Share.blob - Share.skills;
/** Typical line sizes: a snapshot or shape holds the whole system prompt and every tool schema. */
const LineBytes = { snapshot: 110_000, shape: 90_000, blob: 6_000, skills: 12_000 } as const;
type Kind = keyof typeof Share;

/** Emits a session's heavy lines as its conversation grows, each kind owing bytes in its share. */
export class HeavyLines {
  private readonly debt: Record<Kind, number> = { snapshot: 0, shape: 0, blob: 0, skills: 0 };
  private readonly shapeHash: string;

  /** Its own random source, so the conversation is the same as the 2.1.197 shape's for a seed. */
  constructor(
    private readonly ctx: LineContext,
    private readonly rng: Rng,
    private readonly pool: TextPool,
  ) {
    this.shapeHash = rng.hex(16);
  }

  /** The lines a cold boot writes before the first prompt: a snapshot and the request shape. */
  start(scale = 1): string[] {
    const snapshot = Math.round(LineBytes.snapshot * scale);
    const shape = Math.round(LineBytes.shape * scale);
    this.debt.snapshot -= snapshot;
    this.debt.shape -= shape;
    return [this.snapshot(snapshot), this.shape(shape)];
  }

  /** After a turn whose conversation lines took `bytes`: the records of its API calls and what the shares owe. */
  afterTurn(bytes: number, apiCalls: number): string[] {
    const out: string[] = [];
    for (let i = 0; i < apiCalls; i++) out.push(this.apiRequest());
    out.push(
      JSON.stringify({ type: "atis-latch", sessionId: this.ctx.sessionId, atis: "" }),
      JSON.stringify({ type: "tools-used", tools: ["Bash", "Read", "Grep", "Edit"], sessionId: this.ctx.sessionId }),
      JSON.stringify({ type: "cost-state", sessionId: this.ctx.sessionId, totalCostUSD: 0.0123, totalAPIDuration: 4321, totalAPIDurationWithoutRetries: 4321, totalToolDuration: 88, totalLinesAdded: 3, totalLinesRemoved: 1 }),
    );
    const restBytes = bytes + out.reduce((n, l) => n + l.length + 1, 0);
    for (const kind of Object.keys(Share) as Kind[]) {
      this.debt[kind] += (restBytes * Share[kind]) / RestShare;
      while (this.debt[kind] >= LineBytes[kind]) {
        out.push(this.line(kind, LineBytes[kind]));
        this.debt[kind] -= LineBytes[kind];
      }
    }
    return out;
  }

  /** What the shares still owe at the end of the file. */
  finish(): string[] {
    return (Object.keys(Share) as Kind[]).filter((k) => this.debt[k] > 500).map((k) => this.line(k, Math.round(this.debt[k])));
  }

  private line(kind: Kind, bytes: number): string {
    switch (kind) {
      case "snapshot":
        return this.snapshot(bytes);
      case "shape":
        return this.shape(bytes);
      case "blob":
        return JSON.stringify({
          type: "api-request-blob",
          sessionId: this.ctx.sessionId,
          ...this.agent(),
          hash: this.rng.hex(32),
          message: { role: "user", content: [{ type: "text", text: `<system-reminder>\n${this.pool.text(bytes)}\n</system-reminder>` }] },
        });
      case "skills":
        return this.attachment({ type: "skill_listing", content: this.pool.text(bytes / 2), skillCount: 40, isInitial: false, rendered: this.pool.text(bytes / 2) });
    }
  }

  private snapshot(bytes: number): string {
    return this.attachment({ type: "prompt_snapshot", systemPrompt: [this.pool.text(bytes * 0.4), this.pool.text(bytes * 0.05)], tools: this.tools(bytes * 0.55) });
  }

  private shape(bytes: number): string {
    return JSON.stringify({
      type: "api-request-shape",
      sessionId: this.ctx.sessionId,
      ...this.agent(),
      shapeHash: this.shapeHash,
      timestamp: new Date(this.ctx.clock).toISOString(),
      version: "2.1.332",
      shape: { system: [{ type: "text", text: this.pool.text(bytes * 0.45) }], tools: this.tools(bytes * 0.55) },
    });
  }

  /** Tool schemas: nested objects, so parsing them costs what a real snapshot's do. */
  private tools(bytes: number): unknown[] {
    const pool = this.pool;
    const tools: unknown[] = [];
    for (let left = bytes; left > 0; left -= 1600) {
      tools.push({
        name: `${pool.word()}_${pool.word()}`,
        description: pool.text(1000),
        input_schema: {
          type: "object",
          properties: { path: { type: "string", description: pool.sentence(12) }, limit: { type: "number", description: pool.sentence(8) }, mode: { type: "string", enum: ["a", "b", "c"] } },
          required: ["path"],
          additionalProperties: false,
        },
      });
    }
    return tools;
  }

  private apiRequest(): string {
    const rng = this.rng;
    return JSON.stringify({
      type: "api-request",
      sessionId: this.ctx.sessionId,
      ...this.agent(),
      id: rng.uuid(),
      timestamp: new Date(this.ctx.clock).toISOString(),
      version: "2.1.332",
      querySource: this.ctx.agentId === undefined ? "repl_main_thread" : "agent:custom",
      shapeHash: this.shapeHash,
      params: { model: "claude-opus-4-8", max_tokens: 32000, thinking: { type: "enabled", budget_tokens: 8000 }, betas: ["interleaved-thinking-2025-05-14", "context-management-2025-06-27"], messages: Array.from({ length: 6 }, () => ({ blob: rng.hex(32) })) },
      requestDigest: rng.hex(64),
    });
  }

  private attachment(attachment: Record<string, unknown>): string {
    const uuid = this.rng.uuid();
    const line = {
      parentUuid: this.ctx.parent,
      isSidechain: this.ctx.agentId !== undefined,
      attachment,
      type: "attachment",
      uuid,
      timestamp: new Date(this.ctx.clock).toISOString(),
      userType: "external",
      entrypoint: "sdk-cli",
      cwd: this.ctx.cwd,
      sessionId: this.ctx.sessionId,
      version: "2.1.332",
      gitBranch: "main",
      ...this.agent(),
    };
    this.ctx.parent = uuid;
    return JSON.stringify(line);
  }

  private agent(): { agentId?: string } {
    return this.ctx.agentId !== undefined ? { agentId: this.ctx.agentId } : {};
  }
}
