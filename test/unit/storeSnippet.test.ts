// Snippets are cut from the row's text in JavaScript (the index keeps no copy of it), so they must
// mark what FTS5 matched: words without case or diacritics, phrases as one span, prefixes.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseQuery } from "../../src/main/search/ftsQuery.js";
import { snippetOf } from "../../src/main/search/snippet.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { tempDirs } from "../support/tempDirs.js";

const marks = { open: "«", close: "»", ellipsis: "…" };
const cut = (text: string, query: string, words = 16): string | undefined => snippetOf(text, parseQuery(query), words, marks);

describe("snippetOf", () => {
  it("marks each matched word in a short text and keeps the text whole", () => {
    expect(cut("  the parsing step is slow, slower than before.", "slow")).toBe("  the parsing step is «slow», slower than before.");
    expect(cut("refactor the Parser module", "pars*")).toBe("refactor the «Parser» module");
    expect(cut("Un Café crème, s'il vous plaît", "cafe CREME")).toBe("Un «Café» «crème», s'il vous plaît");
  });

  it("marks a phrase as one span, and only where its words follow each other", () => {
    expect(cut("output, then looks; parsed output looks right", '"output looks"')).toBe("output, then looks; parsed «output looks» right");
    expect(cut("the foo.bar call and foo bar", '"foo.bar"')).toBe("the «foo.bar» call and «foo bar»");
  });

  it("cuts a long text to a window around the matches, with an ellipsis where it cuts", () => {
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`);
    words[30] = "needle";
    const text = words.join(" ");
    const s = cut(text, "needle", 10);
    expect(s?.startsWith("…")).toBe(true);
    expect(s?.endsWith("…")).toBe(true);
    expect(s).toContain("«needle»");
    expect(s?.replace(/[«»…]/g, "").split(" ")).toHaveLength(10);
    // Near the start: no leading ellipsis, the text from its beginning.
    expect(cut(`needle ${text}`, "needle", 10)).toMatch(/^«needle» w0 w1 .*…$/);
  });

  it("prefers the window that shows every phrase of the query", () => {
    const words = Array.from({ length: 80 }, (_, i) => `w${i}`);
    words[5] = "alpha";
    words[50] = "alpha";
    words[53] = "beta";
    const s = cut(words.join(" "), "alpha beta", 10);
    expect(s).toContain("«alpha» w51 w52 «beta»");
  });

  it("gives nothing when nothing matches: the text is not the row that matched", () => {
    expect(cut("one two three four five", "zebra", 3)).toBeUndefined();
    expect(cut("slower", "slow")).toBeUndefined();
  });
});

const tempDir = tempDirs("baton-snippet-");

describe("search snippets read from the transcript", () => {
  it("come from the row's own line, and are empty, never wrong, once the file changed under the index", async () => {
    const dir = tempDir();
    const file = path.join(dir, "projects", "-home-user-code-x", "s1.jsonl");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const line = (uuid: string, text: string): string =>
      JSON.stringify({ type: "user", message: { role: "user", content: text }, uuid, timestamp: "2026-01-01T00:00:00.000Z", sessionId: "s1", cwd: "/home/user/code/x" });
    fs.writeFileSync(file, `${line("u1", "first line about the quokka")}\n${line("u2", "second line about a wombat")}\n`);
    const store = new StoreService({ dbPath: path.join(dir, "h.db") });
    try {
      await store.index(path.join(dir, "projects"));
      expect(store.search("wombat").map((h) => [h.ref, h.snippet])).toEqual([["2#0", "second line about a «wombat»"]]);
      // Rewritten with other text and not re-indexed yet: the hit stays, its snippet is empty.
      fs.writeFileSync(file, `${line("u9", "something else entirely, much longer than the first line was")}\n`);
      expect(store.search("quokka").map((h) => h.snippet)).toEqual([""]);
      await store.index(path.join(dir, "projects"));
      expect(store.search("quokka")).toEqual([]);
      expect(store.search("entirely").map((h) => h.snippet)).toEqual(["something else «entirely», much longer than the first line was"]);
    } finally {
      store.close();
    }
  });
});
