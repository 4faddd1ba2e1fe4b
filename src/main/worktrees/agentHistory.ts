// What Claude Code's files say about agent worktrees: each sidechain meta.json that names one
// (`worktreePath`, `worktreeBranch`, beside `toolUseId`, `agentType`, `description`), and which
// sessions still run (`<config dir>/sessions/<pid>.json`). Reads only; bounded; never throws.
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import type { AgentWorktreeFact, LockHolder } from "./attribution.js";

const MaxMetaBytes = 256 * 1024;

/** The CLI's project folder name for a working directory: every character but ASCII letters and digits becomes `-`. */
export function projectFolderName(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, "-");
}

async function names(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

async function readJsonObject(file: string): Promise<Record<string, unknown> | undefined> {
  try {
    const info = await stat(file);
    if (!info.isFile() || info.size > MaxMetaBytes) return undefined;
    const value: unknown = JSON.parse(await readFile(file, "utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const str = (o: Record<string, unknown>, key: string): string | undefined => (typeof o[key] === "string" ? (o[key] as string) : undefined);

/**
 * The project folders of sessions started in the repository or a folder inside it. The prefix
 * also catches a sibling such as `app-2` of `app`; its facts name other paths and branches, so
 * they attach to nothing here.
 */
async function projectDirsOf(projectsDir: string, repoRoot: string): Promise<string[]> {
  const own = projectFolderName(repoRoot);
  return (await names(projectsDir)).filter((n) => n === own || n.startsWith(`${own}-`)).map((n) => path.join(projectsDir, n));
}

/** Every agent of the repository's sessions whose meta.json names a worktree. */
export async function readAgentWorktreeFacts(projectsDir: string, repoRoot: string): Promise<AgentWorktreeFact[]> {
  const facts: AgentWorktreeFact[] = [];
  for (const projectDir of await projectDirsOf(projectsDir, repoRoot)) facts.push(...(await readProject(projectDir)));
  return facts;
}

async function readProject(projectDir: string): Promise<AgentWorktreeFact[]> {
  const facts: AgentWorktreeFact[] = [];
  for (const sessionId of await names(projectDir)) {
    if (sessionId.endsWith(".jsonl")) continue;
    const subagents = path.join(projectDir, sessionId, "subagents");
    for (const name of await names(subagents)) {
      const agentId = /^agent-(.+)\.meta\.json$/.exec(name)?.[1];
      if (agentId === undefined) continue;
      const meta = await readJsonObject(path.join(subagents, name));
      if (meta === undefined) continue;
      const worktreePath = str(meta, "worktreePath");
      const worktreeBranch = str(meta, "worktreeBranch");
      if (worktreePath === undefined && worktreeBranch === undefined) continue;
      const toolUseId = str(meta, "toolUseId");
      const agentType = str(meta, "agentType");
      const description = str(meta, "description");
      facts.push({
        sessionId,
        agentId,
        ...(worktreePath !== undefined ? { worktreePath } : {}),
        ...(worktreeBranch !== undefined ? { worktreeBranch } : {}),
        ...(toolUseId !== undefined ? { toolUseId } : {}),
        ...(agentType !== undefined ? { agentType } : {}),
        ...(description !== undefined ? { description } : {}),
      });
    }
  }
  return facts;
}

export function isPidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Whether the process a Claude Code lock names still runs: the pid, and where /proc tells it, its
 * start time too (the lock's `start` is field 22 of /proc/<pid>/stat, observed on Linux).
 */
export async function isLockHolderAlive(holder: LockHolder): Promise<boolean> {
  if (!isPidAlive(holder.pid)) return false;
  if (holder.start === undefined) return true;
  const start = await processStartTime(holder.pid);
  return start === undefined || start === holder.start; // no /proc here: the pid is all there is to go on
}

/** A process's start time as /proc gives it (field 22 of /proc/<pid>/stat); undefined where there is no /proc. */
export async function processStartTime(pid: number): Promise<string | undefined> {
  let stat: string;
  try {
    stat = await readFile(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // Field 2 (the command) is in parentheses and may hold spaces: count from the last ")".
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
}

/**
 * Sessions the CLI marks as running: `sessions/<pid>.json` beside `projects/` (observed on 2.1.332:
 * `{"pid", "sessionId", "procStart", "cwd", "status", …}`) whose process still runs.
 */
export async function readLiveSessionIds(configDir: string): Promise<Set<string>> {
  const dir = path.join(configDir, "sessions");
  const live = new Set<string>();
  for (const name of await names(dir)) {
    const pid = Number(/^(\d+)\.json$/.exec(name)?.[1]);
    if (!isPidAlive(pid)) continue;
    const o = await readJsonObject(path.join(dir, name));
    const id = o === undefined ? undefined : str(o, "sessionId");
    const start = o === undefined ? undefined : str(o, "procStart");
    if (id !== undefined && (await isLockHolderAlive({ pid, ...(start !== undefined ? { start } : {}) }))) live.add(id);
  }
  return live;
}
