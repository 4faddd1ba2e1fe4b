// Finding a session's subagent transcripts and the Agent/Task call each belongs to
// (from meta.json, the call's result or the prompt). Layouts, newest first:
//   <project>/<session>/subagents/agent-<id>.jsonl (+ .meta.json naming `toolUseId`, `spawnDepth`)
//   the same without .meta.json (linked through the call's result: `agentId`, or by prompt)
//   <project>/agent-<id>.jsonl at the project root (CLI 2.0.x; lines carry the parent sessionId)
// Inline `isSidechain` rows and `agent_progress` mirrors live in the main file (see DiskMapper).
// Side requests (`agent-acompact-*`, prompt suggestions, `/btw` questions, 2.0.x `Warmup`) are not
// subagents and are left out (sideConversations.ts); a `/subtask` fork is one, with no call.

import path from "node:path";
import type { AgentCall } from "./agentCall.js";
import { obj, str, textOf } from "../../shared/jsonFields.js";
import { readJsonl } from "./jsonlReader.js";
import type { HistoryProblem } from "./problems.js";
import { notRegularAt, notRegularMessage } from "../platform/regularFile.js";
import { isSideConversation, isWarmupPrompt } from "./sideConversations.js";
import { insideProject, isCompactionAgent, listDir, readMeta, type SidechainMeta } from "./subagentFolder.js";

export interface SidechainFile {
  readonly agentId: string;
  readonly path: string;
  readonly layout: "subagents" | "root";
  readonly meta?: SidechainMeta;
  /** The first prompt in the file, for linking files that have no meta.json. */
  readonly prompt?: string;
}

const AgentFile = /^agent-(.+)\.jsonl$/;

/** The first lines of a sidechain: its session id and its prompt (line 0 when stored). */
async function readHead(filePath: string): Promise<{ sessionId?: string; prompt?: string }> {
  let sessionId: string | undefined;
  let prompt: string | undefined;
  let seen = 0;
  try {
    await readJsonl(filePath, {
      final: true,
      onRecord: ({ value }) => {
        sessionId ??= str(value, "sessionId");
        if (str(value, "type") === "user" && prompt === undefined) {
          const text = textOf(obj(value, "message")?.["content"] ?? null);
          if (text !== "") prompt = text;
        }
        seen++;
        return prompt === undefined && seen < 8;
      },
    });
  } catch {
    return {};
  }
  return { ...(sessionId !== undefined ? { sessionId } : {}), ...(prompt !== undefined ? { prompt } : {}) };
}

/**
 * Every sidechain file of `sessionId` under `projectDir`. Missing folders give an empty list; an
 * `agent-*.jsonl` that is not a regular file is left out, with a notice in `problems`. Each file's
 * `path` is where it really is, inside the project folder: files and folders linked out of it are
 * left out too, with a notice.
 */
export async function findSidechainFiles(projectDir: string, sessionId: string, problems?: HistoryProblem[]): Promise<SidechainFile[]> {
  const files: SidechainFile[] = [];
  const where = [sessionId, "subagents"];
  const subDir = await insideProject(projectDir, where, "the subagents folder", problems);
  for (const name of subDir === undefined ? [] : (await listDir(subDir)).sort()) {
    const agentId = AgentFile.exec(name)?.[1];
    if (agentId === undefined || isCompactionAgent(agentId)) continue;
    const side = isSideConversation(agentId);
    // A side request's name is its label; only a fork's meta says it is a subagent after all.
    if (side && !(await isForkFile(projectDir, [...where, `agent-${agentId}.meta.json`]))) continue;
    const filePath = await insideProject(projectDir, [...where, name], "a subagent's transcript", problems);
    if (filePath === undefined) continue;
    const kind = await notRegularAt(filePath);
    if (kind !== undefined) {
      problems?.push({ kind: "not_regular_file", path: filePath, message: notRegularMessage(kind) });
      continue;
    }
    const metaPath = await insideProject(projectDir, [...where, `agent-${agentId}.meta.json`], "a subagent's meta.json", problems);
    const meta = metaPath === undefined ? undefined : await readMeta(metaPath);
    const head = meta?.toolUseId === undefined ? await readHead(filePath) : {};
    if (isWarmupPrompt(head.prompt)) continue;
    files.push({
      agentId,
      path: filePath,
      layout: "subagents",
      ...(meta !== undefined ? { meta } : {}),
      ...(head.prompt !== undefined ? { prompt: head.prompt } : {}),
    });
  }
  for (const name of (await listDir(projectDir)).sort()) {
    const agentId = AgentFile.exec(name)?.[1];
    if (agentId === undefined || isSideConversation(agentId)) continue;
    const filePath = await insideProject(projectDir, [name], "a subagent's transcript", problems);
    if (filePath === undefined) continue;
    const head = await readHead(filePath);
    if (head.sessionId !== sessionId || isWarmupPrompt(head.prompt)) continue;
    files.push({ agentId, path: filePath, layout: "root", ...(head.prompt !== undefined ? { prompt: head.prompt } : {}) });
  }
  return files;
}

async function isForkFile(projectDir: string, metaNames: readonly string[]): Promise<boolean> {
  const metaPath = await insideProject(projectDir, metaNames, "a subagent's meta.json");
  return metaPath !== undefined && (await readMeta(metaPath))?.isFork === true;
}

/** Whether the linker may place `file` on a call: never a side request; a fork only by its agent id. */
function callLess(file: SidechainFile): boolean {
  return file.meta?.isFork === true || isSideConversation(file.agentId) || isWarmupPrompt(file.prompt);
}

