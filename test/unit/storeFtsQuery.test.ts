import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { StoreError } from "../../src/main/platform/sqlite/errors.js";
import { toFtsQuery } from "../../src/main/search/ftsQuery.js";

const db = new Database(":memory:");
db.exec("CREATE VIRTUAL TABLE t USING fts5(text, tokenize = 'unicode61 remove_diacritics 2')");
const insert = db.prepare("INSERT INTO t (text) VALUES (?)");
for (const text of [
  "the quick brown fox jumps",
  "brown bears eat honey",
  "quick thinking saves the day",
  'a "quoted" NEAR(thing) AND -minus col:value',
  "café résumé naïve",
]) {
  insert.run(text);
}
afterAll(() => db.close());
const match = (input: string): string[] =>
  db.prepare("SELECT text FROM t WHERE t MATCH ? ORDER BY rowid").pluck().all(toFtsQuery(input)) as string[];

describe("user queries to FTS5", () => {
  it("requires every word", () => {
    expect(match("quick brown")).toEqual(["the quick brown fox jumps"]);
    expect(match("brown")).toHaveLength(2);
  });

  it('matches "quoted words" as a phrase', () => {
    expect(match('"brown fox"')).toEqual(["the quick brown fox jumps"]);
    expect(match('"fox brown"')).toEqual([]);
  });

  it("keeps a trailing * as a prefix search", () => {
    expect(match("thinki*")).toEqual(["quick thinking saves the day"]);
    expect(match("thinki")).toEqual([]);
  });

  it("treats FTS5 operators and punctuation typed by a person as plain words", () => {
    expect(match("NEAR(thing)")).toEqual(['a "quoted" NEAR(thing) AND -minus col:value']);
    expect(match("-minus col:value AND")).toEqual(['a "quoted" NEAR(thing) AND -minus col:value']);
    expect(match('"unterminated quote')).toEqual([]);
    expect(match("cafe resume")).toEqual(["café résumé naïve"]);
  });

  it("rejects a query with nothing to search for, with a typed error", () => {
    for (const input of ["", "   ", '""', "* - : ()"]) {
      expect(() => toFtsQuery(input)).toThrow(StoreError);
    }
  });

  it("never produces an FTS5 syntax error, whatever is typed", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 40 }), (input) => {
        let q: string;
        try {
          q = toFtsQuery(input);
        } catch (err) {
          expect((err as StoreError).code).toBe("bad_query");
          return;
        }
        expect(() => db.prepare("SELECT count(*) FROM t WHERE t MATCH ?").get(q)).not.toThrow();
      }),
      { numRuns: 2000 },
    );
  });
});
