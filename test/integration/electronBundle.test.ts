// The Electron main bundle (`npm run build` → out/main): its store worker is a file of its own
// that plain Node can start (no tsx, no .ts paths), so search works in the app; and the
// better-sqlite3 binary the app chooses really reaches the worker's `new Database`.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { chunksInWorker } from "../../src/main/search/chunkSource.js";
import { StoreError } from "../../src/main/platform/sqlite/errors.js";
import type { PackedChunk } from "../../src/main/search/chunkWire.js";
import { emptyFacts } from "../../src/main/search/extract.js";
import { SideIndex } from "../../src/main/search/sideIndex.js";
import { openStore } from "../../src/main/store/storeClient.js";
import { ensureMainBuilt, repoRoot } from "../support/ui/buildRenderer.js";
import { tempDirs } from "../support/tempDirs.js";

const projectsDir = path.resolve(repoRoot, "../shared/recordings/a-subagent/projects");
const haveRecording = fs.existsSync(projectsDir);
if (!haveRecording) console.warn(`electronBundle.test: ${projectsDir} is missing; skipping the indexing test`);

let mainOut: string;
const tempDir = tempDirs("baton-bundle-", "all");
let tmp: string;

beforeAll(() => {
  mainOut = ensureMainBuilt();
  tmp = tempDir();
});

function bundleFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".js")) files.push(full);
    }
  };
  walk(mainOut);
  return files;
}

function mainTranscript(dir: string): string {
  const file = fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).find((f) => f.endsWith(".jsonl") && !f.includes("subagents"));
  if (!file) throw new Error(`no main transcript under ${dir}`);
  return path.join(dir, file);
}

/** The first prompt typed in a transcript, and the session it belongs to. */
function firstPrompt(dir: string): { sessionId: string; word: string } {
  const file = mainTranscript(dir);
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line) as { type?: string; message?: { content?: unknown } };
    const content = entry.message?.content;
    if (entry.type === "user" && typeof content === "string") {
      const word = content.split(/\W+/).sort((a, b) => b.length - a.length)[0];
      if (word) return { sessionId: path.basename(file, ".jsonl"), word };
    }
  }
  throw new Error(`no typed prompt in ${file}`);
}

describe("the Electron main bundle", () => {
  it("emits the store's worker threads next to index.js", () => {
    for (const name of ["index.js", "storeWorker.js", "extractWorker.js"]) {
      expect(fs.existsSync(path.join(mainOut, name)), name).toBe(true);
    }
  });

  it("loads nothing through tsx and no .ts file at run time", () => {
    for (const file of bundleFiles()) {
      const code = fs.readFileSync(file, "utf8");
      const rel = path.relative(mainOut, file);
      expect(code, rel).not.toMatch(/(?:from|import)\s*\(?\s*["']tsx(?:\/[^"']*)?["']/);
      expect(code, rel).not.toMatch(/(?:from|import)\s*\(?\s*["'][^"']+\.tsx?["']/);
    }
  });

  it.skipIf(!haveRecording)("indexes and searches a recording through the bundled worker under plain Node", async () => {
    const store = await openStore({ dbPath: path.join(tmp, "bundle.db"), workerEntry: pathToFileURL(path.join(mainOut, "storeWorker.js")) });
    try {
      const report = await store.index(projectsDir);
      expect(report.filesNew).toBeGreaterThan(0);
      const { sessionId, word } = firstPrompt(projectsDir);
      const hits = await store.search(word);
      expect(hits.map((h) => h.sessionId)).toContain(sessionId);
      const session = (await store.listSessions()).find((s) => s.id === sessionId);
      const subagentFiles = fs.readdirSync(projectsDir, { recursive: true, encoding: "utf8" }).filter((f) => /subagents[\\/]agent-.*\.jsonl$/.test(f));
      expect(subagentFiles.length).toBeGreaterThan(0);
      expect(session?.subagentCount).toBe(subagentFiles.length);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!haveRecording)("reads transcripts on the bundled extract worker under plain Node", async () => {
    const file = mainTranscript(projectsDir);
    const chunks: PackedChunk[] = [];
    const job = { path: file, isMain: true, fromOffset: 0, fromLines: 0, facts: emptyFacts() };
    const entry = pathToFileURL(path.join(mainOut, "extractWorker.js"));
    // 0 would mean the worker could not start and the indexer silently read on its own thread.
    expect(await chunksInWorker([job], 64 * 1024, (c) => chunks.push(c), entry, { whileStarting: 0 })).toBe(1);
    expect(chunks.at(-1)?.offset).toBe(fs.statSync(file).size);
  });

  it.skipIf(!haveRecording)("writes the side index from the bundled extract worker, with the binary it is given", async () => {
    const file = mainTranscript(projectsDir);
    const dbPath = path.join(tmp, "side-bundle", "history.db");
    fs.mkdirSync(path.dirname(dbPath), { recursive: true });
    const side = SideIndex.open(dbPath);
    try {
      const bytes = fs.statSync(file).size;
      const from = side.reserve(bytes)!;
      const nativeBinding = path.join(repoRoot, "node_modules", "better-sqlite3", "build", "Release", "better_sqlite3.node");
      const chunks: PackedChunk[] = [];
      const job = { path: file, isMain: true, fromOffset: 0, fromLines: 0, facts: emptyFacts() };
      const entry = pathToFileURL(path.join(mainOut, "extractWorker.js"));
      const target = { path: side.path, from, to: from + bytes, divert: "always" as const, nativeBinding };
      expect(await chunksInWorker([job], 64 * 1024, (c) => chunks.push(c), entry, { whileStarting: 0, warmUpBytes: 0, side: target })).toBe(1);
      const withRows = chunks.filter((c) => c.batch.rows.count > 0);
      expect(withRows.length).toBeGreaterThan(0);
      for (const c of withRows) expect(c.batch.rows.sideLo).toBeGreaterThanOrEqual(from);
      const rows = withRows.reduce((n, c) => n + c.batch.rows.count, 0);
      expect(side.db.prepare("SELECT count(*) FROM side_text").pluck().get()).toBe(rows);
    } finally {
      side.close();
    }
  });

  it("opens SQLite with the binary it is given, and says so when that binary is missing", async () => {
    const workerEntry = pathToFileURL(path.join(mainOut, "storeWorker.js"));
    const nodeBuild = path.join(repoRoot, "node_modules", "better-sqlite3", "build", "Release", "better_sqlite3.node");
    const store = await openStore({ dbPath: path.join(tmp, "explicit.db"), workerEntry, nativeBinding: nodeBuild });
    expect(store.info.schemaVersion).toBeGreaterThan(0);
    await store.close();

    const missing = path.join(tmp, "electron-45.5.0-x64", "better_sqlite3.node");
    const error = await openStore({ dbPath: path.join(tmp, "missing.db"), workerEntry, nativeBinding: missing }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).message).toContain(missing);
  });
});
