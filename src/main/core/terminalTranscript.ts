// Where a terminal session's hook says its transcript is. The hook's input is hostile (any process
// that has the socket's secret, or a CLI told anything): Baton opens only a session file that lies
// directly in a project folder of its history folder, named for the session the hook names, after
// every symbolic link is followed. Anything else is refused with the reason, and the hook is
// answered "ask".

import fsp from "node:fs/promises";
import path from "node:path";

export type TranscriptPlace =
  | { readonly ok: true; readonly project: string; readonly file: string }
  | { readonly ok: false; readonly reason: string };

/** A session id as the CLI makes them (a UUID), and never a path step. */
const SessionIdPattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The project folder (its name in `projectsDir`) of the session file `transcriptPath`, or why it is refused. */
export async function placeTranscript(projectsDir: string | undefined, sessionId: string, transcriptPath: string): Promise<TranscriptPlace> {
  if (projectsDir === undefined) return refused("Baton has no history folder to find the session in");
  if (!SessionIdPattern.test(sessionId) || sessionId.includes("..")) return refused(`the session id ${JSON.stringify(sessionId.slice(0, 80))} is not one the CLI makes`);
  if (!path.isAbsolute(transcriptPath)) return refused("the transcript path is not absolute");
  if (path.basename(transcriptPath) !== `${sessionId}.jsonl`) return refused("the transcript file is not named for the session");
  const [dir, file] = await Promise.all([realPath(projectsDir), realPath(transcriptPath)]);
  if (dir === undefined) return refused("Baton's history folder cannot be read");
  if (file === undefined) return refused("the transcript file does not exist");
  const steps = path.relative(dir, file).split(path.sep);
  const project = steps[0];
  if (steps.length !== 2 || project === undefined || project === ".." || project === "" || steps[1] !== `${sessionId}.jsonl`) {
    return refused("the transcript is not a session file of Baton's history folder");
  }
  return { ok: true, project, file };
}

async function realPath(p: string): Promise<string | undefined> {
  try {
    return await fsp.realpath(p);
  } catch {
    return undefined;
  }
}

function refused(reason: string): TranscriptPlace {
  return { ok: false, reason };
}
