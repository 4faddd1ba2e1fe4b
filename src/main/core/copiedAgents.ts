// The agents of the turns a fork copied (issue 37). Neither CLI copies a subagent's file into a
// fork: the Agent calls come over, their files stay in the folder of the session that ran them
// (the fork's origin; for a fork of a fork a session beside it, or one it came from, as recorded).
// A fork's tab reads those folders once, so each copied card is offered its file as a restored
// tab's card is, and opening it reads the file from there (subagentSteps.ts).

import { findCopiedRuns, findOriginSidechains, originPlaces, type SessionPlace } from "../history/index.js";

/** A copied agent's file and its agent id (a card whose agent id is known takes only its own). */
export interface CopiedAgent {
  readonly path: string;
  readonly agentId: string;
}

export interface CopiedAgentsOptions {
  readonly projectsDir: string;
  /** The session the fork was made from. */
  readonly origin: string;
  /** The sessions that one was forked from, nearest first, as recorded (forkRecord.ts: recordedOrigins). */
  readonly originsOfOrigin?: readonly string[];
  /** The files were found: the cards can be offered them. */
  readonly onFound: () => void;
  readonly warn: (message: string, fields: Record<string, unknown>) => void;
}

/** What a fork's tab copied: its agents with steps to read, and its Workflow calls with their run ids. */
export interface CopiedWork {
  readonly calls: ReadonlySet<string>;
  readonly runs: ReadonlyMap<string, string>;
}

export class CopiedAgents {
  /** Agent call id → its agent's file, once read. */
  private byCall: ReadonlyMap<string, CopiedAgent> = new Map();
  /** Workflow call id → its run's folder, once read. */
  private runs: ReadonlyMap<string, string> = new Map();
  private reading: Promise<unknown> | undefined;

  constructor(private readonly options: CopiedAgentsOptions) {}

  /** How many files and runs are known: a change of the transcript's marks. */
  get size(): number {
    return this.byCall.size + this.runs.size;
  }

  /** The folder of the copied Workflow call `toolUseId`'s run. */
  runOf(toolUseId: string): string | undefined {
    return this.runs.get(toolUseId);
  }

  /** The copied Workflow calls whose runs were found. */
  runCalls(): Iterable<string> {
    return this.runs.keys();
  }

  /** The file of the copied Agent call `toolUseId`; with `agentId` (its card's, "" when not known), only that agent's. */
  fileOf(toolUseId: string, agentId: string): string | undefined {
    const agent = this.byCall.get(toolUseId);
    return agent !== undefined && (agentId === "" || agent.agentId === agentId) ? agent.path : undefined;
  }

  /** The copied Agent calls whose files were found. */
  calls(): Iterable<string> {
    return this.byCall.keys();
  }

  /**
   * Reads the folders once, never failing: the copied Agent calls' files are looked for in the
   * origin's folder, beside it, then in its own origins' folders; the copied Workflow calls' runs
   * in the origin's session folder and its origins', then beside the origin. `copied` is asked once.
   */
  read(copied: () => CopiedWork): Promise<void> {
    const { projectsDir, origin, originsOfOrigin = [], warn } = this.options;
    const failed = (what: string) => (error: unknown) => {
      warn(`could not read the ${what} of the session this one was forked from`, { origin, error: String(error) });
      return new Map<string, never>();
    };
    this.reading ??= (async () => {
      const { calls, runs } = copied();
      const origins = await originPlaces({ projectsDir, origins: [origin, ...originsOfOrigin] });
      const [files, runFolders] = await Promise.all([
        agentFilesOf(calls, origins).catch(failed("subagent files")),
        findCopiedRuns(runs, origins, origins[0]).catch(failed("Workflow runs")),
      ]);
      this.byCall = files;
      this.runs = runFolders;
      if (files.size + runFolders.size > 0) this.options.onFound();
    })().catch(failed("subagent files"));
    return this.reading.then(() => undefined);
  }
}

/**
 * The files of the agents a fork copied, by the Agent call each meta names: every agent file of
 * its origin's folder, and for calls in `calls` that folder lacks (a fork of a fork), those beside
 * it or in the folders of the sessions it came from (`originsOfOrigin`, as recorded), with the
 * agents nested in theirs (history/copiedSidechains.ts). Each session is found as a page's
 * session id is: inside the history folder only; gone, or in two project folders: passed over.
 */
export async function copiedAgentFiles(projectsDir: string, origin: string, calls: ReadonlySet<string>, originsOfOrigin: readonly string[] = []): Promise<ReadonlyMap<string, CopiedAgent>> {
  return agentFilesOf(calls, await originPlaces({ projectsDir, origins: [origin, ...originsOfOrigin] }));
}

async function agentFilesOf(calls: ReadonlySet<string>, origins: readonly SessionPlace[]): Promise<Map<string, CopiedAgent>> {
  const found = new Map<string, CopiedAgent>();
  for (const f of await findOriginSidechains(calls, origins)) {
    const id = f.meta?.toolUseId;
    if (id !== undefined && !found.has(id)) found.set(id, { path: f.path, agentId: f.agentId });
  }
  return found;
}
