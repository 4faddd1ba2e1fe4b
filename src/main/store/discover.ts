// Finds every transcript under a projects dir (PROTOCOL.md 6.1): `<P>/<session>.jsonl` and
// `<P>/<session>/subagents/agent-<id>.jsonl`, plus CLI 2.0.x sidechains at the project root
// (`<P>/agent-<id>.jsonl`, whose session is only named inside). Directory reads only, so an
// unchanged re-scan stays cheap; stat happens in the indexer.
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

const AGENT_FILE = /^agent-(.+)\.jsonl$/;

export function discoverTranscripts(projectsDir: string): DiscoveredFile[] {
  const out: DiscoveredFile[] = [];
  for (const project of readDir(projectsDir)) {
    if (!project.isDirectory()) continue;
    const projectDir = path.join(projectsDir, project.name);
    const entries = readDir(projectDir);
    const dirs = new Set(entries.filter((e) => e.isDirectory()).map((e) => e.name));
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const rootAgent = AGENT_FILE.exec(entry.name)?.[1];
      if (rootAgent !== undefined && !isCompactionAgent(rootAgent)) {
        out.push({ path: path.join(projectDir, entry.name), project: project.name, sessionId: null, agentId: rootAgent });
      }
      if (!isMainTranscriptName(entry.name)) continue;
      const sessionId = entry.name.slice(0, -".jsonl".length);
      if (dirs.has(sessionId)) out.push(...sidechainsOf(projectDir, project.name, sessionId));
      out.push({ path: path.join(projectDir, entry.name), project: project.name, sessionId, agentId: null });
    }
  }
  return out;
}

function sidechainsOf(projectDir: string, project: string, sessionId: string): DiscoveredFile[] {
  const dir = path.join(projectDir, sessionId, "subagents");
  const out: DiscoveredFile[] = [];
  for (const entry of readDir(dir)) {
    const match = AGENT_FILE.exec(entry.name);
    if (!entry.isFile() || !match?.[1] || isCompactionAgent(match[1])) continue;
    out.push({ path: path.join(dir, entry.name), project, sessionId, agentId: match[1] });
  }
  return out;
}

function readDir(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}
