// A live tab misses what the CLI only writes to disk: a nested agent's own messages (2.1.197
// streams nothing below depth 1, docs/protocol-notes.md "Subagents"), and the steps a capped
// record dropped. This reads a subagent's sidechain file when its card asks and follows it from
// there, through the history mapper, so the live state can take the new events in (the reducer
// keeps one copy of what it already saw live).

import { existsSync } from "node:fs";
import path from "node:path";
import type { ClientEvent } from "../../shared/events.js";
import { stepsNotStreamed, type Block } from "../../shared/transcript.js";
import { eventStream, findSidechainFiles, followJsonl, markRecords, projectFolderName, workflowRunDir, type Follower, type MarkRecord } from "../history/index.js";
import { containedPath, isPlainId, staysInsideDir } from "../platform/containedPath.js";

/** Where a live session's history goes: `<projectsDir>/<cwd as folder name>/<sessionId>/subagents/`. */
export interface SidechainLocation {
  readonly projectsDir: string;
  /** The cwd the CLI reported first, then the one it was started in (they differ behind symlinks). */
  readonly cwds: readonly string[];
  readonly sessionId: string;
  /** A fork's copied agent's file, found in its origin's folder (copiedAgents.ts); with its card's agent id, only that agent's. */
  readonly copied?: (toolUseId: string, taskId: string) => string | undefined;
}

interface Reading {
  /** Every event the file has given so far, oldest first. */
  readonly events: ClientEvent[];
  readonly follower: Follower;
}

export interface SidechainReaderOptions {
  /** Events of lines not read before (from a read, or the file growing). */
  readonly onEvents: (events: readonly ClientEvent[]) => void;
  readonly onError: (path: string, error: unknown) => void;
  readonly pollMs?: number;
}

/**
 * The sidechains a live tab's cards asked for. A file once found is followed as it grows (the
 * agent may still run, or be resumed with SendMessage) until `stop()`.
 */
export class SidechainReader {
  private readonly readings = new Map<string, Promise<Reading | undefined>>();
  private readonly found = new Map<string, Reading>();
  private stopped = false;

  constructor(private readonly options: SidechainReaderOptions) {}

  /** The agent's file has been found: its card follows the disk from now on. */
  has(toolUseId: string): boolean {
    return this.found.has(toolUseId);
  }

  /**
   * Reads what the agent's file holds now (following it from then on) and returns every event it
   * gave so far; the new ones went to `onEvents` first. Undefined: no file (yet).
   */
  async read(where: SidechainLocation, toolUseId: string, taskId: string): Promise<readonly ClientEvent[] | undefined> {
    let reading = this.readings.get(toolUseId);
    if (reading === undefined) {
      reading = this.open(where, toolUseId, taskId);
      this.readings.set(toolUseId, reading);
    }
    const found = await reading;
    if (found === undefined) {
      // Not written yet: a later read looks again.
      if (this.readings.get(toolUseId) === reading) this.readings.delete(toolUseId);
      return undefined;
    }
    await found.follower.check();
    return found.events;
  }

  stop(): void {
    this.stopped = true;
    for (const reading of this.found.values()) reading.follower.stop();
  }

  private async open(where: SidechainLocation, toolUseId: string, taskId: string): Promise<Reading | undefined> {
    const file = await locate(where, toolUseId, taskId);
    if (file === undefined || this.stopped) return undefined;
    const stream = eventStream({ kind: "sidechain", sessionId: where.sessionId, toolUseId });
    const events: ClientEvent[] = [];
    const follower = followJsonl(file, {
      pollMs: this.options.pollMs ?? 1000,
      onRecords: (records) => {
        const added = records.flatMap((r) => stream.line(r.value));
        events.push(...added);
        if (added.length > 0) this.options.onEvents(added);
      },
      // Replaced or truncated: read again from the start (the reducer keeps one copy of each line).
      onReset: () => {
        stream.restart();
        events.length = 0;
      },
      onError: (error) => this.options.onError(file, error),
    });
    const reading: Reading = { events, follower };
    this.found.set(toolUseId, reading);
    return reading;
  }
}

/** The agent's file: named by its agent id, else by the meta.json naming its Agent call; a fork's copied agent's, where its origin has it. */
async function locate(where: SidechainLocation, toolUseId: string, taskId: string): Promise<string | undefined> {
  const copied = where.copied?.(toolUseId, taskId);
  if (copied !== undefined) return copied;
  for (const cwd of new Set(where.cwds)) {
    // A project folder linked out of the history folder is not read (containedPath.ts).
    const project = await containedPath(where.projectsDir, projectFolderName(cwd));
    if (project.kind !== "inside") continue;
    const files = await findSidechainFiles(project.path, where.sessionId);
    const file = files.find((f) => taskId !== "" && f.agentId === taskId) ?? files.find((f) => f.meta?.toolUseId === toolUseId);
    if (file !== undefined) return file.path;
  }
  return undefined;
}

/** The folder of a Workflow run's agent transcripts, once it exists (workflowRuns.ts). */
export function workflowRunPath(where: SidechainLocation, runId: string): string | undefined {
  for (const cwd of new Set(where.cwds)) {
    const project = path.join(where.projectsDir, projectFolderName(cwd));
    const dir = workflowRunDir(path.join(project, where.sessionId), runId);
    // The run's own files are checked against the project folder when read (workflowRuns.ts).
    if (existsSync(dir) && staysInsideDir(project, where.projectsDir)) return dir;
  }
  return undefined;
}

/** Where the CLI writes the sidechain of agent `taskId` (it may not exist yet). */
export function expectedSidechainPath(where: SidechainLocation, taskId: string): string | undefined {
  const cwd = where.cwds[0];
  // The id comes from the stream or a file: only a plain name becomes part of a path.
  if (cwd === undefined || !isPlainId(taskId)) return undefined;
  return path.join(where.projectsDir, projectFolderName(cwd), where.sessionId, "subagents", `agent-${taskId}.jsonl`);
}

/**
 * Marks the records in `paths` (by Agent tool_use id) whose steps the stream did not carry with
 * their sidechain path, so a card knows it can load its steps; for a card's steps, as
 * `loadSubagentBlocks` returns them (the transcript goes through SubagentSteps' MarkedTranscript).
 * Unchanged subtrees keep their identity (the history room's one walk: sidechainPaths.ts).
 */
export function stepsWithSidechainPaths(blocks: readonly Block[], paths: ReadonlyMap<string, string>): readonly Block[] {
  return paths.size === 0 ? blocks : markRecords(blocks, offeredPaths(paths));
}

/** A record the stream carried no steps of gets its offered file; a marked record's own records wait until it is opened. */
export function offeredPaths(paths: ReadonlyMap<string, string>): MarkRecord {
  return (record, inner) => {
    const file = paths.get(record.toolUseId);
    if (file !== undefined && stepsNotStreamed(record) && record.sidechainPath === undefined) return { ...record, sidechainPath: file };
    const blocks = inner(record.blocks);
    return blocks === record.blocks ? record : { ...record, blocks };
  };
}
