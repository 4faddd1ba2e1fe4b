// The Project panel's list: every `<project>/<sessionId>.jsonl` under the projects folder, with
// what a person needs to recognise it. One streamed pass per file; nothing is written.

import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import type { SessionSummary as ApiSessionSummary } from "../../shared/api.js";
import { DiskMapper } from "./diskMapper.js";
import { readJsonl } from "./jsonlReader.js";
import { isMainTranscriptName, sessionIdFromPath } from "./projectsDir.js";
import { isCompactionAgent } from "./sidechains.js";

export const MaxTitleChars = 80;

/** The app's summary (shared/api.ts), with the project folder's name and what the command line also shows. */
export interface SessionSummary extends Omit<ApiSessionSummary, "projectDir"> {
  /** The project folder name (the cwd with non-alphanumerics replaced by `-`). */
  readonly project: string;
  readonly titleSource: "custom" | "ai" | "prompt" | "summary" | "none";
  readonly modifiedMs: number;
  /** Lines that could not be read (not JSON, truncated, …). */
  readonly badLines: number;
}

/** All sessions under `projectsDir`, newest first. A missing folder gives an empty list. */
export async function listSessions(projectsDir: string): Promise<SessionSummary[]> {
  const summaries: SessionSummary[] = [];
  for (const project of await entries(projectsDir)) {
    const projectDir = path.join(projectsDir, project);
    for (const name of await entries(projectDir)) {
      if (!isMainTranscriptName(name)) continue;
      const summary = await summarizeSession(path.join(projectDir, name)).catch(() => undefined);
      if (summary !== undefined) summaries.push(summary);
    }
  }
  return summaries.sort((a, b) => newestKey(b).localeCompare(newestKey(a)));
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

export async function summarizeSession(file: string): Promise<SessionSummary> {
  const info = await stat(file);
  const sessionId = sessionIdFromPath(file);
  const mapper = new DiskMapper({ sessionId });
  const result = await readJsonl(file, { final: true, onRecord: ({ value }) => void mapper.map(value) });
  const f = mapper.facts;
  const { title, titleSource } = pickTitle(f.customTitle, f.aiTitle, f.firstPrompt, f.summary);
  const sidechains = (await entries(path.join(path.dirname(file), sessionId, "subagents"))).filter((n) => {
    const agentId = /^agent-(.+)\.jsonl$/.exec(n)?.[1];
    return agentId !== undefined && !isCompactionAgent(agentId);
  });
  const s = result.stats;
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
    promptCount: f.promptCount,
    subagentCount: Math.max(sidechains.length, mapper.agentCalls.size),
    sizeBytes: info.size,
    modifiedMs: info.mtimeMs,
    badLines: s.invalidUtf8 + s.tooLong + s.notJson + s.notObject + s.truncated,
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
