// Finds every transcript under a projects dir: `<P>/<session>.jsonl`,
// `<P>/<session>/subagents/agent-<id>.jsonl` and a Workflow's agents in
// `<P>/<session>/subagents/workflows/<runId>/agent-<id>.jsonl`, plus CLI 2.0.x sidechains at the project root
// (`<P>/agent-<id>.jsonl`, whose session is only named inside). Directory reads only, so an
// unchanged re-scan stays cheap; stat happens in the indexer. A `DirCache` keeps listings between
// scans: a directory whose mtime has not moved costs one stat instead of a read. Anything named
// `*.jsonl` that is not a regular file (a FIFO, socket, device, directory) is reported, never read.
// Side requests (compaction, prompt suggestions, `/btw`: sideConversations.ts) are not subagents and
// are not indexed; a 2.0.x `Warmup` file at the project root is told by its first line, read once
// per version of the file.
import fs from "node:fs";
import path from "node:path";
import { isSideConversation, isWarmupPrompt } from "../history/index.js";
import { isMainTranscriptName } from "../platform/projectsDir.js";
import { notRegularKind, type NotRegularKind } from "../platform/regularFile.js";

export interface DiscoveredFile {
  readonly path: string;
  readonly project: string;
  /** Null for a root-layout sidechain: the indexer reads it from the file's first line. */
  readonly sessionId: string | null;
  /** Null for the main transcript. */
  readonly agentId: string | null;
}

/** A `*.jsonl` entry that is not a regular file: skipped, and said so. */
export interface SkippedEntry {
  readonly path: string;
  readonly kind: NotRegularKind;
}

interface Listing {
  readonly files: readonly string[];
  readonly dirs: ReadonlySet<string>;
  readonly notRegular: readonly { readonly name: string; readonly kind: NotRegularKind }[];
}

/**
 * A listing is reused only when the directory's mtime is unchanged and was already in the past
 * (by `RACY_MS`) when it was read: a file added in the same clock tick as the listing would
 * otherwise leave the mtime equal and go unseen.
 */
const RACY_MS = 2000;

export class DirCache {
  private readonly entries = new Map<string, { readonly mtimeMs: number; readonly listedAt: number; readonly listing: Listing }>();
  private readonly warmups = new Map<string, { readonly mtimeMs: number; readonly size: number; readonly warmup: boolean }>();

  /** Whether a root-layout sidechain is a 2.0.x warm-up request (its first user line is "Warmup"). */
  isWarmup(file: string): boolean {
    const st = fs.statSync(file, { throwIfNoEntry: false });
    if (!st?.isFile()) {
      this.warmups.delete(file);
      return false;
    }
    const cached = this.warmups.get(file);
    if (cached && cached.mtimeMs === st.mtimeMs && cached.size === st.size) return cached.warmup;
    const warmup = isWarmupPrompt(firstPrompt(file));
    this.warmups.set(file, { mtimeMs: st.mtimeMs, size: st.size, warmup });
    return warmup;
  }

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

const EMPTY: Listing = { files: [], dirs: new Set(), notRegular: [] };
const AGENT_FILE = /^agent-(.+)\.jsonl$/;

/** Every transcript under `dir`; `*.jsonl` entries that are not regular files go to `skipped`. */
export function discoverTranscripts(dir: string, cache: DirCache = new DirCache(), skipped?: SkippedEntry[]): DiscoveredFile[] {
  const projectsDir = path.resolve(dir);
  const out: DiscoveredFile[] = [];
  const list = (d: string): Listing => {
    const listing = cache.list(d);
    for (const e of listing.notRegular) skipped?.push({ path: join(d, e.name), kind: e.kind });
    return listing;
  };
  for (const project of list(projectsDir).dirs) {
    const projectDir = join(projectsDir, project);
    const { files, dirs } = list(projectDir);
    for (const name of files) {
      const rootAgent = AGENT_FILE.exec(name)?.[1];
      if (rootAgent !== undefined && !isSideConversation(rootAgent) && !cache.isWarmup(join(projectDir, name))) {
        out.push({ path: join(projectDir, name), project, sessionId: null, agentId: rootAgent });
      }
      if (!isMainTranscriptName(name)) continue;
      const sessionId = name.slice(0, -".jsonl".length);
      if (dirs.has(sessionId)) out.push(...sidechainsOf(list, projectDir, project, sessionId));
      out.push({ path: join(projectDir, name), project, sessionId, agentId: null });
    }
  }
  return out;
}

function sidechainsOf(list: (dir: string) => Listing, projectDir: string, project: string, sessionId: string): DiscoveredFile[] {
  const dir = join(join(projectDir, sessionId), "subagents");
  const out: DiscoveredFile[] = [];
  const listing = list(dir);
  agentFilesIn(dir, listing.files, project, sessionId, out);
  // The agents a Workflow script ran (CLI 2.1.197): `subagents/workflows/<runId>/agent-<id>.jsonl`.
  if (listing.dirs.has("workflows")) {
    const runs = join(dir, "workflows");
    for (const run of list(runs).dirs) agentFilesIn(join(runs, run), list(join(runs, run)).files, project, sessionId, out);
  }
  return out;
}

function agentFilesIn(dir: string, files: readonly string[], project: string, sessionId: string, out: DiscoveredFile[]): void {
  for (const name of files) {
    const match = AGENT_FILE.exec(name);
    if (!match?.[1] || isSideConversation(match[1])) continue;
    out.push({ path: join(dir, name), project, sessionId, agentId: match[1] });
  }
}

/** The head of a file read for its first user line. */
const HeadBytes = 16 * 1024;

/** The text of the first user line within the file's first bytes; undefined if none or unreadable. */
function firstPrompt(file: string): string | undefined {
  let lines: string[];
  try {
    const fd = fs.openSync(file, "r");
    try {
      const buffer = Buffer.alloc(HeadBytes);
      const read = fs.readSync(fd, buffer, 0, HeadBytes, 0);
      lines = buffer.toString("utf8", 0, read).split("\n");
      // A line the head cuts short is not read.
      if (read === HeadBytes) lines.pop();
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
  for (const text of lines) {
    let line: unknown;
    try {
      line = JSON.parse(text);
    } catch {
      continue;
    }
    if (typeof line !== "object" || line === null || (line as { type?: unknown }).type !== "user") continue;
    const content = (line as { message?: { content?: unknown } }).message?.content;
    if (typeof content === "string") return content;
    if (Array.isArray(content)) return content.map((b) => (typeof b === "object" && b !== null && typeof b.text === "string" ? b.text : "")).join("\n");
    return undefined;
  }
  return undefined;
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
  const notRegular: { name: string; kind: NotRegularKind }[] = [];
  for (const e of entries) {
    if (e.isFile()) files.push(e.name);
    else if (e.isDirectory()) dirs.add(e.name);
    // Symbolic links are judged where they are followed; anything else named like a transcript is noted.
    if (!e.isSymbolicLink() && e.name.endsWith(".jsonl")) {
      const kind = notRegularKind(e);
      if (kind !== undefined) notRegular.push({ name: e.name, kind });
    }
  }
  return { files, dirs, notRegular };
}
