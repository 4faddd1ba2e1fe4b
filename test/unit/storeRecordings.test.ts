// The index built from the real CLI recordings (../shared/recordings/*/projects).
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StoreService } from "../../src/main/store/storeService.js";
import { DEFAULT_RECORDING_VERSION, fixtureRecordingsDirFor, selectedRecordingVersion, sharedRecordingsDir } from "../support/recordings.js";
import { tempDirs } from "../support/tempDirs.js";

// 2.1.197: the shared recordings; another version (BATON_RECORDINGS): its committed set.
const version = selectedRecordingVersion();
const recordings = version === DEFAULT_RECORDING_VERSION ? sharedRecordingsDir : fixtureRecordingsDirFor(version);
const present = fs.existsSync(recordings);
if (!present) console.warn(`storeRecordings: SKIPPED, no recordings at ${recordings}`);

type Line = Record<string, unknown>;
const readLines = (file: string): Line[] =>
  fs.readFileSync(file, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Line);
const content = (line: Line): unknown => (line["message"] as { content?: unknown } | undefined)?.content;

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? walk(p) : [p];
  });
}

describe.skipIf(!present)("index of the recordings", () => {
  const tempDir = tempDirs("baton-rec-", "all");
  let tmp: string;
  let projects: string;
  let store: StoreService;

  beforeAll(async () => {
    tmp = tempDir();
    projects = path.join(tmp, "projects");
    for (const scenario of fs.readdirSync(recordings)) {
      const src = path.join(recordings, scenario, "projects");
      if (fs.existsSync(src)) fs.cpSync(src, projects, { recursive: true });
    }
    store = new StoreService({ dbPath: path.join(tmp, "h.db") });
    await store.index(projects);
  });
  afterAll(() => {
    store?.close();
  });

  const mainFiles = (): string[] =>
    walk(projects).filter((f) => f.endsWith(".jsonl") && path.dirname(path.dirname(f)) === projects);

  it("lists every main transcript as a session, newest first", () => {
    const sessions = store.listSessions();
    expect(sessions.map((s) => s.id).sort()).toEqual(mainFiles().map((f) => path.basename(f, ".jsonl")).sort());
    const times = sessions.map((s) => s.lastTime ?? "");
    expect(times).toEqual([...times].sort().reverse());
  });

  it("finds text that occurs only in a depth-2 sidechain and names that subagent", () => {
    // A session whose deepest agent is at depth 2 (2.1.197: e-nested-agents; 2.1.332: several).
    const depthOf = (f: string) => (JSON.parse(fs.readFileSync(f, "utf8")) as { spawnDepth?: number }).spawnDepth ?? 1;
    const metaDirs = [...new Set(walk(projects).filter((f) => f.endsWith(".meta.json")).map((f) => path.dirname(f)))].sort();
    const sessionDir = metaDirs.find((dir) => {
      const depths = fs.readdirSync(dir).filter((n) => n.endsWith(".meta.json")).map((n) => depthOf(path.join(dir, n)));
      return Math.max(...depths) === 2;
    })!;
    const metas = fs.readdirSync(sessionDir).filter((n) => n.endsWith(".meta.json")).map((n) => ({
      agentId: n.slice("agent-".length, -".meta.json".length),
      ...(JSON.parse(fs.readFileSync(path.join(sessionDir, n), "utf8")) as { description: string; spawnDepth: number }),
    }));
    const inner = metas.find((m) => m.spawnDepth === 2)!;
    const outer = metas.find((m) => m.spawnDepth === 1)!;
    // The inner agent's own Bash description: text nobody else wrote.
    const innerFile = path.join(sessionDir, `agent-${inner.agentId}.jsonl`);
    const toolUse = readLines(innerFile)
      .flatMap((l) => (Array.isArray(content(l)) ? (content(l) as Line[]) : []))
      .find((b) => b["type"] === "tool_use")!;
    const phrase = (toolUse["input"] as { description: string }).description;
    for (const f of walk(projects).filter((p) => p !== innerFile)) {
      expect(fs.readFileSync(f, "utf8").toLowerCase()).not.toContain(phrase.toLowerCase());
    }

    const hits = store.search(`"${phrase}"`);
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) {
      expect(hit.subagent).toEqual({ agentId: inner.agentId, description: inner.description, agentType: "general-purpose" });
      expect(hit.snippet).toContain("«");
    }
    const inSession = store.search("agent", { sessionId: hits[0]!.sessionId, limit: 100 });
    expect(inSession.length).toBeGreaterThan(0);
    expect(new Set(inSession.map((h) => h.sessionId))).toEqual(new Set([hits[0]!.sessionId]));
    expect(store.search("agent", { limit: 100 }).some((h) => h.sessionId !== hits[0]!.sessionId)).toBe(true);
    const agents = store.listSubagents(hits[0]!.sessionId);
    expect(agents.find((a) => a.agentId === inner.agentId)?.parentAgentId).toBe(outer.agentId);
    expect(agents.find((a) => a.agentId === outer.agentId)?.parentAgentId).toBeNull();
  });

  it("finds each session's first prompt, as a prompt of that session", () => {
    let checked = 0;
    for (const file of mainFiles()) {
      const first = readLines(file).find((l) => l["type"] === "user" && typeof content(l) === "string" && l["isMeta"] !== true);
      if (!first) continue;
      const text = (content(first) as string).split("\n")[0]!;
      const hits = store.search(`"${text}"`, { limit: 100 });
      expect(hits.some((h) => h.sessionId === first["sessionId"] && h.kind === "prompt" && h.subagent === null), text).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
  });

  it("finds tool output, in the main thread and in a subagent's sidechain", () => {
    const textOf = (c: unknown): string =>
      typeof c === "string" ? c : Array.isArray(c) ? (c as Line[]).map((b) => (typeof b["text"] === "string" ? b["text"] : "")).join("\n") : "";
    const outputs = walk(projects)
      .filter((f) => f.endsWith(".jsonl"))
      .flatMap((f) =>
        readLines(f).flatMap((l) =>
          (Array.isArray(content(l)) ? (content(l) as Line[]) : [])
            .filter((b) => b["type"] === "tool_result")
            .map((b) => ({ word: /[A-Za-z][\w-]{5,}/.exec(textOf(b["content"]))?.[0], sessionId: l["sessionId"] as string, agentId: (l["agentId"] as string | undefined) ?? null }))
            .filter((o): o is { word: string; sessionId: string; agentId: string | null } => o.word !== undefined),
        ),
      );
    const inSidechain = outputs.find((o) => o.agentId !== null)!;
    const inMain = outputs.find((o) => o.agentId === null)!;
    for (const o of [inSidechain, inMain]) {
      const hits = store.search(`"${o.word}"`, { limit: 500 });
      expect(
        hits.some((h) => h.kind === "tool_output" && h.sessionId === o.sessionId && (h.subagent?.agentId ?? null) === o.agentId),
        o.word,
      ).toBe(true);
    }
  });

  it("titles a session with its custom or ai title, and a background agent with its notified status", () => {
    // 2.1.197 writes ai-title lines; 2.1.332 writes none, only a custom-title when a title is set.
    // A session's newest custom title wins over any ai title.
    const titles = new Map<string, string>();
    for (const f of mainFiles()) {
      const lines = readLines(f);
      const custom = lines.filter((l) => l["type"] === "custom-title").at(-1);
      const ai = lines.filter((l) => l["type"] === "ai-title").at(-1);
      const line = custom ?? ai;
      if (line !== undefined) titles.set(line["sessionId"] as string, (custom?.["customTitle"] ?? ai?.["aiTitle"]) as string);
    }
    expect(titles.size).toBeGreaterThan(0);
    for (const [sessionId, title] of titles) {
      expect(store.listSessions().find((s) => s.id === sessionId)?.title).toBe(title);
    }
    const notified = mainFiles().flatMap((f) =>
      readLines(f)
        .map((l) => (typeof content(l) === "string" ? (content(l) as string) : ""))
        .map((text) => /<task-id>([^<]+)<\/task-id>[\s\S]*<status>([^<]+)<\/status>/.exec(text))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => ({ file: f, agentId: m[1]!, status: m[2]! })),
    );
    // Notifications also report long Bash tasks, which are no subagents: check the ones that are.
    const agentNotes = notified.filter((n) => store.listSubagents(path.basename(n.file, ".jsonl")).some((a) => a.agentId === n.agentId));
    expect(agentNotes.length).toBeGreaterThan(0);
    for (const n of agentNotes) {
      const agent = store.listSubagents(path.basename(n.file, ".jsonl")).find((a) => a.agentId === n.agentId);
      expect(agent?.status).toBe(n.status);
    }
  });
});
