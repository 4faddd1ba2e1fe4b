// Fork from a prompt (issue 37): where the CLI's `--resume <id> --fork-session
// --resume-session-at <uuid>` must cut, read from the original session's file, and the turns
// before that point as events, so the fork's tab shows them before its first answer streams in.
// The cut is the prompt's own `parentUuid`: the CLI keeps the chain up to and including that
// entry (docs/protocol-notes.md). A first prompt has no parent: its fork is a new session.

import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import type { ClientEvent } from "../../shared/events.js";
import type { JsonObject } from "../../shared/protocol/messages.js";
import { agentCallsOf, eventStream, readJsonl, type EventStream, type ForkOrigins } from "../history/index.js";
import type { RecordedCall } from "../hub/index.js";
import { cliProjectsDir } from "../platform/projectsDir.js";
import { AppError } from "./appError.js";
import { changedFrom, sizeOf } from "./lateLines.js";

export interface ForkPoint {
  /** The entry the fork keeps up to (`--resume-session-at`); undefined for a first prompt. */
  readonly resumeAt?: string;
  /** The turns before the prompt, as the live stream would have given them. */
  readonly earlier: readonly ClientEvent[];
  /** The model calls of the agents in those turns, from the original's subagent files (the fork's total and their cards' shares). */
  readonly agentCalls?: readonly RecordedCall[];
}

/** The session's file where the CLI with `env` writes (any project folder: the CLI names long ones its own way). */
export function cliSessionFile(env: NodeJS.ProcessEnv, sessionId: string): string | undefined {
  const projectsDir = cliProjectsDir(env);
  let folders: string[];
  try {
    folders = readdirSync(projectsDir);
  } catch {
    return undefined;
  }
  for (const folder of folders) {
    const file = path.join(projectsDir, folder, `${sessionId}.jsonl`);
    if (existsSync(file)) return file;
  }
  return undefined;
}


/**
 * Where a fork from prompt `promptUuid` of session `sessionId` starts, in the file the CLI with
 * `env` keeps it in; waits up to `waitMs` for the file to be made and to hold the prompt (2.1.197
 * may not have made a new session's file yet when its first answers are shown). `origins`: the
 * sessions this one was forked from, as recorded, where the agents of turns it copied ran.
 */
export async function findForkPoint(env: NodeJS.ProcessEnv, sessionId: string, promptUuid: string, waitMs = 0, origins: readonly string[] = []): Promise<ForkPoint> {
  const until = Date.now() + waitMs;
  for (;;) {
    const file = cliSessionFile(env, sessionId);
    if (file !== undefined) return readForkPoint(file, promptUuid, Math.max(0, until - Date.now()), { projectsDir: cliProjectsDir(env), origins });
    if (Date.now() >= until) throw new AppError("not_found", "This session's file is not where Claude Code keeps sessions: it cannot be forked.");
    await delay(Math.min(50, until - Date.now()));
  }
}

/**
 * Where a fork from prompt `promptUuid` of the session in `file` starts. Fails "not_found" when the
 * file has no such prompt, after waiting up to `waitMs` for the file to grow to hold it.
 */
export async function readForkPoint(file: string, promptUuid: string, waitMs = 0, from: ForkOrigins = {}): Promise<ForkPoint> {
  const until = Date.now() + waitMs;
  for (;;) {
    // Measured before the read: lines the CLI writes while the file is read are growth to read again.
    const size = await sizeOf(file);
    const lines = await readLines(file);
    const prompt = lines.find((line) => line["uuid"] === promptUuid && line["type"] === "user");
    if (prompt !== undefined) {
      const { point, stream } = forkPointOf(file, lines, prompt);
      const agentCalls = stream === undefined ? [] : await agentCallsOf(file, stream, from);
      return agentCalls.length === 0 ? point : { ...point, agentCalls };
    }
    if (!(await changedFrom(file, size, until))) throw new AppError("not_found", "This prompt is not in the session's file (yet): it cannot be forked from.");
  }
}

/** The history's own reader (bounded lines, never the whole file as one string), heavy lines kept: the chain runs through attachment lines too (on 2.1.332 a prompt's parent is one). */
async function readLines(file: string): Promise<JsonObject[]> {
  const lines: JsonObject[] = [];
  await readJsonl(file, { final: true, keepHeavy: true, onRecord: (record) => void lines.push(record.value) });
  return lines;
}

/** The fork point, and the stream that read the kept turns (the agents they started). */
function forkPointOf(file: string, lines: readonly JsonObject[], prompt: JsonObject): { readonly point: ForkPoint; readonly stream?: EventStream } {
  const parent = prompt["parentUuid"];
  if (typeof parent !== "string") return { point: { earlier: [] } };
  const chain = chainUpTo(lines, parent);
  const stream = eventStream({ kind: "session", file });
  const earlier: ClientEvent[] = [];
  for (const line of lines) {
    const uuid = line["uuid"];
    if (typeof uuid === "string" && chain.has(uuid)) earlier.push(...stream.line(line).filter(shownBeforeFork));
  }
  // Ended as a restored session's are: what was open then is stopped, and the fork's turn starts anew.
  return { point: { resumeAt: parent, earlier: [...earlier, { kind: "process_exit", code: 0, signal: null }] }, stream };
}

/** The uuids from `last` back to the session's first entry (a file may hold other branches). */
function chainUpTo(lines: readonly JsonObject[], last: string): Set<string> {
  const parentOf = new Map<string, string | undefined>();
  for (const line of lines) {
    const uuid = line["uuid"];
    const parent = line["parentUuid"];
    if (typeof uuid === "string") parentOf.set(uuid, typeof parent === "string" ? parent : undefined);
  }
  const chain = new Set<string>();
  for (let at: string | undefined = last; at !== undefined && !chain.has(at); at = parentOf.get(at)) chain.add(at);
  return chain;
}

/** The fork's own CLI announces its session: the original's id is not the fork's. */
function shownBeforeFork(event: ClientEvent): boolean {
  return event.kind !== "session_init";
}
