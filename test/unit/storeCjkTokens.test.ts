// CJK text is written without spaces, so the index holds each run of it as its overlapping pairs
// and its last character (shared/searchTokens.ts): any two or more characters of a run are a phrase of pairs,
// one character is a prefix. FTS5's unicode61 tokenizer must make of the transformed text exactly
// the words snippets are cut and marked by, and a query must be transformed alike.
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { parseQuery, toFtsQuery } from "../../src/main/search/ftsQuery.js";
import { snippetOf } from "../../src/main/search/snippet.js";
import { ftsText, MAY_HOLD_CJK, tokenize } from "../../src/shared/searchTokens.js";

const marks = { open: "«", close: "»", ellipsis: "…" };
const cut = (text: string, query: string, words = 40): string | undefined => snippetOf(text, parseQuery(query), words, marks);
const words = (text: string): string[] => tokenize(text).map((t) => t.folded);

const Texts = [
  "請先分析這個專案的結構",
  "请用pnpm安装依赖，然后运行测试。",
  "データベースを移行する（ガイド参照）",
  "데이터베이스를 분석합니다. 다음 단계는?",
  "第3章 𠀀𠀁𠀂 は ｶﾞｲﾄﾞ と ＡＢＣ123",
  "Un café crème — naïve façade; plain ASCII words_and_more 42",
  "混在テキスト한국어mixed中文end",
];

describe("CJK words", () => {
  it("the cheap first look covers every CJK letter and digit there is", () => {
    const cjk = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]/u;
    const word = /[\p{L}\p{N}\p{Co}]/u;
    const missed: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      if (word.test(c) && cjk.test(c) && !MAY_HOLD_CJK.test(c)) missed.push(cp.toString(16));
    }
    expect(missed).toEqual([]);
  });

  it("a run is its pairs and then its last character; other words stay whole, beside it", () => {
    expect(words("請先分析這個")).toEqual(["請先", "先分", "分析", "析這", "這個", "個"]);
    expect(words("请用pnpm安装")).toEqual(["请用", "用", "pnpm", "安装", "装"]);
    expect(words("分")).toEqual(["分"]);
    // Astral ideographs are one character each; their pairs are two code points.
    expect(words("x𠀀𠀁y")).toEqual(["x", "𠀀𠀁", "𠀁", "y"]);
    // Kana keep their voicing marks, as unicode61 does.
    expect(words("ガイド")).toEqual(["ガイ", "イド", "ド"]);
    const t = tokenize("ab 分析這");
    expect(t.map((x) => "ab 分析這".slice(x.start, x.end))).toEqual(["ab", "分析", "析這", "這"]);
  });

  it("unicode61 makes of the transformed text exactly the words tokenize finds", () => {
    const db = new Database(":memory:");
    try {
      db.exec("CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'unicode61 remove_diacritics 2'); CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')");
      const insert = db.prepare("INSERT INTO t (rowid, x) VALUES (?, ?)");
      Texts.forEach((text, i) => insert.run(i + 1, ftsText(text)));
      const indexed = db.prepare("SELECT term FROM v WHERE doc = ? ORDER BY offset").pluck();
      Texts.forEach((text, i) => expect(indexed.all(i + 1), text).toEqual(words(text)));
    } finally {
      db.close();
    }
  });

  it("text without CJK goes to the index as it is", () => {
    for (const text of ["plain words", "dash — and “quotes” … and ✅ and 🎉", ""]) expect(ftsText(text)).toBe(text);
  });

  it("a query: its pairs, the last character of a run left out where the text may go on, one character a prefix", () => {
    expect(parseQuery("分析")).toEqual([{ text: " 分析 ", tokens: ["分析"], prefix: false }]);
    expect(parseQuery("分析這個")).toEqual([{ text: " 分析 析這 這個 ", tokens: ["分析", "析這", "這個"], prefix: false }]);
    expect(parseQuery("析")).toEqual([{ text: " 析 ", tokens: ["析"], prefix: true }]);
    // Before other words a run ends in the text too: its last character is a word there.
    expect(parseQuery('"用pnpm"')).toEqual([{ text: " 用 pnpm", tokens: ["用", "pnpm"], prefix: false }]);
    expect(parseQuery("请用pnpm安装").map((p) => p.tokens)).toEqual([["请用", "用", "pnpm", "安装"]]);
    expect(toFtsQuery("foo* 分析 析")).toBe('"foo"* " 分析 " " 析 "*');
  });

  it("finds in an index any two or more characters of a run, one character anywhere in it, and nothing else", () => {
    const db = new Database(":memory:");
    try {
      db.exec("CREATE VIRTUAL TABLE t USING fts5(x, content = '', tokenize = 'unicode61 remove_diacritics 2')");
      const insert = db.prepare("INSERT INTO t (rowid, x) VALUES (?, ?)");
      Texts.forEach((text, i) => insert.run(i + 1, ftsText(text)));
      const match = db.prepare("SELECT rowid FROM t WHERE t MATCH ? ORDER BY rowid").pluck();
      const found = (q: string): unknown[] => match.all(toFtsQuery(q));
      const run = "請先分析這個專案的結構";
      for (let from = 0; from < run.length; from++) {
        for (let to = from + 1; to <= run.length; to++) expect(found(run.slice(from, to)), run.slice(from, to)).toEqual([1]);
      }
      expect(found("分這")).toEqual([]);
      expect(found("pnpm")).toEqual([2]);
      expect(found("安装依赖")).toEqual([2]);
      expect(found("移行")).toEqual([3]);
      expect(found("ガイド")).toEqual([3]);
      expect(found("분석")).toEqual([4]);
      expect(found("𠀁𠀂")).toEqual([5]);
      expect(found("ｶﾞｲ")).toEqual([5]);
      expect(found("テキスト")).toEqual([7]);
      expect(found("한국")).toEqual([7]);
      expect(found("中文")).toEqual([7]);
      expect(found("mixed")).toEqual([7]);
      expect(found("mixed 中文")).toEqual([7]);
      // Latin words keep word matching, prefixes and phrases.
      expect(found("cafe")).toEqual([6]);
      expect(found("word*")).toEqual([6]);
      expect(found('"plain ASCII"')).toEqual([6]);
      expect(found("plai")).toEqual([]);
    } finally {
      db.close();
    }
  });

  it("a snippet marks the characters that matched", () => {
    expect(cut("請先分析這個專案", "分析")).toBe("請先«分析»這個專案");
    expect(cut("請先分析這個專案", "分析這個")).toBe("請先«分析這個»專案");
    expect(cut("請先分析這個專案", "析")).toBe("請先分«析»這個專案");
    expect(cut("請先分析這個專案", "案")).toBe("請先分析這個專«案»");
    expect(cut("请用pnpm安装", "pnpm 安装")).toBe("请用«pnpm»«安装»");
    expect(cut("分析分析", "分析")).toBe("«分析»«分析»");
  });
});
