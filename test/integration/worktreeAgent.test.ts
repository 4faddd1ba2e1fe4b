// The real CLI makes agent worktrees offline (docs/protocol-notes.md, "Agent worktrees"): the
// scripted model's Agent calls with isolation "worktree" leave a worktree for each agent that
// wrote a file (one in the foreground, one in the background) and none for the agent that changed
// nothing. Baton's listing shows the kept ones with the session and agent that made them, orphaned
// once the session has ended; the agents' cards name their worktrees, live and restored; removing
// one keeps the agent's file on a rescue branch.

import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { modelOf } from "../../src/main/hub/index.js";
import { recordingEvents } from "../../src/main/hub/recordingEvents.js";
import { restoreSession } from "../../src/main/history/restore.js";
import { listWorktrees, removeWorktree, WorktreeActionError } from "../../src/main/worktrees/index.js";
import type { Transcript } from "../../src/shared/transcript.js";
import type { WorktreeInfo, WorktreeListing } from "../../src/shared/worktrees.js";
import { createCliEnv, type CliEnv } from "../support/cliEnv.js";
import { startModelServer, type ModelServer } from "../support/modelServer.js";
import { agentCall, bashCall, text } from "../support/scenarios/types.js";
import { git } from "../support/git.js";

const run = promisify(execFile);
const fg = { isolation: "worktree", run_in_background: false };
const bg = { isolation: "worktree", run_in_background: true };
const [Writer, Idle, Background] = ["toolu_main_t0_0", "toolu_main_t1_0", "toolu_main_t2_0"];

/** The record of an Agent call of the main thread. */
function recordOf(t: Transcript, toolUseId: string) {
  return t.blocks.find((b) => b.call?.toolUseId === toolUseId)?.call?.subagent;
}

