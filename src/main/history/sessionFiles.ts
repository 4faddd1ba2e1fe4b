// The session files under a projects folder, found by directory reads: each project folder's
// `<sessionId>.jsonl` main transcripts, each session's own folder, and the CLI 2.0.x sidechains
// kept at the project root. Whether an entry lies inside the history folder is told by its type
// in the listing: a plain folder or file listed in a folder inside is inside; only a link is
// followed and checked (containedPath.ts). Anything named like a transcript that is not a regular
// file is reported, never opened.

import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { containedPath } from "../platform/containedPath.js";
import { isMainTranscriptName } from "../platform/projectsDir.js";
import { notRegularAt, notRegularKind, notRegularMessage } from "../platform/regularFile.js";
import { refusedPath, type HistoryProblem } from "./problems.js";
import { isSideConversation } from "./sideConversations.js";

export interface SessionFile {
  /** The project folder's name (the cwd with non-alphanumerics replaced by `-`). */
  readonly project: string;
  readonly projectDir: string;
  readonly sessionId: string;
  /** `<projectDir>/<sessionId>.jsonl`, as built (a link inside the folder is followed when read). */
  readonly file: string;
  /** The session's folder (`<projectDir>/<sessionId>`, where its subagents are), when there is one. */
  readonly folder?: Dirent;
  /** The project's root-layout sidechains (`agent-*.jsonl` beside the sessions), shared by its sessions. */
  readonly rootAgents: RootAgents;
}

/** Counts, by the session each names, a project folder's root-layout sidechains (their entries given). */
export type RootAgentCounter = (projectDir: string, agents: readonly Dirent[]) => Promise<ReadonlyMap<string, number>>;

/** A project folder's root-layout sidechain files, read (for the session each names) at most once. */
export class RootAgents {
  private read: Promise<ReadonlyMap<string, number>> | undefined;

  constructor(
    readonly projectDir: string,
    readonly agents: readonly Dirent[],
    private readonly count: RootAgentCounter,
  ) {}

  /** How many of them belong to `sessionId`. */
  async of(sessionId: string): Promise<number> {
    if (this.agents.length === 0) return 0;
    this.read ??= this.count(this.projectDir, this.agents);
    return (await this.read).get(sessionId) ?? 0;
  }
}

export interface SessionFileListing {
  /** By project, then by file name. */
  readonly files: SessionFile[];
  readonly problems: HistoryProblem[];
}

const AgentFile = /^agent-(.+)\.jsonl$/;

/** Every session file under `projectsDir`; a missing folder has none. */
export async function findSessionFiles(projectsDir: string, countRootAgents: RootAgentCounter): Promise<SessionFileListing> {
  const files: SessionFile[] = [];
  const problems: HistoryProblem[] = [];
  for (const entry of await entries(projectsDir)) {
    const project = entry.name;
    const projectDir = path.join(projectsDir, project);
    // A project folder linked out of the history folder is not listed, nor is anything in it read.
    if (entry.isSymbolicLink()) {
      const checked = await containedPath(projectsDir, project);
      if (checked.kind === "outside") problems.push(refusedPath(checked.path, "a project folder", checked.reason));
      if (checked.kind !== "inside") continue;
    } else if (!entry.isDirectory()) continue;
    const listing = await entries(projectDir);
    const folders = new Map(listing.filter((e) => e.isDirectory() || e.isSymbolicLink()).map((e) => [e.name, e]));
    const rootAgents = new RootAgents(projectDir, listing.filter((e) => isRootAgent(e.name)), countRootAgents);
    for (const e of listing) {
      if (!isMainTranscriptName(e.name)) continue;
      const file = path.join(projectDir, e.name);
      let kind = notRegularKind(e);
      if (e.isSymbolicLink()) {
        const checked = await containedPath(projectsDir, project, e.name);
        if (checked.kind === "outside") problems.push(refusedPath(file, "a session", checked.reason));
        if (checked.kind !== "inside") continue;
        kind = await notRegularAt(checked.real);
      }
      if (kind !== undefined) {
        problems.push({ kind: "not_regular_file", path: file, message: notRegularMessage(kind) });
        continue;
      }
      const sessionId = e.name.slice(0, -".jsonl".length);
      const folder = folders.get(sessionId);
      files.push({ project, projectDir, sessionId, file, rootAgents, ...(folder !== undefined ? { folder } : {}) });
    }
  }
  return { files, problems };
}

function isRootAgent(name: string): boolean {
  const agentId = AgentFile.exec(name)?.[1];
  return agentId !== undefined && !isSideConversation(agentId);
}

/**
 * The session's subagents folder when it lies inside the project folder: found through the
 * session folder's listing (no link followed), or checked where a link leads.
 */
export async function subagentsFolderOf(session: SessionFile): Promise<{ readonly dir: string; readonly listing: readonly Dirent[] } | undefined> {
  const { folder, projectDir, sessionId } = session;
  if (folder === undefined) return undefined;
  let dir: string | undefined;
  if (folder.isDirectory()) {
    const inside = (await entries(path.join(projectDir, sessionId))).find((e) => e.name === "subagents");
    if (inside?.isDirectory()) dir = path.join(projectDir, sessionId, "subagents");
    else if (inside?.isSymbolicLink()) dir = await checkedDir(projectDir, sessionId);
  } else {
    dir = await checkedDir(projectDir, sessionId);
  }
  return dir === undefined ? undefined : { dir, listing: await entries(dir) };
}

async function checkedDir(projectDir: string, sessionId: string): Promise<string | undefined> {
  const checked = await containedPath(projectDir, sessionId, "subagents");
  return checked.kind === "inside" ? checked.real : undefined;
}

/** A folder's entries by name; none when it cannot be read. */
export async function entries(dir: string): Promise<Dirent[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}
