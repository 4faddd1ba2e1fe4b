// 50 search queries over a generated archive: frequent words (many matches to rank), rare words,
// two-word ANDs, phrases, prefixes and session markers.
import type { ArchiveStats } from "./generateArchive.js";

export interface BenchQuery {
  readonly kind: "common" | "rare" | "and" | "phrase" | "prefix" | "marker";
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
  return q;
}
