// Finds every transcript under a projects dir (PROTOCOL.md 6.1): `<P>/<session>.jsonl`,
// `<P>/<session>/subagents/agent-<id>.jsonl` and a Workflow's agents in
// `<P>/<session>/subagents/workflows/<runId>/agent-<id>.jsonl`, plus CLI 2.0.x sidechains at the project root
// (`<P>/agent-<id>.jsonl`, whose session is only named inside). Directory reads only, so an
// unchanged re-scan stays cheap; stat happens in the indexer. A `DirCache` keeps listings between
// scans: a directory whose mtime has not moved costs one stat instead of a read.
import fs from "node:fs";
import path from "node:path";
import { isCompactionAgent } from "../history/sidechains.js";
import { isMainTranscriptName } from "../history/projectsDir.js";

export interface DiscoveredFile {
  readonly path: string;
  readonly project: string;
  /** Null for a root-layout sidechain: the indexer reads it from the file's first line. */
  readonly sessionId: string | null;
  /** Null for the main transcript. */
  readonly agentId: string | null;
}

interface Listing {
  readonly files: readonly string[];
  readonly dirs: ReadonlySet<string>;
}

/**
 * A listing is reused only when the directory's mtime is unchanged and was already in the past
 * (by `RACY_MS`) when it was read: a file added in the same clock tick as the listing would
 * otherwise leave the mtime equal and go unseen.
 */
const RACY_MS = 2000;

export class DirCache {
  private readonly entries = new Map<string, { readonly mtimeMs: number; readonly listedAt: number; readonly listing: Listing }>();

  list(dir: string): Listing {
    const st = fs.statSync(dir, { throwIfNoEntry: false });
    if (!st?.isDirectory()) {
      this.entries.delete(dir);
      return EMPTY;
    }
    const cached = this.entries.get(dir);
    if (cached && cached.mtimeMs === st.mtimeMs && cached.listedAt - st.mtimeMs > RACY_MS) return cached.listing;
    const listedAt = Date.now();
    const listing = readListing(dir);
    this.entries.set(dir, { mtimeMs: st.mtimeMs, listedAt, listing });
    return listing;
  }
}

const EMPTY: Listing = { files: [], dirs: new Set() };
const AGENT_FILE = /^agent-(.+)\.jsonl$/;

export function discoverTranscripts(dir: string, cache: DirCache = new DirCache()): DiscoveredFile[] {
  const projectsDir = path.resolve(dir);
  const out: DiscoveredFile[] = [];
  for (const project of cache.list(projectsDir).dirs) {
    const projectDir = join(projectsDir, project);
    const { files, dirs } = cache.list(projectDir);
    for (const name of files) {
      const rootAgent = AGENT_FILE.exec(name)?.[1];
      if (rootAgent !== undefined && !isCompactionAgent(rootAgent)) {
        out.push({ path: join(projectDir, name), project, sessionId: null, agentId: rootAgent });
      }
      if (!isMainTranscriptName(name)) continue;
      const sessionId = name.slice(0, -".jsonl".length);
      if (dirs.has(sessionId)) out.push(...sidechainsOf(cache, projectDir, project, sessionId));
      out.push({ path: join(projectDir, name), project, sessionId, agentId: null });
    }
  }
  return out;
}

function sidechainsOf(cache: DirCache, projectDir: string, project: string, sessionId: string): DiscoveredFile[] {
  const dir = join(join(projectDir, sessionId), "subagents");
  const out: DiscoveredFile[] = [];
  const listing = cache.list(dir);
  agentFilesIn(dir, listing.files, project, sessionId, out);
  // The agents a Workflow script ran (CLI 2.1.197): `subagents/workflows/<runId>/agent-<id>.jsonl`.
  if (listing.dirs.has("workflows")) {
    const runs = join(dir, "workflows");
    for (const run of cache.list(runs).dirs) agentFilesIn(join(runs, run), cache.list(join(runs, run)).files, project, sessionId, out);
  }
  return out;
}

function agentFilesIn(dir: string, files: readonly string[], project: string, sessionId: string, out: DiscoveredFile[]): void {
  for (const name of files) {
    const match = AGENT_FILE.exec(name);
    if (!match?.[1] || isCompactionAgent(match[1])) continue;
    out.push({ path: join(dir, name), project, sessionId, agentId: match[1] });
  }
}

/** `dir` is already absolute and normal and `name` a plain entry name: path.join's work is not needed. */
function join(dir: string, name: string): string {
  return dir.endsWith(path.sep) ? dir + name : dir + path.sep + name;
}

function readListing(dir: string): Listing {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return EMPTY;
  }
  const files: string[] = [];
  const dirs = new Set<string>();
  for (const e of entries) {
    if (e.isFile()) files.push(e.name);
    else if (e.isDirectory()) dirs.add(e.name);
  }
  return { files, dirs };
}
