// The window marks a search hit's words in the transcript where the index matched them
// (shared/searchQuery.ts): whole words without case or diacritics, a trailing * a prefix, quoted
// words in a row, any two or more characters of a CJK run and one character anywhere in it. The
// marks agree with the snippets the index cuts, and a multi-megabyte output is marked at its end.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { matchSpans, queryPhrases, splitAtSpans } from "../../src/shared/searchQuery.js";
import { snippetOf } from "../../src/main/search/snippet.js";

/** The text with its marked spans between « and ». */
function marked(text: string, query: string): string {
  return splitAtSpans(text, matchSpans(text, queryPhrases(query)))
    .map((p) => (p.match ? `«${p.text}»` : p.text))
    .join("");
}

describe("marks of a query in a text", () => {
  it("whole words, without case or diacritics; a trailing * is a prefix", () => {
    expect(marked("The test tests a Test; contest.", "test")).toBe("The «test» tests a «Test»; contest.");
    expect(marked("The test tests a Test; contest.", "test*")).toBe("The «test» «tests» a «Test»; contest.");
    expect(marked("Un café crème, CAFE noir", "cafe")).toBe("Un «café» crème, «CAFE» noir");
    expect(marked("nothing here", "absent")).toBe("nothing here");
  });

  it("every word of the query, and quoted words only in a row", () => {
    expect(marked("brown fox, quick brown dog", "quick fox")).toBe("brown «fox», «quick» brown dog");
    expect(marked("brown fox, quick brown dog", '"quick brown"')).toBe("brown fox, «quick brown» dog");
    expect(marked("brown fox, fox brown", '"brown fox"')).toBe("«brown fox», fox brown");
    // A word and a phrase that starts with it are one mark, in the window and in the index's snippet.
    const both = 'alpha "alpha beta"';
    expect(marked("alpha\nbéta ", both)).toBe("«alpha\nbéta» ");
    expect(snippetOf("alpha\nbéta ", queryPhrases(both), 1000, { open: "«", close: "»", ellipsis: "…" })).toBe("«alpha\nbéta» ");
  });

  it("any two or more characters of a CJK run, and one character anywhere in it", () => {
    const text = "請先分析這個專案的結構。请用pnpm安装依赖。データベースを移行する。데이터베이스를 분석합니다";
    expect(marked(text, "分析")).toBe("請先«分析»這個專案的結構。请用pnpm安装依赖。データベースを移行する。데이터베이스를 분석합니다");
    expect(marked(text, "這個專案")).toContain("分析«這個專案»的結構");
    expect(marked(text, "構")).toContain("結«構»。");
    expect(marked(text, "安装")).toContain("请用pnpm«安装»依赖");
    expect(marked(text, "ベース")).toContain("データ«ベース»を");
    expect(marked(text, "분석")).toContain("«분석»합니다");
    // Characters that are not next to each other are no match.
    expect(marked(text, "分這")).toBe(text);
  });

  it("agrees with the index's snippets on whole texts", () => {
    const words = ["alpha", "Beta", "béta", "gamma", "分析", "這個", "分", "析", "x"];
    const text = fc.array(fc.constantFrom(...words, " ", ", ", "\n", "。"), { minLength: 1, maxLength: 30 }).map((parts) => parts.join(""));
    const query = fc.array(fc.constantFrom("alpha", "beta", "gam*", "分析", "析", '"alpha beta"'), { minLength: 1, maxLength: 2 }).map((q) => q.join(" "));
    fc.assert(
      fc.property(text, query, (t, q) => {
        const phrases = queryPhrases(q);
        // The snippet marks each instance; the highlight merges instances that touch.
        const snippet = snippetOf(t, phrases, 1000, { open: "«", close: "»", ellipsis: "…" }) ?? t;
        expect(marked(t, q).replaceAll("»«", "")).toBe(snippet.replaceAll("»«", ""));
      }),
      { numRuns: 300 },
    );
  });

  it("a word at the end of a 3 MB output, read a word at a time", () => {
    const lines: string[] = [];
    for (let i = 0, size = 0; size < 3 * 1024 * 1024; i++) {
      const line = `ok ${i} - test_case_${i % 977} passed`;
      lines.push(line);
      size += line.length + 1;
    }
    const text = `${lines.join("\n")}\nFAILED test_checkout_flow: zephyrquasar mismatch`;
    const spans = matchSpans(text, queryPhrases("zephyrquasar"));
    expect(spans).toEqual([{ start: text.length - "zephyrquasar mismatch".length, end: text.length - " mismatch".length }]);
    // A word in every line is marked at most MaxMatchSpans times.
    expect(matchSpans(text, queryPhrases("passed"), 50)).toHaveLength(50);
  });

  it("a query without words marks nothing", () => {
    expect(queryPhrases("  ,; ")).toEqual([]);
    expect(matchSpans("anything", [])).toEqual([]);
  });
});
