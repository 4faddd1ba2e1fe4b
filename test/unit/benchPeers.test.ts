// bench:peers' pure parts: the targets' arithmetic (which figure each compares, PASS/FAIL at the
// boundary), the ripgrep arguments CloudCLI runs, and reading what the peers print. The benchmark
// itself is not a test; these are what its printed verdicts rest on.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ccusageSessions } from "../../bench/peers/ccusage.js";
import { cloudCliSearch, cloudCliWords, FilesPerRg, matchedFiles, rgArgumentLists, sessionFiles } from "../../bench/peers/cloudCliSearch.js";
import { peerFolder } from "../../bench/peers/install.js";
import { reportedRows, sideBySide, targetRows, type ArchiveFigures } from "../../bench/peers/report.js";
import { parseTimeOutput } from "../../bench/peers/timed.js";
import { fastest, median, passFail, percentile, verdict } from "../../bench/peers/verdict.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-bench-peers-");

describe("the targets' verdicts", () => {
  it("judges 'at most 0.5×' on Baton / peer, passing at the boundary and failing just past it", () => {
    expect(verdict({ kind: "atMost", ratio: 0.5 }, 50, 100)).toMatchObject({ ratio: 0.5, pass: true, shown: "0.50×", target: "≤ 0.5×" });
    expect(verdict({ kind: "atMost", ratio: 0.5 }, 51, 100).pass).toBe(false);
  });

  it("judges '20× faster' on peer / Baton", () => {
    expect(verdict({ kind: "fasterBy", factor: 20 }, 5, 100)).toMatchObject({ ratio: 20, pass: true, shown: "20.0× faster" });
    expect(verdict({ kind: "fasterBy", factor: 20 }, 6, 100)).toMatchObject({ pass: false, shown: "16.7× faster" });
    expect(verdict({ kind: "fasterBy", factor: 20 }, 0, 100).pass).toBe(true);
  });

  it("judges memory as strictly less: an equal peak fails", () => {
    expect(passFail(verdict({ kind: "less" }, 99, 100))).toBe("PASS");
    expect(passFail(verdict({ kind: "less" }, 100, 100))).toBe("FAIL");
  });

  it("refuses a figure that is not a number instead of printing a verdict on it", () => {
    expect(() => verdict({ kind: "less" }, Number.NaN, 100)).toThrow(/not a number/);
  });

  it("takes medians and nearest-rank percentiles as bench:history does", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    const xs = Array.from({ length: 50 }, (_, i) => 50 - i);
    expect(percentile(xs, 50)).toBe(25);
    expect(percentile(xs, 95)).toBe(48);
    expect(fastest([{ value: 3 }, { value: Number.NaN }, { value: 2 }])).toEqual({ value: 2 });
  });
});

function figures(overrides: Partial<ArchiveFigures> = {}): ArchiveFigures {
  return {
    archive: "2.1.197 lines",
    runs: 3,
    coldList: { ms: 800, peakKb: 120_000 },
    warmList: { ms: 80, peakKb: 130_000 },
    peerScans: [
      { label: "ccusage native", ms: 2400, peakKb: 540_000 },
      { label: "ccusage JS", ms: 30_000, peakKb: 900_000 },
      { label: "claude-code-ui getProjects()", ms: 1500, peakKb: 100_000 },
    ],
    search: { queries: 50, batonP50: 5, batonP95: 20, batonPeakKb: 90_000, rgLabel: "rg", rgP50: 1000, rgP95: 300, rgPeakKb: 8000 },
    firstScreen: { baton: { ms: 20, peakKb: 60_000 }, batonBlocks: 50, peer: { label: "claude-code-ui getSessionMessages()", ms: 3000, peakKb: 700_000 }, peerMessages: 20 },
    failed: [],
    ...overrides,
  };
}

describe("which figures the targets compare", () => {
  const rows = targetRows(figures());
  const row = (start: string): (typeof rows)[number] => {
    const found = rows.find((r) => r.figure.startsWith(start));
    if (found === undefined) throw new Error(`no row ${start}: ${rows.map((r) => r.figure).join("; ")}`);
    return found;
  };

  it("compares the cold and warm lists with the fastest peer's full scan, not the first one", () => {
    expect(row("session list, cold").peer).toBe("claude-code-ui getProjects() 1500 ms");
    expect(row("session list, cold").verdict).toMatchObject({ pass: false, shown: "0.53×" });
    expect(row("session list, warm").verdict).toMatchObject({ pass: false, shown: "18.8× faster" });
  });

  it("compares search at p50 with rg's p50 and at p95 with rg's p95", () => {
    expect(row("search p50").verdict).toMatchObject({ pass: true, shown: "200× faster" });
    expect(row("search p95").verdict).toMatchObject({ pass: false, shown: "15.0× faster" });
  });

  it("compares the cold list's peak with every peer's, the first screen's with the reader's, search's with rg's", () => {
    const memory = rows.filter((r) => r.figure.startsWith("peak RSS"));
    expect(memory.map((r) => [r.figure.replace(/^peak RSS, /, ""), passFail(r.verdict)])).toEqual([
      ["session list cold / ccusage native's full scan", "PASS"],
      ["session list cold / ccusage JS's full scan", "PASS"],
      ["session list cold / claude-code-ui getProjects()'s full scan", "FAIL"],
      ["first screen of the big session / claude-code-ui getSessionMessages()", "PASS"],
      ["search / one rg process", "FAIL"],
    ]);
  });

  it("leaves out what was not measured: no search rows without queries, no memory row without a peak", () => {
    const { search: _search, ...noSearch } = figures();
    const without = targetRows({ ...noSearch, peerScans: [{ label: "ccusage native", ms: 2400, peakKb: undefined }] });
    expect(without.some((r) => r.figure.startsWith("search"))).toBe(false);
    expect(without.some((r) => r.figure.includes("ccusage native's full scan"))).toBe(false);
    expect(without.filter((r) => r.figure.startsWith("session list"))).toHaveLength(2);
  });

  it("says which peer failed beside the figures, and judges only against the peers measured", () => {
    const f = figures({
      peerScans: [{ label: "ccusage native", ms: 2400, peakKb: 540_000 }],
      firstScreen: { baton: { ms: 20, peakKb: 60_000 }, batonBlocks: 50 },
      failed: ["ccusage JS: exited 134: JavaScript heap out of memory", "claude-code-ui getSessionMessages(): exited 1"],
    });
    const rows = targetRows(f);
    expect(rows.find((r) => r.figure.startsWith("session list, cold"))?.verdict).toMatchObject({ pass: true, shown: "0.33×" });
    expect(rows.some((r) => r.figure.includes("first screen"))).toBe(false);
    const table = sideBySide(f);
    expect(table).toContain("FAILED, left out: ccusage JS: exited 134: JavaScript heap out of memory");
    expect(table.find((l) => l.startsWith("| first screen"))).toContain("claude-code-ui: failed");
    expect(reportedRows(f)).toEqual([]);
  });

  it("reports the first screen beside claude-code-ui's first page as a ratio, with no target", () => {
    expect(reportedRows(figures())).toEqual([
      { figure: "first screen of the big session (50 blocks) / claude-code-ui getSessionMessages()'s first page (20 messages)", value: "20.0 ms vs 3000 ms: 0.01×" },
    ]);
  });
});

