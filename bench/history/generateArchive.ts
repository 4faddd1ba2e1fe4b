// Writes a projects dir shaped like ~/.claude/projects: many sessions of realistic lines, with
// subagent sidechains, and one big session. Deterministic for a given seed.
import fs from "node:fs";
import path from "node:path";
import { assistantLine, attachmentLine, type LineContext, promptLine, queueLines, toolPair, toolResultLine } from "./sessionLines.js";
import { HeavyLines, type CliShape } from "./heavyLines332.js";
import { CJK_SYLLABLES, Rng, TextPool } from "./textPool.js";

export interface ArchiveSpec {
  readonly sessions: number;
  /** Bytes of all main transcripts together (sidechains come on top). */
  readonly totalBytes: number;
  readonly big: { readonly bytes: number; readonly lines: number; readonly subagents: number };
  readonly projects?: number;
  readonly seed?: number;
  /** Whose lines: 2.1.332 adds its request records and snapshots on top of the same conversation. */
  readonly cli?: CliShape;
  /** This share of the sessions is written in Chinese, Japanese and Korean (runs without spaces). */
  readonly cjkShare?: number;
}

export interface ArchiveStats {
  readonly dir: string;
  files: number;
  bytes: number;
  lines: number;
  sessions: number;
  subagents: number;
  /** Bytes of 2.1.332's heavy lines (heavyLines332.ts) among `bytes`. */
  heavyBytes: number;
  readonly bigSessionPath: string;
  /** Words and phrases known to occur, for search queries; `cjk`: substrings of CJK runs (2 to 4 characters). */
  readonly sampleTerms: { readonly common: string[]; readonly rare: string[]; readonly phrases: string[]; readonly cjk?: string[] };
}

export function generateArchive(dir: string, spec: ArchiveSpec): ArchiveStats {
  const rng = new Rng(spec.seed ?? 42);
  const pool = new TextPool(rng);
  const projects = spec.projects ?? Math.max(1, Math.round(spec.sessions / 40));
  const stats: ArchiveStats = {
    dir,
    files: 0,
    bytes: 0,
    lines: 0,
    sessions: 0,
    subagents: 0,
    heavyBytes: 0,
    bigSessionPath: "",
    sampleTerms: {
      common: pool.words.slice(0, 30),
      rare: pool.words.slice(3000, 3040),
      phrases: Array.from({ length: 20 }, () => pool.phrase(3)),
    },
  };
  const heavyRng = new Rng((spec.seed ?? 42) + 1);
  const heavy: HeavySource | undefined = spec.cli === "2.1.332" ? { rng: heavyRng, pool: new TextPool(heavyRng) } : undefined;
  // Its own generator, made only when asked for: the archive without it stays the same.
  const cjkEvery = spec.cjkShare !== undefined && spec.cjkShare > 0 ? Math.max(1, Math.round(1 / spec.cjkShare)) : 0;
  const cjkPool = cjkEvery > 0 ? new TextPool(new Rng((spec.seed ?? 42) + 2), 8000, 3000, { syllables: CJK_SYLLABLES, joiner: "" }) : undefined;
  if (cjkPool !== undefined) {
    (stats.sampleTerms as { cjk?: string[] }).cjk = Array.from({ length: 15 }, (_, i) => cjkPool.substring(2 + (i % 3)));
  }
  const restBytes = Math.max(0, spec.totalBytes - spec.big.bytes);
  const perSession = restBytes / Math.max(1, spec.sessions - 1);
  const meanLine = spec.big.bytes / spec.big.lines;
  for (let i = 0; i < spec.sessions; i++) {
    const project = `-home-user-code-project${i % projects}`;
    const isBig = i === 0;
    const target = isBig ? spec.big.bytes : perSession * (0.3 + 1.4 * rng.next());
    const lines = isBig ? spec.big.lines : Math.max(8, Math.round(target / meanLine));
    const subagents = isBig ? spec.big.subagents : rng.next() < 0.3 ? rng.int(1, 3) : 0;
    const sessionPool = cjkPool !== undefined && i % cjkEvery === 1 % cjkEvery ? cjkPool : pool;
    const file = writeSession(path.join(dir, project), `/home/user/code/project${i % projects}`, rng, sessionPool, {
      bytes: target,
      lines,
      subagents,
      index: i,
    }, stats, heavy);
    if (isBig) (stats as { bigSessionPath: string }).bigSessionPath = file;
  }
  return stats;
}