describe("agent worktrees made by the real CLI", () => {
  let env: CliEnv;
  let model: ModelServer;
  let sessionId: string;
  let listing: WorktreeListing;
  let live: Transcript;
  let agentWorktrees: WorktreeInfo[];

  beforeAll(async () => {
    env = await createCliEnv({ baseUrl: "http://127.0.0.1:1", cwdName: "worktree-agent" });
    model = await startModelServer({
      main: [
        { blocks: [agentCall("Write in a worktree", "[[WRITER]] write the notes", fg)] },
        { blocks: [agentCall("Look in a worktree", "[[IDLE]] look around", fg)] },
        { blocks: [agentCall("Write in the background", "[[BG]] write more", bg)] },
        { blocks: [text("Waiting for the background agent.")] },
        { blocks: [text("All agents are done.")] },
      ],
      WRITER: [{ blocks: [bashCall("echo agent work > notes.txt", "Write the notes")] }, { blocks: [text("Wrote notes.txt.")] }],
      IDLE: [{ blocks: [text("Nothing to change.")] }],
      BG: [{ blocks: [bashCall("echo more work > more.txt", "Write more")] }, { blocks: [text("Wrote more.txt.")] }],
    });
    env.env["ANTHROPIC_BASE_URL"] = model.url;
    git(env.cwd, "init", "-q", "-b", "main");
    fs.writeFileSync(path.join(env.cwd, "README.md"), "# project\n");
    git(env.cwd, "add", "README.md");
    git(env.cwd, "commit", "-q", "-m", "First commit");
    const { stdout } = await run(env.claudePath, ["-p", "do the work", "--output-format", "stream-json", "--verbose", "--permission-mode", "bypassPermissions"], {
      cwd: env.cwd,
      env: env.env,
      timeout: 90_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    const lines = stdout.split("\n").filter((l) => l.startsWith("{"));
    const result = lines.map((l) => JSON.parse(l) as Record<string, unknown>).findLast((m) => m["type"] === "result");
    expect(result?.["result"]).toBe("All agents are done.");
    sessionId = String(result?.["session_id"]);
    live = modelOf(recordingEvents(lines.map((text, i) => ({ text, lineNumber: i + 1 })))).transcript();
    listing = await listWorktrees(env.cwd, { projectsDir: env.projectsDir });
    agentWorktrees = listing.worktrees.filter((w) => !w.isMain);
  }, 120_000);

  afterAll(async () => {
    await model?.close();
    await env?.cleanup();
  });

  it("lists the worktrees the writing agents left, with their session and agent, orphaned now the session has ended", () => {
    expect(agentWorktrees.map((w) => w.agent?.toolUseId).sort()).toEqual([Writer, Background]);
    const w = agentWorktrees.find((x) => x.agent?.toolUseId === Writer)!;
    expect(path.dirname(w.path)).toBe(path.join(env.cwd, ".claude", "worktrees"));
    const agentId = path.basename(w.path).replace(/^agent-/, "");
    expect(w).toMatchObject({ branch: `worktree-agent-${agentId}`, base: "main", ahead: 0, behind: 0, locked: false, prunable: false, orphaned: "session-ended" });
    expect(w.agent).toMatchObject({ sessionId, agentId, toolUseId: "toolu_main_t0_0", agentType: "general-purpose", description: "Write in a worktree", sessionLive: false });
    expect(w.dirt).toMatchObject({ untracked: 1, files: [{ code: "??", path: "notes.txt" }] });
    expect(w.head?.subject).toBe("First commit");
    const more = agentWorktrees.find((x) => x.agent?.toolUseId === Background)!;
    expect(more.dirt).toMatchObject({ untracked: 1, files: [{ code: "??", path: "more.txt" }] });
    expect(more.agent).toMatchObject({ sessionId, description: "Write in the background", sessionLive: false });
  });

  it("live, every isolated agent's card says it ran in a worktree, and finds it in the listing by its agent id", () => {
    const writer = recordOf(live, Writer)!;
    const w = agentWorktrees.find((x) => x.agent?.toolUseId === Writer)!;
    // A foreground agent's result names the worktree it kept.
    expect(writer.worktree).toEqual({ path: w.path, branch: w.branch });
    // The stream's task_notification names none for a background agent: its card knows it was
    // isolated, and the listing (by its agent id) says where.
    const background = recordOf(live, Background)!;
    expect(background.worktree).toBeDefined();
    expect(agentWorktrees.find((x) => x.agent?.agentId === background.taskId)?.agent?.toolUseId).toBe(Background);
    // The agent that changed nothing ran isolated too; the CLI removed its worktree and named none.
    expect(recordOf(live, Idle)!.worktree).toEqual({});
    expect(recordOf(live, Idle)!.summaryMarkdown).toBe("Nothing to change.");
    expect(writer.summaryMarkdown).toBe("Wrote notes.txt.");
  });

  it("restored from history, the cards name the worktrees both writing agents kept", async () => {
    const { transcript } = await restoreSession(sessionId, { projectsDir: env.projectsDir });
    for (const id of [Writer, Background]) {
      const w = agentWorktrees.find((x) => x.agent?.toolUseId === id)!;
      expect(recordOf(transcript, id)?.worktree, id).toEqual({ path: w.path, branch: w.branch });
    }
    expect(recordOf(transcript, Idle)?.worktree).toEqual({});
    expect(recordOf(transcript, Background)?.summaryMarkdown).toBe("Wrote more.txt.");
  });

  it("removing it is refused, then the rescue keeps the agent's file on a branch", async () => {
    const w = agentWorktrees.find((x) => x.agent?.toolUseId === Writer)!;
    const refused = await removeWorktree(env.cwd, w.path).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(WorktreeActionError);
    expect((refused as WorktreeActionError).files).toEqual(["notes.txt"]);
    const removal = await removeWorktree(env.cwd, w.path, { rescue: true });
    expect(removal.kind).toBe("rescued-and-removed");
    if (removal.kind !== "rescued-and-removed") return;
    expect(git(env.cwd, "show", `refs/heads/${removal.rescueBranch}:notes.txt`)).toBe("agent work\n");
    expect(fs.existsSync(w.path)).toBe(false);
    const left = (await listWorktrees(env.cwd, { projectsDir: env.projectsDir })).worktrees.filter((x) => !x.isMain);
    expect(left.map((x) => x.agent?.toolUseId)).toEqual([Background]);
  });
});