describe("ripgrep as CloudCLI runs it", () => {
  it("searches the lower-cased words a person would type for Baton's query: no phrase quotes, no prefix stars", () => {
    expect(cloudCliWords("Vexor")).toEqual(["vexor"]);
    expect(cloudCliWords("alpha  Beta")).toEqual(["alpha", "beta"]);
    expect(cloudCliWords('"one two three"')).toEqual(["one", "two", "three"]);
    expect(cloudCliWords("quant*")).toEqual(["quant"]);
    expect(cloudCliWords("a*b")).toEqual(["a*b"]);
  });

  it("runs one rg per 40 files with CloudCLI's flags, the word after --", () => {
    const files = Array.from({ length: 85 }, (_, i) => `/h/p/${i}.jsonl`);
    const lists = rgArgumentLists("-v", files);
    expect(FilesPerRg).toBe(40);
    expect(lists.map((l) => l.length - 6)).toEqual([40, 40, 5]);
    expect(lists[0]!.slice(0, 7)).toEqual(["--files-with-matches", "--no-messages", "--ignore-case", "--fixed-strings", "--", "-v", "/h/p/0.jsonl"]);
    expect(lists.flatMap((l) => l.slice(6))).toEqual(files);
  });

  it("reads rg's file list and skips blank lines", () => {
    expect(matchedFiles("/a.jsonl\r\n\n/b.jsonl\n")).toEqual(["/a.jsonl", "/b.jsonl"]);
  });

  const hasRg = spawnSync("rg", ["--version"]).status === 0;
  it.skipIf(!hasRg)("keeps the session files holding every word, over main transcripts only", async () => {
    const projects = tempDir();
    const write = (rel: string, text: string): void => {
      fs.mkdirSync(path.dirname(path.join(projects, rel)), { recursive: true });
      fs.writeFileSync(path.join(projects, rel), text);
    };
    write("-home-user-code-a/s1.jsonl", '{"text":"Alpha and BETA"}\n');
    write("-home-user-code-a/s2.jsonl", '{"text":"alpha only"}\n');
    write("-home-user-code-b/s3.jsonl", '{"text":"beta, then alpha"}\n');
    write("-home-user-code-a/s1/subagents/agent-x.jsonl", '{"text":"alpha beta"}\n');
    const files = sessionFiles(projects);
    expect(files.map((f) => path.relative(projects, f))).toEqual(["-home-user-code-a/s1.jsonl", "-home-user-code-a/s2.jsonl", "-home-user-code-b/s3.jsonl"]);
    const found = await cloudCliSearch("rg", '"alpha beta"', files);
    expect(found.files).toBe(2);
    expect(found.processes).toBe(2);
    expect((await cloudCliSearch("rg", "gamma", files)).files).toBe(0);
  });
});

describe("reading what the peers print", () => {
  it("counts ccusage's sessions from its --json output and says when there is none", () => {
    expect(ccusageSessions('{"sessions":[{"sessionId":"a"},{"sessionId":"b"}],"totals":{}}')).toBe(2);
    expect(() => ccusageSessions("No Claude usage data found.")).toThrow(/no JSON/);
    expect(() => ccusageSessions('{"daily":[]}')).toThrow(/no sessions array/);
  });

  it("reads GNU time's peak, past a 'Command exited' line", () => {
    expect(parseTimeOutput("123456\n")).toBe(123456);
    expect(parseTimeOutput("Command exited with non-zero status 1\n6532\n")).toBe(6532);
    expect(parseTimeOutput("")).toBeUndefined();
  });

  it("installs each pinned peer into a folder of its own, named for its version", () => {
    expect(peerFolder("/x", { name: "@siteboon/claude-code-ui", version: "1.12.0" })).toBe(path.join("/x", "siteboon+claude-code-ui-1.12.0"));
    expect(peerFolder("/x", { name: "ccusage", version: "18.0.11" })).toBe(path.join("/x", "ccusage-18.0.11"));
  });
});