interface HeavySource {
  readonly rng: Rng;
  readonly pool: TextPool;
}

interface SessionShape {
  readonly bytes: number;
  readonly lines: number;
  readonly subagents: number;
  readonly index: number;
}

class LineFile {
  private readonly fd: number;
  private buf: string[] = [];
  private pending = 0;
  bytes = 0;
  lines = 0;
  /** Of `bytes` and `lines`, those of heavy lines: the rest is the conversation. */
  heavyBytes = 0;
  heavyLines = 0;
  constructor(readonly file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.fd = fs.openSync(file, "w");
  }
  write(lines: readonly string[]): void {
    for (const l of lines) {
      this.buf.push(l);
      this.pending += l.length + 1;
      this.bytes += Buffer.byteLength(l) + 1;
      this.lines++;
    }
    if (this.pending > 4 * 1024 * 1024) this.flush();
  }
  writeHeavy(lines: readonly string[]): void {
    const before = this.bytes;
    this.write(lines);
    this.heavyBytes += this.bytes - before;
    this.heavyLines += lines.length;
  }
  get conversationBytes(): number {
    return this.bytes - this.heavyBytes;
  }
  get conversationLines(): number {
    return this.lines - this.heavyLines;
  }
  flush(): void {
    if (this.buf.length > 0) fs.writeSync(this.fd, `${this.buf.join("\n")}\n`);
    this.buf = [];
    this.pending = 0;
  }
  close(): void {
    this.flush();
    fs.closeSync(this.fd);
  }
}

function writeSession(projectDir: string, cwd: string, rng: Rng, pool: TextPool, shape: SessionShape, stats: ArchiveStats, heavySource?: HeavySource): string {
  const sessionId = rng.uuid();
  const main = new LineFile(path.join(projectDir, `${sessionId}.jsonl`));
  const ctx: LineContext = { rng, pool, sessionId, cwd, clock: Date.UTC(2026, 0, 1) + shape.index * 3_600_000, parent: null };
  // Tool outputs sized so the file reaches both its byte and its line target: a tool pair is two
  // lines holding the output twice (content and toolUseResult) plus ~1.7 KB of envelopes.
  const outputBytes = Math.max(200, Math.round(shape.bytes / shape.lines - 850));
  let spawned = 0;
  let turn = 0;
  const heavy = heavySource === undefined ? undefined : new HeavyLines(ctx, heavySource.rng, heavySource.pool);
  if (heavy !== undefined) main.writeHeavy(heavy.start());
  // The conversation reaches the same targets in either shape; heavy lines come on top.
  while (main.conversationBytes < shape.bytes || main.conversationLines < shape.lines || spawned < shape.subagents) {
    const turnStart = main.conversationBytes;
    const text = `${turn === 0 ? `sessmark${shape.index} ` : ""}${pool.sentence(rng.int(8, 40))}`;
    main.write([...queueLines(ctx, text), promptLine(ctx, text), attachmentLine(ctx)]);
    main.write([assistantLine(ctx, { type: "thinking", thinking: pool.text(rng.int(200, 1200)), signature: rng.hex(64) })]);
    const calls = rng.int(2, 8);
    // Heavy-tailed outputs: mostly short, some long (indexed whole, in pieces past 16 K characters).
    for (let c = 0; c < calls; c++) {
      const size = rng.next() < 0.75 ? rng.int(outputBytes / 5, outputBytes) : rng.int(outputBytes, outputBytes * 4);
      main.write(toolPair(ctx, size));
    }
    const remainingTurnsGuess = Math.max(1, (shape.lines - main.conversationLines) / (calls * 2 + 6));
    const spawnsNow = Math.min(shape.subagents - spawned, Math.ceil((shape.subagents - spawned) / remainingTurnsGuess));
    for (let s = 0; s < spawnsNow; s++) {
      main.write(spawnAgent(projectDir, ctx, spawned++, stats, heavySource));
    }
    main.write([assistantLine(ctx, { type: "text", text: pool.text(rng.int(100, 800)) })]);
    turn++;
    if (heavy !== undefined) main.writeHeavy(heavy.afterTurn(main.conversationBytes - turnStart, calls + 2));
  }
  if (heavy !== undefined) main.writeHeavy(heavy.finish());
  main.write([JSON.stringify({ type: "last-prompt", lastPrompt: "done", leafUuid: ctx.parent, sessionId })]);
  main.close();
  stats.files++;
  stats.sessions++;
  stats.bytes += main.bytes;
  stats.heavyBytes += main.heavyBytes;
  stats.lines += main.lines;
  return main.file;
}

