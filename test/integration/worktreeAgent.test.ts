// The real CLI makes agent worktrees offline (docs/protocol-notes.md, "Agent worktrees"): the
// scripted model's Agent calls with isolation "worktree" leave one worktree (its agent wrote a
// file) and none for the agent that changed nothing. Baton's listing shows the kept one with the
// session and agent that made it, orphaned once the session has ended, and removing it keeps the
// agent's file on a rescue branch.

import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listWorktrees, removeWorktree, WorktreeActionError } from "../../src/main/worktrees/index.js";
import type { WorktreeListing } from "../../src/shared/worktrees.js";
import { createCliEnv, type CliEnv } from "../support/cliEnv.js";
import { startModelServer, type ModelServer } from "../support/modelServer.js";
import { agentCall, bashCall, text } from "../support/scenarios/types.js";

const run = promisify(execFile);
const fg = { isolation: "worktree", run_in_background: false };

describe("agent worktrees made by the real CLI", () => {
  let env: CliEnv;
  let model: ModelServer;
  let sessionId: string;
  let listing: WorktreeListing;

  beforeAll(async () => {
    env = await createCliEnv({ baseUrl: "http://127.0.0.1:1", cwdName: "worktree-agent" });
    model = await startModelServer({
      main: [
        { blocks: [agentCall("Write in a worktree", "[[WRITER]] write the notes", fg)] },
        { blocks: [agentCall("Look in a worktree", "[[IDLE]] look around", fg)] },
        { blocks: [text("Both agents are done.")] },
      ],
      WRITER: [{ blocks: [bashCall("echo agent work > notes.txt", "Write the notes")] }, { blocks: [text("Wrote notes.txt.")] }],
      IDLE: [{ blocks: [text("Nothing to change.")] }],
    });
    env.env["ANTHROPIC_BASE_URL"] = model.url;
    execFileSync("git", ["init", "-q", "-b", "main"], { cwd: env.cwd });
    fs.writeFileSync(path.join(env.cwd, "README.md"), "# project\n");
    execFileSync("git", ["add", "README.md"], { cwd: env.cwd });
    execFileSync("git", ["-c", "user.email=a@b.c", "-c", "user.name=T", "commit", "-q", "-m", "First commit"], { cwd: env.cwd });
    const { stdout } = await run(env.claudePath, ["-p", "do the work", "--output-format", "stream-json", "--verbose", "--permission-mode", "bypassPermissions"], {
      cwd: env.cwd,
      env: env.env,
      timeout: 90_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    const result = stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>).find((m) => m["type"] === "result");
    expect(result?.["result"]).toBe("Both agents are done.");
    sessionId = String(result?.["session_id"]);
    listing = await listWorktrees(env.cwd, { projectsDir: env.projectsDir });
  }, 120_000);

  afterAll(async () => {
    await model?.close();
    await env?.cleanup();
  });

  it("lists the worktree the writing agent left, with its session and agent, orphaned now the session has ended", () => {
    const agents = listing.worktrees.filter((w) => !w.isMain);
    expect(agents).toHaveLength(1);
    const w = agents[0]!;
    expect(path.dirname(w.path)).toBe(path.join(env.cwd, ".claude", "worktrees"));
    const agentId = path.basename(w.path).replace(/^agent-/, "");
    expect(w).toMatchObject({ branch: `worktree-agent-${agentId}`, base: "main", ahead: 0, behind: 0, locked: false, prunable: false, orphaned: "session-ended" });
    expect(w.agent).toMatchObject({ sessionId, agentId, toolUseId: "toolu_main_t0_0", agentType: "general-purpose", description: "Write in a worktree", sessionLive: false });
    expect(w.dirt).toMatchObject({ untracked: 1, files: [{ code: "??", path: "notes.txt" }] });
    expect(w.head?.subject).toBe("First commit");
  });

  it("removing it is refused, then the rescue keeps the agent's file on a branch", async () => {
    const w = listing.worktrees.find((x) => !x.isMain)!;
    const refused = await removeWorktree(env.cwd, w.path).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(WorktreeActionError);
    expect((refused as WorktreeActionError).files).toEqual(["notes.txt"]);
    const removal = await removeWorktree(env.cwd, w.path, { rescue: true });
    expect(removal.kind).toBe("rescued-and-removed");
    if (removal.kind !== "rescued-and-removed") return;
    expect(execFileSync("git", ["show", `refs/heads/${removal.rescueBranch}:notes.txt`], { cwd: env.cwd, encoding: "utf8" })).toBe("agent work\n");
    expect(fs.existsSync(w.path)).toBe(false);
    expect((await listWorktrees(env.cwd, { projectsDir: env.projectsDir })).worktrees.filter((x) => !x.isMain)).toEqual([]);
  });
});
