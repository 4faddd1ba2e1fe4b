// The Project panel's list: every `<project>/<sessionId>.jsonl` under the projects folder, with
// what a person needs to recognise it. Only each file's first and last lines are read
// (sessionEnds.ts), so a big history lists fast and in bounded memory; nothing is written.
// Anything named `*.jsonl` that is not a regular file is skipped with a notice, never opened.

import { readdir } from "node:fs/promises";
import path from "node:path";
import type { SessionSummary as ApiSessionSummary } from "../../shared/api.js";
import { eventStream } from "./eventStream.js";
import { containedPath } from "../platform/containedPath.js";
import { refusedPath, type HistoryProblem } from "./problems.js";
import { isMainTranscriptName, sessionIdFromPath } from "../platform/projectsDir.js";
import { NotRegularFileError, notRegularMessage } from "../platform/regularFile.js";
import { readSessionEnds } from "./sessionEnds.js";
import { isSideConversation } from "./sideConversations.js";

export const MaxTitleChars = 80;

/** The app's summary (shared/api.ts), with the project folder's name and what the command line also shows. */
export interface SessionSummary extends Omit<ApiSessionSummary, "projectDir"> {
  /** The project folder name (the cwd with non-alphanumerics replaced by `-`). */
  readonly project: string;
  readonly titleSource: "custom" | "ai" | "prompt" | "summary" | "none";
  readonly modifiedMs: number;
  /** Damaged lines (not JSON, truncated, …) among the lines the list read. */
  readonly badLines: number;
}

export interface SessionListing {
  readonly sessions: SessionSummary[];
  /** Entries skipped: named like a transcript but not a regular file (a FIFO, socket, device, folder). */
  readonly problems: HistoryProblem[];
}

/** All sessions under `projectsDir`, newest first. A missing folder gives an empty list. */
export async function listSessions(projectsDir: string): Promise<SessionSummary[]> {
  return (await listSessionsWithProblems(projectsDir)).sessions;
}

export async function listSessionsWithProblems(projectsDir: string): Promise<SessionListing> {
  const summaries: SessionSummary[] = [];
  const problems: HistoryProblem[] = [];
  for (const project of await entries(projectsDir)) {
    const projectDir = path.join(projectsDir, project);
    for (const name of await entries(projectDir)) {
      if (!isMainTranscriptName(name)) continue;
      const file = path.join(projectDir, name);
      // A project folder or session file linked out of the history folder is never read.
      const checked = await containedPath(projectsDir, project, name);
      if (checked.kind === "outside") problems.push(refusedPath(file, "a session", checked.reason));
      if (checked.kind !== "inside") continue;
      const summary = await summarizeSession(file).catch((error: unknown) => {
        if (isNotRegular(error)) problems.push({ kind: "not_regular_file", path: file, message: notRegularMessage(error.kind) });
        return undefined;
      });
      if (summary !== undefined) summaries.push(summary);
    }
  }
  return { sessions: summaries.sort((a, b) => newestKey(b).localeCompare(newestKey(a))), problems };
}

function isNotRegular(error: unknown): error is NotRegularFileError {
  return error instanceof NotRegularFileError;
}

function newestKey(s: SessionSummary): string {
  return s.lastTimestamp ?? new Date(s.modifiedMs).toISOString();
}

async function entries(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch {
    return [];
  }
}

/** Throws NotRegularFileError for a FIFO, socket, device or folder, without opening it. */
export async function summarizeSession(file: string): Promise<SessionSummary> {
  const sessionId = sessionIdFromPath(file);
  const stream = eventStream({ kind: "session", file });
  const ends = await readSessionEnds(file);
  for (const line of ends.lines) stream.line(line);
  const f = stream.mapper.facts;
  const { title, titleSource } = pickTitle(f.customTitle, f.aiTitle, f.firstPrompt, f.summary);
  const sidechains = (await entries(path.join(path.dirname(file), sessionId, "subagents"))).filter((n) => {
    const agentId = /^agent-(.+)\.jsonl$/.exec(n)?.[1];
    // Side requests (compaction, prompt suggestions, /btw) are not subagents (sideConversations.ts).
    return agentId !== undefined && !isSideConversation(agentId);
  });
  const s = ends.stats;
  return {
    sessionId,
    path: file,
    project: path.basename(path.dirname(file)),
    title,
    titleSource,
    ...(f.cwd !== undefined ? { cwd: f.cwd } : {}),
    ...(f.gitBranch !== undefined ? { gitBranch: f.gitBranch } : {}),
    ...(f.firstTimestamp !== undefined ? { firstTimestamp: f.firstTimestamp } : {}),
    ...(f.lastTimestamp !== undefined ? { lastTimestamp: f.lastTimestamp } : {}),
    // Counting prompts takes every line: only a file read whole has an exact count.
    ...(ends.whole ? { promptCount: f.promptCount } : {}),
    // The subagents' own files are the count; Agent calls seen in the lines read can only add to it.
    subagentCount: Math.max(sidechains.length, stream.mapper.agentCalls.size),
    sizeBytes: ends.size,
    modifiedMs: ends.mtimeMs,
    // Lines too long for the list are passed over by design, not damage.
    badLines: s.invalidUtf8 + s.notJson + s.notObject + s.truncated,
  };
}

function pickTitle(
  custom: string | undefined,
  ai: string | undefined,
  prompt: string | undefined,
  summary: string | undefined,
): { title: string; titleSource: SessionSummary["titleSource"] } {
  if (custom !== undefined && custom.trim() !== "") return { title: truncate(custom), titleSource: "custom" };
  if (ai !== undefined && ai.trim() !== "") return { title: truncate(ai), titleSource: "ai" };
  if (prompt !== undefined && prompt.trim() !== "") return { title: truncate(prompt), titleSource: "prompt" };
  if (summary !== undefined && summary.trim() !== "") return { title: truncate(summary), titleSource: "summary" };
  return { title: "", titleSource: "none" };
}

function truncate(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length <= MaxTitleChars ? oneLine : `${oneLine.slice(0, MaxTitleChars - 1)}…`;
}