/** The Agent call in the main file (2 lines) plus its sidechain file and meta.json. */
function spawnAgent(projectDir: string, ctx: LineContext, n: number, stats: ArchiveStats, heavySource?: HeavySource): string[] {
  const { rng, pool } = ctx;
  const agentId = `a${rng.hex(16)}`;
  const toolUseId = `toolu_${rng.hex(24)}`;
  const description = `${pool.word()} ${pool.word()} agent ${n}`;
  const prompt = pool.sentence(rng.int(20, 60));
  const dir = path.join(projectDir, ctx.sessionId, "subagents");
  const side = new LineFile(path.join(dir, `agent-${agentId}.jsonl`));
  const sctx: LineContext = { rng, pool, sessionId: ctx.sessionId, cwd: ctx.cwd, agentId, clock: ctx.clock, parent: null };
  const heavy = heavySource === undefined ? undefined : new HeavyLines(sctx, heavySource.rng, heavySource.pool);
  // A subagent's snapshot is its own, smaller prompt (2.1.332's a-subagent sidechain: 97 KB in all).
  if (heavy !== undefined) side.writeHeavy(heavy.start(0.4));
  side.write([promptLine(sctx, prompt)]);
  const calls = rng.int(1, 5);
  for (let c = 0; c < calls; c++) side.write(toolPair(sctx, rng.int(300, 4000)));
  const final = pool.sentence(rng.int(20, 80));
  side.write([assistantLine(sctx, { type: "text", text: final })]);
  if (heavy !== undefined) side.writeHeavy([...heavy.afterTurn(side.conversationBytes, calls + 1), ...heavy.finish()]);
  side.close();
  fs.writeFileSync(
    path.join(dir, `agent-${agentId}.meta.json`),
    JSON.stringify({ agentType: "general-purpose", description, toolUseId, spawnDepth: 1 }),
  );
  stats.files++;
  stats.subagents++;
  stats.bytes += side.bytes;
  stats.heavyBytes += side.heavyBytes;
  stats.lines += side.lines;
  const result = {
    status: "completed",
    prompt,
    agentId,
    agentType: "general-purpose",
    content: [{ type: "text", text: final }],
    totalDurationMs: rng.int(1000, 90000),
    totalTokens: rng.int(1000, 90000),
    totalToolUseCount: calls,
  };
  return [
    assistantLine(ctx, { type: "tool_use", id: toolUseId, name: "Agent", input: { description, prompt, subagent_type: "general-purpose" } }),
    toolResultLine(ctx, toolUseId, `${final}\nagentId: ${agentId}`, result),
  ];
}
