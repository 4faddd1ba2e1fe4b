// The agents a fork copied (issue 37). Neither CLI copies a subagent's transcript into a fork: the
// Agent calls come over, their files stay in the folder of the session that ran them. That is
// beside the fork in its project folder, or, for a fork made in a new worktree (another project
// folder) or a fork of such a fork, in the folder of a session it came from, as Baton's audit
// trail recorded the chain (SessionAudit.forkOrigins). Each file is taken by the Agent call its
// meta names, with the other agent files of its folder: the agents it started (nested ones).

import { existsSync } from "node:fs";
import path from "node:path";
import type { SessionAudit } from "../audit/audit.js";
import { resolveProjectsDir } from "../platform/projectsDir.js";
import { sidechainSource, type HistorySession } from "./historySession.js";
import { findSessionFile } from "./sessionFile.js";
import { findForkedSidechains, findSidechainFiles, type SidechainFile } from "./sidechains.js";
import { listDir } from "./subagentFolder.js";
import { workflowRunDir } from "./workflowRuns.js";

/** Where else a fork's copied agents may have run: the sessions Baton recorded it came from. */
export interface ForkOrigins {
  /** The history folder the origins are looked up in (default: the CLI's). */
  readonly projectsDir?: string;
  /** Its origin, then that one's origin, …. */
  readonly origins?: readonly string[];
}

/** A restore's history folder and the origins its audit trail recorded. */
export function forkOriginsOf(options: { readonly projectsDir?: string; readonly audit?: SessionAudit }): ForkOrigins {
  const origins = options.audit?.forkOrigins;
  return { ...(options.projectsDir !== undefined ? { projectsDir: options.projectsDir } : {}), ...(origins !== undefined ? { origins } : {}) };
}

/**
 * Links a restored fork's copied Agent calls (top-level ones that ran, with no file of the
 * session's own) to their files, and its copied Workflow calls to their runs' folders.
 */
export async function linkForkedSidechains(session: HistorySession, from: ForkOrigins = {}): Promise<void> {
  await linkForkedRuns(session, from);
  const missing = [...session.calls.values()].filter((c) => c.parentToolUseId === null && !c.failed && sidechainSource(session, c.toolUseId) === undefined);
  if (missing.length === 0) return;
  const wanted = new Set(missing.map((c) => c.toolUseId));
  const beside = await findForkedSidechains(session.projectDir, session.sessionId, wanted, session.problems);
  const files = lacking(beside, wanted).size === 0 ? beside : await searchOrigins(beside, () => wanted, from, new Set([session.projectDir]));
  for (const file of files) {
    const id = file.meta?.toolUseId;
    if (id !== undefined && !session.links.has(id)) session.links.set(id, file);
  }
}

/** A restored fork's copied Workflow calls, linked to their runs' folders (findCopiedRuns). */
async function linkForkedRuns(session: HistorySession, from: ForkOrigins): Promise<void> {
  const runs = new Map([...session.stream.mapper.workflowRuns].filter(([callId]) => !session.workflows.has(callId)));
  for (const [callId, dir] of await findCopiedRuns(runs, from, { projectDir: session.projectDir, sessionId: session.sessionId })) session.workflows.set(callId, dir);
}

/**
 * The folders of the Workflow runs a fork copied (`runs`: call id → run id), by call: a run is in
 * the folder of the session that ran it, one of the fork's recorded origins, else (`beside`) a
 * session beside the fork. Its files are checked against that project folder when read
 * (workflowRuns.ts); a run id is a plain name (workflowLaunch.ts).
 */
export async function findCopiedRuns(runs: ReadonlyMap<string, string>, from: ForkOrigins, beside?: { readonly projectDir: string; readonly sessionId: string }): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (runs.size === 0) return found;
  const folders: string[] = [];
  const projectsDir = resolveProjectsDir(from.projectsDir === undefined ? {} : { override: from.projectsDir });
  for (const origin of from.origins ?? []) {
    const file = await findSessionFile(origin, projectsDir).catch(() => undefined);
    if (file !== undefined) folders.push(path.join(path.dirname(file), origin));
  }
  if (beside !== undefined) {
    for (const entry of (await listDir(beside.projectDir)).sort()) {
      if (entry !== beside.sessionId && !entry.endsWith(".jsonl")) folders.push(path.join(beside.projectDir, entry));
    }
  }
  for (const [callId, runId] of runs) {
    const dir = folders.map((folder) => workflowRunDir(folder, runId)).find((d) => existsSync(d));
    if (dir !== undefined) found.set(callId, dir);
  }
  return found;
}

/**
 * A live fork's copied agents' files: those of the session it was made from (`from.origins[0]`),
 * then, for the calls in `wanted` still without one (read once that folder is), beside it and in
 * the folders of the sessions that one came from.
 */
export function findOriginSidechains(wanted: () => ReadonlySet<string>, from: ForkOrigins): Promise<SidechainFile[]> {
  return searchOrigins([], wanted, from, new Set());
}

/**
 * Adds to `found` each origin's own agent files (named by a meta), nearest origin first, then
 * those beside it that name a call in `wanted` still without one, until none is. An origin gone,
 * or in two project folders, is passed over; a folder looked in already is not read again.
 */
async function searchOrigins(found: SidechainFile[], wanted: () => ReadonlySet<string>, from: ForkOrigins, looked: Set<string>): Promise<SidechainFile[]> {
  const origins = from.origins ?? [];
  if (origins.length === 0) return found;
  const projectsDir = resolveProjectsDir(from.projectsDir === undefined ? {} : { override: from.projectsDir });
  for (const origin of origins) {
    const file = await findSessionFile(origin, projectsDir).catch(() => undefined);
    const project = file === undefined ? undefined : path.dirname(file);
    // Every session of a folder looked in already was looked at.
    if (project === undefined || looked.has(project)) continue;
    looked.add(project);
    found.push(...(await findSidechainFiles(project, origin)).filter((f) => f.meta?.toolUseId !== undefined));
    const want = wanted();
    const still = lacking(found, want);
    if (still.size > 0) found.push(...(await findForkedSidechains(project, origin, still)));
    if (lacking(found, want).size === 0) break;
  }
  return found;
}

/** The calls of `wanted` no file in `found` names. */
function lacking(found: readonly SidechainFile[], wanted: ReadonlySet<string>): Set<string> {
  const named = new Set(found.map((f) => f.meta?.toolUseId));
  return new Set([...wanted].filter((id) => !named.has(id)));
}
