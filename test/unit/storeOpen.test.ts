import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import { main as baton } from "../../src/main/commands/baton.js";
import { bufferIO } from "../../src/main/commands/commandIO.js";
import { checkDbPath, defaultDbPath } from "../../src/main/platform/dbPath.js";
import { StoreError } from "../../src/main/platform/sqlite/errors.js";
import { LATEST_VERSION } from "../../src/main/search/migrations/index.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-open-");
afterEach(() => {
  vi.unstubAllEnvs();
});


/** A projects dir with one session whose prompt holds `word`. */
function projectsWith(dir: string, word: string): string {
  const projects = path.join(dir, "projects");
  const file = path.join(projects, "-home-user-code-x", "s1.jsonl");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const line = { type: "user", message: { role: "user", content: `find ${word} please` }, uuid: "u", timestamp: "2026-01-01T00:00:00.000Z", sessionId: "s1" };
  fs.writeFileSync(file, `${JSON.stringify(line)}\n`);
  return projects;
}

function openError(dbPath: string): StoreError {
  try {
    new StoreService({ dbPath }).close();
  } catch (err) {
    if (err instanceof StoreError) return err;
    throw err;
  }
  throw new Error("expected the store to refuse");
}

describe("opening the index", () => {
  it("uses WAL and the latest schema", () => {
    const dbPath = path.join(tempDir(), "sub", "h.db");
    const store = new StoreService({ dbPath });
    expect(store.info().schemaVersion).toBe(LATEST_VERSION);
    store.close();
    const db = new Database(dbPath, { readonly: true });
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
  });

  it("refuses a database written by a newer Baton and leaves it untouched", () => {
    const dbPath = path.join(tempDir(), "h.db");
    const db = new Database(dbPath);
    db.exec("CREATE TABLE future (x)");
    db.pragma(`user_version = ${LATEST_VERSION + 1}`);
    db.close();
    const before = fs.readFileSync(dbPath);
    const err = openError(dbPath);
    expect(err.code).toBe("newer_schema");
    expect(err.message).toContain(`schema version ${LATEST_VERSION + 1}`);
    expect(err.message).toContain("--db");
    expect(fs.readFileSync(dbPath).equals(before)).toBe(true);
  });

  it("moves a file that is not a database aside and rebuilds the index from the JSONL files", async () => {
    const dir = tempDir();
    const dbPath = path.join(dir, "h.db");
    const garbage = Buffer.from("this is not sqlite at all ".repeat(200));
    fs.writeFileSync(dbPath, garbage);
    const store = new StoreService({ dbPath });
    const movedTo = store.info().movedAsideTo;
    expect(movedTo).toMatch(/h\.db\.corrupt-\d{4}-\d{2}-\d{2}T/);
    expect(fs.readFileSync(movedTo!).equals(garbage)).toBe(true);
    await store.index(projectsWith(dir, "okapi"));
    expect(store.search("okapi")).toHaveLength(1);
    store.close();
  });

  it("moves a malformed database (damaged pages) aside and rebuilds it", async () => {
    const dir = tempDir();
    const dbPath = path.join(dir, "h.db");
    const projects = projectsWith(dir, "narwhal");
    const first = new StoreService({ dbPath });
    await first.index(projects);
    first.close();
    // Keep the 100-byte header (so SQLite still sees a database) and trash the schema page.
    const bytes = fs.readFileSync(dbPath);
    for (let i = 100; i < bytes.length; i++) bytes[i] = (i * 7919) & 0xff;
    fs.writeFileSync(dbPath, bytes);

    const store = new StoreService({ dbPath });
    const report = await store.index(projects);
    expect(report.movedAsideTo ?? store.info().movedAsideTo).toMatch(/\.corrupt-/);
    expect(report.filesNew).toBe(1);
    expect(store.search("narwhal").map((h) => h.sessionId)).toEqual(["s1"]);
    store.close();
  });

  it("damage found only by a later query: the query fails typed, the file is moved aside, the next index rebuilds", async () => {
    const dir = tempDir();
    const dbPath = path.join(dir, "h.db");
    const projects = projectsWith(dir, "axolotl");
    const first = new StoreService({ dbPath });
    await first.index(projects);
    first.close();
    // The schema stays intact, so opening works; the full-text table's pages are garbage.
    const raw = new Database(dbPath, { readonly: true });
    const roots = raw
      .prepare("SELECT rootpage FROM sqlite_master WHERE name IN ('search_text_data', 'search_text_docsize')")
      .pluck()
      .all() as number[];
    raw.close();
    const bytes = fs.readFileSync(dbPath);
    const pageSize = bytes.readUInt16BE(16);
    expect(roots).toHaveLength(2);
    for (const page of roots) {
      for (let i = (page - 1) * pageSize; i < page * pageSize; i++) bytes[i] = (i * 7919) & 0xff;
    }
    fs.writeFileSync(dbPath, bytes);

    const store = new StoreService({ dbPath });
    expect(store.info().movedAsideTo).toBeNull();
    let err: unknown;
    try {
      store.search("axolotl");
    } catch (e) {
      err = e;
    }
    expect((err as StoreError).code).toBe("corrupt_recovered");
    expect(store.info().movedAsideTo).toMatch(/\.corrupt-/);
    expect(fs.existsSync(store.info().movedAsideTo!)).toBe(true);
    await store.index(projects);
    expect(store.search("axolotl").map((h) => h.sessionId)).toEqual(["s1"]);
    store.close();
  });

  it("never puts the database inside ~/.claude", () => {
    const home = "/home/user";
    expect(() => checkDbPath("/home/user/.claude/baton.db", { home })).toThrow(StoreError);
    expect(() => checkDbPath("/home/user/.claude/projects/x/h.db", { home })).toThrow(/refusing/);
    expect(checkDbPath("/home/user/.claude-other/h.db", { home })).toBe("/home/user/.claude-other/h.db");
    expect(defaultDbPath({ home })).toBe("/home/user/.config/baton/history.db");
    expect(defaultDbPath({ home, xdgConfigHome: "/x/cfg" })).toBe("/x/cfg/baton/history.db");
  });

  it("never puts the database inside the projects folder in use, wherever it is", () => {
    const env = { home: "/home/user", projectsDir: "/data/claude/projects" };
    const refused = (dbPath: string): unknown => {
      try {
        checkDbPath(dbPath, env);
      } catch (err) {
        return err;
      }
      return undefined;
    };
    expect(refused("/data/claude/projects/h.db")).toMatchObject({
      code: "forbidden_path",
      message: "refusing to put Baton's database inside the Claude Code history folder /data/claude/projects (got /data/claude/projects/h.db); choose another --db",
    });
    expect(refused("/data/claude/projects/-home-user-code-x/s1/h.db")).toBeInstanceOf(StoreError);
    expect(refused("/data/claude/projects")).toBeInstanceOf(StoreError);
    expect(refused("/data/claude/cfg/../projects/h.db")).toBeInstanceOf(StoreError);
    expect(checkDbPath("/data/claude/projects-old/h.db", env)).toBe("/data/claude/projects-old/h.db");
    expect(checkDbPath("/data/claude/h.db", env)).toBe("/data/claude/h.db");
  });

  it("refuses, and creates nothing, when the database would go inside $CLAUDE_CONFIG_DIR/projects", () => {
    const configDir = tempDir();
    const projects = projectsWith(configDir, "axolotl");
    vi.stubEnv("CLAUDE_CONFIG_DIR", configDir);
    const err = openError(path.join(projects, "h.db"));
    expect(err.code).toBe("forbidden_path");
    expect(err.message).toContain(`history folder ${projects} `);
    expect(fs.readdirSync(projects)).toEqual(["-home-user-code-x"]);
  });

  it("`baton index` refuses a --db inside its --projects-dir, says why, and writes nothing there", async () => {
    const projects = projectsWith(tempDir(), "axolotl");
    const io = bufferIO();
    const code = await baton(["index", "--projects-dir", projects, "--db", path.join(projects, "baton", "history.db")], io);
    expect(code).toBe(1);
    expect(io.err()).toBe(`baton index: refusing to put Baton's database inside the Claude Code history folder ${projects} (got ${path.join(projects, "baton", "history.db")}); choose another --db\n`);
    expect(fs.readdirSync(projects)).toEqual(["-home-user-code-x"]);
  });
});
