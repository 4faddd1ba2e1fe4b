// The agents of the turns a fork copied (issue 37). Neither CLI copies a subagent's file into a
// fork: the Agent calls come over, their files stay in the folder of the session that ran them
// (the fork's origin; for a fork of a fork a session beside it, or one it came from, as recorded).
// A fork's tab reads those folders once, so each copied card is offered its file as a restored
// tab's card is, and opening it reads the file from there (subagentSteps.ts).

import { findCopiedRuns, findOriginSidechains } from "../history/index.js";

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
  private reading: Promise<void> | undefined;

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
   * in the origin's folder and its origins'. `copied` is asked once.
   */
  read(copied: () => CopiedWork): Promise<void> {
    const { projectsDir, origin, originsOfOrigin = [], warn } = this.options;
    this.reading ??= Promise.resolve()
      .then(() => {
        const { calls, runs } = copied();
        return Promise.all([copiedAgentFiles(projectsDir, origin, () => calls, originsOfOrigin), findCopiedRuns(runs, { projectsDir, origins: [origin, ...originsOfOrigin] })]);
      })
      .then(([found, runFolders]) => {
        this.byCall = found;
        this.runs = runFolders;
        if (found.size + runFolders.size > 0) this.options.onFound();
      })
      .catch((error: unknown) => warn("could not read the subagent files of the session this one was forked from", { origin, error: String(error) }));
    return this.reading;
  }
}

/**
 * The files of the agents a fork copied, by the Agent call each meta names: every agent file of
 * its origin's folder, and for calls in `calls` that folder lacks (a fork of a fork), those beside
 * it or in the folders of the sessions it came from (`originsOfOrigin`, as recorded), with the
 * agents nested in theirs (history/copiedSidechains.ts). Each session is found as a page's
 * session id is: inside the history folder only; gone, or in two project folders: passed over.
 */
export async function copiedAgentFiles(projectsDir: string, origin: string, calls: () => ReadonlySet<string>, originsOfOrigin: readonly string[] = []): Promise<ReadonlyMap<string, CopiedAgent>> {
  const found = new Map<string, CopiedAgent>();
  for (const f of await findOriginSidechains(calls, { projectsDir, origins: [origin, ...originsOfOrigin] })) {
    const id = f.meta?.toolUseId;
    if (id !== undefined && !found.has(id)) found.set(id, { path: f.path, agentId: f.agentId });
  }
  return found;
}