/**
 * Links sidechain files to Agent calls: by meta `toolUseId`, else by the agent id the call's
 * result named, else by the prompt text. A `/subtask` fork has no call of its own: only the card
 * made for it (forkCards.ts, whose launch names its agent id) takes it; side requests are never
 * placed. Returns toolUseId → file for newly linked files;
 * `files` that stay unlinked may belong to calls not read yet (nested agents).
 */
export function linkSidechains(
  files: readonly SidechainFile[],
  calls: ReadonlyMap<string, AgentCall>,
  alreadyLinked: ReadonlyMap<string, SidechainFile>,
  hasEmbedded: (toolUseId: string) => boolean = () => false,
): Map<string, SidechainFile> {
  const links = new Map<string, SidechainFile>();
  const taken = new Set<string>([...alreadyLinked.values()].map((f) => f.path));
  const isFree = (toolUseId: string): boolean => !alreadyLinked.has(toolUseId) && !links.has(toolUseId);
  const claim = (toolUseId: string, file: SidechainFile): void => {
    links.set(toolUseId, file);
    taken.add(file.path);
  };
  for (const file of files) {
    const id = file.meta?.toolUseId;
    if (id !== undefined && !taken.has(file.path) && calls.has(id) && isFree(id) && !isSideConversation(file.agentId)) claim(id, file);
  }
  for (const file of files) {
    if (taken.has(file.path) || (isSideConversation(file.agentId) && file.meta?.isFork !== true)) continue;
    const call = [...calls.values()].find((c) => c.agentId === file.agentId && isFree(c.toolUseId));
    if (call !== undefined) claim(call.toolUseId, file);
  }
  for (const file of files) {
    if (taken.has(file.path) || file.prompt === undefined || callLess(file)) continue;
    const prompt = file.prompt.trim();
    const call = [...calls.values()].find((c) => c.prompt.trim() === prompt && c.agentId === undefined && isFree(c.toolUseId));
    if (call !== undefined) claim(call.toolUseId, file);
  }
  // Last resort for files that name nothing: a call that names no agent and wants this agent type.
  for (const file of files) {
    if (taken.has(file.path) || file.meta?.toolUseId !== undefined || callLess(file)) continue;
    const type = file.meta?.agentType;
    const call = [...calls.values()].find(
      (c) => c.agentId === undefined && !c.failed && isFree(c.toolUseId) && !hasEmbedded(c.toolUseId) && (type === undefined || c.subagentType === "" || c.subagentType === type),
    );
    if (call !== undefined) claim(call.toolUseId, file);
  }
  return links;
}

/**
 * The files of a fork's copied agents (`toolUseIds`: its Agent calls its own folder lacks): the
 * sidechains beside it that name them, and every other agent file of those sessions' folders,
 * where the agents they started (nested ones) are. Each is known by the call its meta names: the
 * other agents of those folders come along, and only a call of the fork's ever reads one.
 */
export async function findForkedSidechains(projectDir: string, sessionId: string, toolUseIds: ReadonlySet<string>, problems?: HistoryProblem[]): Promise<SidechainFile[]> {
  const beside = await findSiblingSidechains(projectDir, sessionId, toolUseIds, problems);
  const found = [...beside];
  // <project>/<session>/subagents/agent-<id>.jsonl: the session that ran them.
  const known = new Set(found.map((f) => f.path));
  for (const origin of new Set(beside.map((f) => path.basename(path.dirname(path.dirname(f.path)))))) {
    for (const f of await findSidechainFiles(projectDir, origin)) {
      if (f.meta?.toolUseId === undefined || known.has(f.path)) continue;
      known.add(f.path);
      found.push(f);
    }
  }
  return found;
}

/**
 * Sidechains of other sessions in the same project whose meta names one of `toolUseIds`: a
 * `--fork-session` copy keeps the Agent calls but not their sidechains (neither CLI copies them).
 */
async function findSiblingSidechains(
  projectDir: string,
  sessionId: string,
  toolUseIds: ReadonlySet<string>,
  problems?: HistoryProblem[],
): Promise<SidechainFile[]> {
  const found: SidechainFile[] = [];
  for (const entry of (await listDir(projectDir)).sort()) {
    if (entry === sessionId || entry.endsWith(".jsonl") || entry === "memory") continue;
    // Another session's folder linked out of the project is not read (nor reported: not this session's).
    const subDir = await insideProject(projectDir, [entry, "subagents"], "the subagents folder");
    if (subDir === undefined) continue;
    const names = new Set(await listDir(subDir));
    for (const name of names) {
      const agentId = /^agent-(.+)\.meta\.json$/.exec(name)?.[1];
      if (agentId === undefined || isSideConversation(agentId)) continue;
      // A meta without its transcript has nothing to load: the card keeps its summary.
      if (!names.has(`agent-${agentId}.jsonl`)) continue;
      const metaPath = await insideProject(projectDir, [entry, "subagents", name], "a subagent's meta.json");
      const meta = metaPath === undefined ? undefined : await readMeta(metaPath);
      if (meta?.toolUseId === undefined || !toolUseIds.has(meta.toolUseId)) continue;
      const filePath = await insideProject(projectDir, [entry, "subagents", `agent-${agentId}.jsonl`], "a forked subagent's transcript", problems);
      if (filePath !== undefined) found.push({ agentId, path: filePath, layout: "subagents", meta });
    }
  }
  return found;
}
