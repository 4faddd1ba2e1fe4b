// What a search hit shows: the row's own session, kind and place, and a snippet with the matched
// words marked, for plain words, phrases and prefixes alike.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StoreService } from "../../src/main/store/storeService.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-snip-", "all");
let dir: string;
let store: StoreService;

function line(sessionId: string, n: number, text: string): string {
  const timestamp = new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
  return JSON.stringify({ type: "user", message: { role: "user", content: text }, uuid: `u${n}`, timestamp, sessionId, cwd: "/home/user/code/x" });
}

beforeAll(async () => {
  dir = tempDir();
  const project = path.join(dir, "projects", "-home-user-code-x");
  fs.mkdirSync(project, { recursive: true });
  const texts = ["refactor the parser module", "the parsing step is slow", "unrelated words only", "parsed output looks right"];
  for (const [s, sessionId] of ["s1", "s2"].entries()) {
    const lines = texts.map((t, i) => line(sessionId, s * 10 + i, `${t} in ${sessionId}`));
    fs.writeFileSync(path.join(project, `${sessionId}.jsonl`), `${lines.join("\n")}\n`);
  }
  // A refused call: the CLI wraps its message in <tool_use_error> for the model.
  const refused = [
    JSON.stringify({ type: "assistant", uuid: "a1", parentUuid: null, sessionId: "s3", timestamp: "2026-01-01T00:01:00.000Z", cwd: "/home/user/code/x", message: { id: "m1", role: "assistant", model: "m", content: [{ type: "tool_use", id: "toolu_1", name: "Edit", input: { file_path: "/home/user/code/x/a.txt" } }] } }),
    JSON.stringify({ type: "user", uuid: "u2", parentUuid: "a1", sessionId: "s3", timestamp: "2026-01-01T00:01:01.000Z", cwd: "/home/user/code/x", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", is_error: true, content: "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>" }] } }),
  ];
  fs.writeFileSync(path.join(project, "s3.jsonl"), `${refused.join("\n")}\n`);
  store = new StoreService({ dbPath: path.join(dir, "h.db") });
  await store.index(path.join(dir, "projects"));
});
afterAll(() => {
  store.close();
});

describe("search hits", () => {
  it("a tool error's snippet is its message, without the CLI's <tool_use_error> tags", () => {
    const hits = store.search("read yet");
    expect(hits.map((h) => [h.sessionId, h.kind, h.snippet])).toEqual([["s3", "tool_output", "File has not been «read» «yet». «Read» it first before writing to it."]]);
  });

  it("a prefix search marks the matched word in every hit, and each hit names its own session and line", () => {
    const hits = store.search("pars*");
    expect(hits).toHaveLength(6);
    for (const h of hits) {
      expect(h.snippet).toMatch(/«pars(er|ing|ed)»/);
      expect(h.snippet).toContain(`in ${h.sessionId}`);
      expect(h.kind).toBe("prompt");
    }
    const refs = hits.map((h) => `${h.sessionId} ${h.ref} ${h.snippet.match(/«(\w+)»/)?.[1]}`).sort();
    expect(refs).toEqual(["s1 1#0 parser", "s1 2#0 parsing", "s1 4#0 parsed", "s2 1#0 parser", "s2 2#0 parsing", "s2 4#0 parsed"]);
  });

  it("plain words and phrases get the snippet of their own row", () => {
    // Both sessions say it; each hit shows its own line, not the first match's.
    expect(store.search("slow").map((h) => `${h.sessionId}: ${h.snippet}`).sort()).toEqual([
      "s1: the parsing step is «slow» in s1",
      "s2: the parsing step is «slow» in s2",
    ]);
    const phrase = store.search('"output looks"');
    expect(phrase).toHaveLength(2);
    for (const h of phrase) expect(h.snippet).toBe(`parsed «output looks» right in ${h.sessionId}`);
  });

  it("a session filter keeps only that session's hits", () => {
    const hits = store.search("pars*", { sessionId: "s2" });
    expect(hits.map((h) => h.sessionId)).toEqual(["s2", "s2", "s2"]);
    expect(hits.every((h) => h.snippet.includes("«pars"))).toBe(true);
  });
});
