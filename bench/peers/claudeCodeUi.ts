// claude-code-ui's session reader (server/projects.js of @siteboon/claude-code-ui) over the
// archive, its server never started: a fresh Node process (claudeCodeUi/reader.mjs) imports the
// module and calls getProjects() (what its sidebar loads: every project folder's transcripts read
// line by line for their cwd, then the newest sessions of each parsed again for their page) or
// getSessionMessages(project, session, 20, 0) (its chat view's first page of a session: every
// transcript of the project read and filtered by session id). The reader finds the history at
// $HOME/.claude/projects, so HOME is a folder of the benchmark's whose .claude/projects links to
// the archive. The native sqlite3 it imports is replaced by a stand-in that throws on use
// (claudeCodeUi/sqlite3StandIn.mjs): it reads Cursor's chats only, and this HOME has none.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { InstalledPeer } from "./install.js";
import { lastJson, runTimed, type TimedRun } from "./timed.js";

const here = path.join(path.dirname(fileURLToPath(import.meta.url)), "claudeCodeUi");

/** Its chat view asks for this many of a session's newest messages first (the bundle's page size). */
export const FirstPageMessages = 20;

export interface ClaudeCodeUi {
  readonly projectsJs: string;
  readonly home: string;
}

/** A HOME whose .claude/projects is the archive (a link), for the reader at `installed`. */
export function prepareClaudeCodeUi(installed: InstalledPeer, projectsDir: string, scratch: string): ClaudeCodeUi {
  const projectsJs = path.join(installed.packageDir, "server", "projects.js");
  if (!fs.existsSync(projectsJs)) throw new Error(`claude-code-ui ${installed.peer.version} has no server/projects.js`);
  const home = path.join(scratch, "claude-code-ui-home");
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(path.join(home, ".claude"), { recursive: true });
  fs.symlinkSync(path.resolve(projectsDir), path.join(home, ".claude", "projects"), "dir");
  return { projectsJs, home };
}

export interface ReaderRun<T> {
  /** The call's own time, in the process (its module already imported), as Baton's list is timed. */
  readonly ms: number;
  /** The whole process's wall time and peak RSS. */
  readonly process: TimedRun;
  readonly report: T;
}

export interface ProjectsReport {
  readonly projects: number;
  readonly sessionsShown: number;
  readonly sessionsCounted: number;
}

export interface MessagesReport {
  readonly messages: number;
  readonly total: number;
}

export function readProjects(ui: ClaudeCodeUi): ReaderRun<ProjectsReport> {
  return read<ProjectsReport>(ui, ["projects"]);
}

/** The first page of the session in `sessionFile` (its project is its folder's name, its id the file's). */
export function readFirstPage(ui: ClaudeCodeUi, sessionFile: string): ReaderRun<MessagesReport> {
  const projectName = path.basename(path.dirname(sessionFile));
  const sessionId = path.basename(sessionFile, ".jsonl");
  return read<MessagesReport>(ui, ["messages", projectName, sessionId, String(FirstPageMessages)]);
}

function read<T>(ui: ClaudeCodeUi, args: readonly string[]): ReaderRun<T> {
  const register = pathToFileURL(path.join(here, "register.mjs")).href;
  const reader = path.join(here, "reader.mjs");
  const env = { PATH: process.env["PATH"] ?? "", HOME: ui.home, NODE_ENV: "production" };
  const run = runTimed(process.execPath, ["--import", register, reader, ui.projectsJs, ...args], { env, cwd: ui.home });
  const report = lastJson<T & { ms: number }>(run.stdout, "claude-code-ui's reader");
  return { ms: report.ms, process: run, report };
}
