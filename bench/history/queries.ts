// 50 search queries over a generated archive: frequent words (many matches to rank), rare words,
// two-word ANDs, phrases, prefixes and session markers; over an archive with CJK sessions
// (bench:history --cjk) 20 more: substrings of CJK runs of 2 to 4 characters, and single characters.
import type { ArchiveStats } from "./generateArchive.js";

export interface BenchQuery {
  readonly kind: "common" | "rare" | "and" | "phrase" | "prefix" | "marker" | "cjk" | "cjk1";
  readonly q: string;
}

export function buildQueries(stats: ArchiveStats): BenchQuery[] {
  const { common, rare, phrases } = stats.sampleTerms;
  const q: BenchQuery[] = [];
  for (let i = 0; i < 10; i++) q.push({ kind: "common", q: common[i]! });
  for (let i = 0; i < 10; i++) q.push({ kind: "rare", q: rare[i]! });
  for (let i = 0; i < 10; i++) q.push({ kind: "and", q: `${common[i + 10]!} ${rare[i + 10]!}` });
  for (let i = 0; i < 10; i++) q.push({ kind: "phrase", q: `"${phrases[i]!}"` });
  for (let i = 0; i < 5; i++) q.push({ kind: "prefix", q: `${rare[i + 20]!.slice(0, 5)}*` });
  for (let i = 0; i < 5; i++) q.push({ kind: "marker", q: `sessmark${Math.floor((i * stats.sessions) / 5)}` });
  const cjk = stats.sampleTerms.cjk ?? [];
  for (const term of cjk) q.push({ kind: "cjk", q: term });
  // One character: a prefix of every pair it begins.
  for (const term of cjk.slice(0, 5)) q.push({ kind: "cjk1", q: [...term][0]! });
  return q;
}
