// The archives bench:peers reads: bench:history's, shared with it in bench/.data (at scale 1 the
// 2,000-session, 2 GB archive with its one 100 MB session of 35,000 lines and 400 subagents, and
// its twin in CLI 2.1.332's line shapes). Made here with bench:history's spec when missing, so the
// two benchmarks always read the same files.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { generateArchive, type ArchiveStats } from "../history/generateArchive.js";
import type { CliShape } from "../history/heavyLines332.js";

export interface PeerArchive {
  /** What the rows call it: `2.1.197 lines` or `2.1.332 lines`, or the folder given. */
  readonly label: string;
  /** A folder name for what is kept of this archive between runs (Baton's index of it). */
  readonly key: string;
  readonly projectsDir: string;
  /** Sample words for the search queries; absent for a folder of the person's own. */
  readonly stats?: ArchiveStats;
  /** The biggest main transcript: the session whose first screen is timed. */
  readonly bigSession: string;
}

/** bench:history's folder for this scale and line shape (bench/history/run.ts names them so). */
export function archiveDir(repoRoot: string, scale: number, cli: CliShape): string {
  return path.join(repoRoot, "bench", ".data", `history-${scale}${cli === "2.1.197" ? "" : `-cli${cli}`}`);
}

export function generatedArchive(repoRoot: string, scale: number, cli: CliShape): PeerArchive {
  const dataDir = archiveDir(repoRoot, scale, cli);
  const statsFile = path.join(dataDir, "archive.json");
  let stats: ArchiveStats;
  if (fs.existsSync(statsFile)) {
    stats = JSON.parse(fs.readFileSync(statsFile, "utf8")) as ArchiveStats;
  } else {
    fs.rmSync(dataDir, { recursive: true, force: true });
    const t0 = performance.now();
    console.log(`generating bench:history's archive at scale ${scale}, CLI ${cli} lines, in ${dataDir}`);
    // bench/history/run.ts's spec, unchanged: the same seed gives the same files.
    stats = generateArchive(path.join(dataDir, "projects"), {
      sessions: Math.max(2, Math.round(2000 * scale)),
      totalBytes: 2.05e9 * scale,
      big: { bytes: 100e6 * scale, lines: Math.max(50, Math.round(35_000 * scale)), subagents: Math.max(1, Math.round(400 * scale)) },
      cli,
    });
    fs.writeFileSync(statsFile, JSON.stringify(stats));
    console.log(`generated ${(stats.bytes / 1024 / 1024).toFixed(1)} MB in ${stats.files} files in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  const projectsDir = path.join(dataDir, "projects");
  // archive.json names the big session by the path it was written at; the folder may have moved since.
  const bigSession = path.join(projectsDir, path.relative(stats.dir, stats.bigSessionPath));
  return { label: `${cli} lines`, key: path.basename(dataDir), projectsDir, stats, bigSession };
}

/**
 * A folder given with --projects-dir: bench:history's archive.json beside it when there is one
 * (its sample words make the queries), else no search; its biggest main transcript is the big session.
 */
export function givenArchive(projectsDir: string): PeerArchive {
  const dir = path.resolve(projectsDir);
  const statsFile = path.join(path.dirname(dir), "archive.json");
  const stats = fs.existsSync(statsFile) ? (JSON.parse(fs.readFileSync(statsFile, "utf8")) as ArchiveStats) : undefined;
  let bigSession = "";
  let bigBytes = -1;
  for (const project of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!project.isDirectory()) continue;
    for (const f of fs.readdirSync(path.join(dir, project.name), { withFileTypes: true })) {
      if (!f.isFile() || !f.name.endsWith(".jsonl")) continue;
      const file = path.join(dir, project.name, f.name);
      const bytes = fs.statSync(file).size;
      if (bytes > bigBytes) [bigSession, bigBytes] = [file, bytes];
    }
  }
  if (bigSession === "") throw new Error(`${dir} holds no transcript (<project>/<session>.jsonl)`);
  const key = `given-${createHash("sha256").update(dir).digest("hex").slice(0, 12)}`;
  return { label: dir, key, projectsDir: dir, ...(stats !== undefined ? { stats } : {}), bigSession };
}

/** Bytes of the files under `dir` (links followed at the top only). */
export function folderBytes(dir: string): number {
  let bytes = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) bytes += fs.statSync(path.join(e.parentPath, e.name)).size;
  return bytes;
}
