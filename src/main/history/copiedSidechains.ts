// What a fork copied (issue 37). Neither CLI copies a subagent's transcript, nor a Workflow run's
// folder, into a fork: the Agent and Workflow calls come over, their files stay in the folder of
// the session that ran them. That is beside the fork in its project folder, or, for a fork made in
// a new worktree (another project folder) or a fork of such a fork, in the folder of a session it
// came from, as Baton's audit trail recorded the chain (SessionAudit.forkOrigins). An agent's file
// is taken by the Agent call its meta names, with the other agent files of its folder (the agents
// it started); a run's folder by its run id. Every file is checked against its project folder when
// read (sidechains.ts, workflowRuns.ts).

import { stat } from "node:fs/promises";
import path from "node:path";
import type { SessionAudit } from "../audit/audit.js";
import { resolveProjectsDir } from "../platform/projectsDir.js";
import { sidechainSource, type HistorySession } from "./historySession.js";
import { findSessionFile } from "./sessionFile.js";
import { findForkedSidechains, findSidechainFiles, type SidechainFile } from "./sidechains.js";
import { listDir } from "./subagentFolder.js";
import { workflowRunDir } from "./workflowRuns.js";

/** Where else a fork's copied work may have run: the sessions Baton recorded it came from. */
export interface ForkOrigins {
  /** The history folder the origins are looked up in (default: the CLI's). */
  readonly projectsDir?: string;
  /** Its origin, then that one's origin, …. */
  readonly origins?: readonly string[];
}

/** A session's place: `<project>/<sessionId>.jsonl`, its agents under `<project>/<sessionId>/`. */
export interface SessionPlace {
  readonly project: string;
  readonly sessionId: string;
}

/** A restore's history folder and the origins its audit trail recorded. */
export function forkOriginsOf(options: { readonly projectsDir?: string; readonly audit?: SessionAudit }): ForkOrigins {
  const origins = options.audit?.forkOrigins;
  return { ...(options.projectsDir !== undefined ? { projectsDir: options.projectsDir } : {}), ...(origins !== undefined ? { origins } : {}) };
}

/** Where each origin is, nearest first, looked up as a page's session id is; one gone or in two project folders is passed over. */
export async function originPlaces(from: ForkOrigins): Promise<SessionPlace[]> {
  const origins = from.origins ?? [];
  if (origins.length === 0) return [];
  const projectsDir = resolveProjectsDir(from.projectsDir === undefined ? {} : { override: from.projectsDir });
  const places: SessionPlace[] = [];
  for (const sessionId of origins) {
    const file = await findSessionFile(sessionId, projectsDir).catch(() => undefined);
    if (file !== undefined) places.push({ project: path.dirname(file), sessionId });
  }
  return places;
}

/**
 * Links a reopened session's Agent calls that ran with no file of its own (a fork's copied ones)
 * to their files, and its Workflow calls with no run folder of its own to their runs' folders.
 */
export async function linkForkedSidechains(session: HistorySession, from: ForkOrigins = {}): Promise<void> {
  const here: SessionPlace = { project: session.projectDir, sessionId: session.sessionId };
  let origins: Promise<SessionPlace[]> | undefined;
  const places = (): Promise<SessionPlace[]> => (origins ??= originPlaces(from));
  const runs = new Map([...session.stream.mapper.workflowRuns].filter(([callId]) => !session.workflows.has(callId)));
  if (runs.size > 0) for (const [callId, dir] of await findCopiedRuns(runs, await places(), here)) session.workflows.set(callId, dir);
  const missing = [...session.calls.values()].filter((c) => c.parentToolUseId === null && !c.failed && sidechainSource(session, c.toolUseId) === undefined);
  if (missing.length === 0) return;
  const wanted = new Set(missing.map((c) => c.toolUseId));
  const beside = await findForkedSidechains(session.projectDir, session.sessionId, wanted, session.problems);
  const files = lacking(beside, wanted).size === 0 ? beside : await searchOrigins(beside, wanted, await places(), new Set([session.projectDir]));
  for (const file of files) {
    const id = file.meta?.toolUseId;
    if (id !== undefined && !session.links.has(id)) session.links.set(id, file);
  }
}

/**
 * The folders of the Workflow runs a fork copied (`runs`: call id → run id), by call: in the
 * session folder of one of its origins (`origins`, nearest first), else in one beside `beside`
 * (the fork, or its origin) in that session's project folder. A run id is a plain name
 * (workflowLaunch.ts).
 */
export async function findCopiedRuns(runs: ReadonlyMap<string, string>, origins: readonly SessionPlace[], beside?: SessionPlace): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const look = async (folders: readonly string[]): Promise<void> => {
    for (const [callId, runId] of runs) {
      for (const folder of found.has(callId) ? [] : folders) {
        const dir = workflowRunDir(folder, runId);
        if (await isFolder(dir)) {
          found.set(callId, dir);
          break;
        }
      }
    }
  };
  await look(origins.map((o) => path.join(o.project, o.sessionId)));
  if (found.size === runs.size || beside === undefined) return found;
  const siblings = (await listDir(beside.project)).sort().filter((entry) => entry !== beside.sessionId && !entry.endsWith(".jsonl"));
  await look(siblings.map((entry) => path.join(beside.project, entry)));
  return found;
}

/**
 * A live fork's copied agents' files: those of the session it was made from (`origins[0]`), then,
 * for the calls in `wanted` still without one, beside it and in the folders of the sessions that
 * one came from.
 */
export function findOriginSidechains(wanted: ReadonlySet<string>, origins: readonly SessionPlace[]): Promise<SidechainFile[]> {
  return searchOrigins([], wanted, origins, new Set());
}

/**
 * Adds to `found` each origin's own agent files (named by a meta), nearest origin first, then
 * those beside it that name a call in `wanted` still without one, until none is. A project folder
 * looked in already is not read again: every session in it was looked at.
 */
async function searchOrigins(found: SidechainFile[], wanted: ReadonlySet<string>, origins: readonly SessionPlace[], looked: Set<string>): Promise<SidechainFile[]> {
  for (const { project, sessionId } of origins) {
    if (looked.has(project)) continue;
    looked.add(project);
    found.push(...(await findSidechainFiles(project, sessionId)).filter((f) => f.meta?.toolUseId !== undefined));
    const still = lacking(found, wanted);
    if (still.size > 0) found.push(...(await findForkedSidechains(project, sessionId, still)));
    if (lacking(found, wanted).size === 0) break;
  }
  return found;
}

/** The calls of `wanted` no file in `found` names. */
function lacking(found: readonly SidechainFile[], wanted: ReadonlySet<string>): Set<string> {
  const named = new Set(found.map((f) => f.meta?.toolUseId));
  return new Set([...wanted].filter((id) => !named.has(id)));
}

async function isFolder(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}
