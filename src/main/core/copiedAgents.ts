// The agents of the turns a fork copied (issue 37). Neither CLI copies a subagent's file into a
// fork: the Agent calls come over, their files stay in the folder of the session that ran them
// (the fork's origin, or for a fork of a fork a session beside it). A live fork's tab (made now
// or resumed) reads that folder once, so each copied card is offered its file as a restored tab's
// card is, and opening it reads the file from there (subagentSteps.ts).

import path from "node:path";
import { findSessionFile, findSiblingSidechains, findSidechainFiles } from "../history/index.js";

export interface CopiedAgentsOptions {
  readonly projectsDir: string;
  /** The session the fork was made from. */
  readonly origin: string;
  /** The files were found: the cards can be offered them. */
  readonly onFound: () => void;
  readonly warn: (message: string, fields: Record<string, unknown>) => void;
}

export class CopiedAgents {
  /** Agent call id → its agent's file, once read. */
  private filesByCall: ReadonlyMap<string, string> = new Map();
  private reading: Promise<void> | undefined;

  constructor(private readonly options: CopiedAgentsOptions) {}

  /** How many files are known: a change of the transcript's marks. */
  get size(): number {
    return this.filesByCall.size;
  }

  fileOf(toolUseId: string): string | undefined {
    return this.filesByCall.get(toolUseId);
  }

  files(): Iterable<[string, string]> {
    return this.filesByCall.entries();
  }

  /** Reads the folders once; `calls`: the copied Agent calls, looked for beside the origin when its folder lacks them. */
  read(calls: () => ReadonlySet<string>): Promise<void> {
    this.reading ??= copiedAgentFiles(this.options.projectsDir, this.options.origin, calls).then(
      (files) => {
        this.filesByCall = files;
        if (files.size > 0) this.options.onFound();
      },
      (error: unknown) => this.options.warn("could not read the subagent files of the session this one was forked from", { origin: this.options.origin, error: String(error) }),
    );
    return this.reading;
  }
}

/**
 * Every agent file of the origin's folder by the Agent call its meta names, and of each session
 * beside it that holds one of `calls` the origin's folder lacks (a fork of a fork: with its agents'
 * own nested agents). The origin is found as a page's session id is: inside the history folder
 * only; gone, or in two project folders: none.
 */
export async function copiedAgentFiles(projectsDir: string, origin: string, calls: () => ReadonlySet<string>): Promise<ReadonlyMap<string, string>> {
  const file = await findSessionFile(origin, projectsDir).catch(() => undefined);
  const files = new Map<string, string>();
  if (file === undefined) return files;
  const project = path.dirname(file);
  const addFolder = async (sessionId: string): Promise<void> => {
    for (const f of await findSidechainFiles(project, sessionId)) {
      const id = f.meta?.toolUseId;
      if (id !== undefined && !files.has(id)) files.set(id, f.path);
    }
  };
  await addFolder(origin);
  const missing = new Set([...calls()].filter((id) => !files.has(id)));
  if (missing.size === 0) return files;
  // A sibling's file sits at <project>/<session>/subagents/agent-<id>.jsonl.
  const sessions = new Set((await findSiblingSidechains(project, origin, missing)).map((f) => path.basename(path.dirname(path.dirname(f.path)))));
  for (const sessionId of sessions) await addFolder(sessionId);
  return files;
}
