// What the CLI has written to its history folder, for scripted turns that must wait for it: a
// SendMessage resumes a finished agent from its sidechain file, and the CLI gives its own writer
// only a short while to get there first, too short on a loaded machine.
import fsp from "node:fs/promises";
import path from "node:path";
import { cliSessionFile } from "../../src/main/core/sessionFork.js";
import type { CliSurroundings } from "./modelServer.js";
import { sleep } from "./model/http.js";

/** How often the folder is looked at again while the state is not there yet. */
const LOOK_AGAIN_MS = 50;

/**
 * Resolves true once agent `agentId`'s sidechain transcript holds `text` (a row the CLI wrote), or
 * false if `cli.signal` aborts first.
 */
export async function sidechainHolds(cli: CliSurroundings, agentId: string, text: string): Promise<boolean> {
  const { projectsDir, signal } = cli;
  if (projectsDir === undefined) throw new Error("the model server was not told the CLI's projects folder (setProjectsDir)");
  const name = `agent-${agentId}.jsonl`;
  while (!(await anyHolds(await sidechainPaths(projectsDir, name), text))) {
    if (!(await sleep(LOOK_AGAIN_MS, signal))) return false;
  }
  return true;
}

/** Where the CLI may have put the file: `<project>/<session>/subagents/` (older CLIs: `<project>/`). */
async function sidechainPaths(projectsDir: string, name: string): Promise<string[]> {
  const found: string[] = [];
  for (const project of await dirsIn(projectsDir)) {
    found.push(path.join(project, name));
    for (const session of await dirsIn(project)) found.push(path.join(session, "subagents", name));
  }
  return found;
}

async function dirsIn(dir: string): Promise<string[]> {
  const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory()).map((e) => path.join(dir, e.name));
}

async function anyHolds(files: readonly string[], text: string): Promise<boolean> {
  for (const file of files) {
    const content = await fsp.readFile(file, "utf8").catch(() => "");
    if (content.includes(text)) return true;
  }
  return false;
}

/**
 * The lines of session `sessionId`'s main file under the CLI's history folder (`env` as the CLI
 * ran with), once it holds every part: 2.1.197 writes a turn's lines a moment after its answer.
 * Throws after `waitMs`.
 */
export async function sessionLinesHolding(env: NodeJS.ProcessEnv, sessionId: string, parts: readonly string[], waitMs: number): Promise<string[]> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const file = cliSessionFile(env, sessionId);
    const content = file === undefined ? "" : await fsp.readFile(file, "utf8");
    if (parts.every((p) => content.includes(p))) return content.split("\n").filter((l) => l.trim() !== "");
    if (Date.now() > deadline) throw new Error(`timed out waiting for session ${sessionId}'s file to hold ${parts.join(", ")}`);
    await new Promise((resolve) => setTimeout(resolve, LOOK_AGAIN_MS));
  }
}
