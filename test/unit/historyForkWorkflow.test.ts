// A Workflow run a fork copied (issue 37): neither CLI copies a run's folder into a fork, so a
// reopened fork's Workflow card finds the run in the folder of the session that ran it: beside the
// fork, or, for a fork in another project folder (a new worktree), in the origin's folder as
// Baton's audit trail recorded it. Built from the recorded Workflow session (CLI 2.1.197).
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadSubagentBlocks } from "../../src/main/history/historySession.js";
import { restoreSession } from "../../src/main/history/restore.js";
import type { SessionAudit } from "../../src/main/audit/audit.js";
import { mainTranscriptFiles, needRecording } from "../support/recordings.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-fork-workflow-");
const ForkId = "f0f0f0f0-0000-4000-8000-000000000001";
const CallId = "toolu_main_t0_0";

/** The recorded Workflow session in a history folder of its own, and a fork of it (its main lines, under the fork's id) in `forkFolder`. */
function planted(forkFolder?: string): { readonly projectsDir: string; readonly origin: string; readonly originRun: string; readonly fork: string } {
  const main = mainTranscriptFiles(needRecording("workflow"))[0]!;
  const projectsDir = path.join(tempDir(), "projects");
  cpSync(path.dirname(path.dirname(main)), projectsDir, { recursive: true });
  const project = path.join(projectsDir, path.basename(path.dirname(main)));
  const origin = path.basename(main, ".jsonl");
  const folder = path.join(projectsDir, forkFolder ?? path.basename(project));
  mkdirSync(folder, { recursive: true });
  const fork = path.join(folder, `${ForkId}.jsonl`);
  writeFileSync(fork, readFileSync(main, "utf8").replaceAll(origin, ForkId));
  return { projectsDir, origin, originRun: path.join(project, origin, "subagents", "workflows"), fork };
}

async function runAgents(file: string, options: { readonly projectsDir: string; readonly audit?: SessionAudit }): Promise<{ readonly path: string | undefined; readonly agents: readonly (string | undefined)[] }> {
  const { session, transcript } = await restoreSession(file, options);
  const card = transcript.blocks.find((b) => b.call?.toolUseId === CallId)?.call?.subagent;
  const blocks = await loadSubagentBlocks(session, CallId);
  return { path: card?.sidechainPath, agents: blocks.map((b) => b.call?.subagent?.description) };
}

describe("a fork's copied Workflow run", () => {
  it("reopened beside its origin: the card offers the origin's run, whose agents load", async () => {
    const { projectsDir, originRun, fork } = planted();
    const found = await runAgents(fork, { projectsDir });
    expect(path.dirname(found.path ?? "")).toBe(originRun);
    expect(found.agents).toEqual(["Reader one", "Reader two"]);
  });

  it("in another project folder: found through the origins the audit trail recorded, and not without them", async () => {
    const { projectsDir, origin, originRun, fork } = planted("-home-user-code-workflow--claude-worktrees-again");
    expect(await runAgents(fork, { projectsDir })).toEqual({ path: undefined, agents: [] });
    const audit: SessionAudit = { permissions: [], interrupts: [], forkOrigins: ["gone", "../escape", origin] };
    const found = await runAgents(fork, { projectsDir, audit });
    expect(path.dirname(found.path ?? "")).toBe(originRun);
    expect(found.agents).toEqual(["Reader one", "Reader two"]);
  });
});
