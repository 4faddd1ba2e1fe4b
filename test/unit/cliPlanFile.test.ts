// ExitPlanMode with `plan: null` and a `planFilePath` (CLI 2.1.332): the plan review shows the
// plan read from the CLI's plans folder, and only from there; anything else is a clear note.

import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { createIncomingRequests } from "../../src/main/cli/incomingRequests.js";
import { MaxPlanBytes, plansDirFor, readPlanFile } from "../../src/main/cli/planFile.js";
import type { PermissionRequestEvent } from "../../src/shared/events.js";
import type { ControlResponseMessage } from "../../src/shared/protocol/messages.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-plans-");
let home: string;
let plans: string;
beforeEach(() => {
  home = tempDir();
  plans = path.join(home, ".claude", "plans");
  mkdirSync(plans, { recursive: true });
});

describe("readPlanFile", () => {
  it("reads a plan file in the plans folder", async () => {
    writeFileSync(path.join(plans, "brave-otter.md"), "# Plan\n1. do it\n");
    expect(await readPlanFile(path.join(plans, "brave-otter.md"), plans)).toEqual({ ok: true, text: "# Plan\n1. do it\n" });
  });

  it.each([
    ["a relative path", () => "plans/x.md", /not an absolute path/],
    ["a file outside the plans folder", () => (writeFileSync(path.join(home, "secret.md"), "s"), path.join(home, "secret.md")), /not in Claude Code's plans folder/],
    ["a path that climbs out with ..", () => path.join(plans, "..", "..", "secret.md"), /not in Claude Code's plans folder/],
    ["a file that is not Markdown", () => (writeFileSync(path.join(plans, "x.txt"), "t"), path.join(plans, "x.txt")), /not a Markdown/],
    ["a link in the folder that leads out of it", () => (writeFileSync(path.join(home, "secret.md"), "s"), symlinkSync(path.join(home, "secret.md"), path.join(plans, "link.md")), path.join(plans, "link.md")), /leads outside/],
    ["a missing file", () => path.join(plans, "gone.md"), /does not exist/],
    ["a folder", () => (mkdirSync(path.join(plans, "dir.md")), path.join(plans, "dir.md")), /not a regular file/],
    ["a FIFO", () => (execFileSync("mkfifo", [path.join(plans, "fifo.md")]), path.join(plans, "fifo.md")), /not a regular file/],
    ["a file too large", () => (writeFileSync(path.join(plans, "big.md"), "x".repeat(MaxPlanBytes + 1)), path.join(plans, "big.md")), /larger than/],
  ])("refuses %s with a clear problem, reading nothing", async (_case, make, problem) => {
    const result = await readPlanFile(make(), plans);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toMatch(/^The plan file could not be read: /), expect(result.problem).toMatch(problem);
  });

  it("finds the CLI's plans folder from its environment", () => {
    expect(plansDirFor({ HOME: "/home/user" })).toBe("/home/user/.claude/plans");
    expect(plansDirFor({ HOME: "/home/user", CLAUDE_CONFIG_DIR: "/home/user/cfg" })).toBe("/home/user/cfg/plans");
  });
});

describe("an ExitPlanMode request with only a plan file", () => {
  function requests() {
    const asked: PermissionRequestEvent[] = [];
    const sent: ControlResponseMessage[] = [];
    const incoming = createIncomingRequests({
      plansDir: plans,
      decidePermission: (request) => {
        asked.push(request);
        return new Promise(() => undefined); // a person has not answered yet
      },
      send: (l) => sent.push(l),
      emit: () => undefined,
      log: () => undefined,
    });
    return { incoming, asked, sent };
  }
  const exitPlan = (file: string, plan: string | null = null) => ({
    subtype: "can_use_tool" as const,
    tool_name: "ExitPlanMode",
    tool_use_id: "toolu_plan",
    input: { plan, planFilePath: file },
    requires_user_interaction: true,
  });
  /** Waits for a state (the file is read on the thread pool), up to 5 s. */
  const until = async (check: () => boolean) => {
    for (const end = Date.now() + 5000; !check() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 5));
  };

  it("asks with the plan read from the file, and says only a person may answer", async () => {
    writeFileSync(path.join(plans, "p.md"), "# The plan");
    const { incoming, asked } = requests();
    incoming.handle("req-1", exitPlan(path.join(plans, "p.md")));
    await until(() => asked.length > 0);
    expect(asked[0]).toMatchObject({ requestId: "req-1", planFromFile: "# The plan", requiresUserInteraction: true });
    incoming.abandonAll();
  });

  it("asks with a clear problem when the file is not the CLI's plan", async () => {
    writeFileSync(path.join(home, "elsewhere.md"), "not a plan");
    const { incoming, asked } = requests();
    incoming.handle("req-2", exitPlan(path.join(home, "elsewhere.md")));
    await until(() => asked.length > 0);
    expect(asked[0]?.planFromFile).toBeUndefined();
    expect(asked[0]?.planFileProblem).toMatch(/could not be read/);
    incoming.abandonAll();
  });

  it("a plan given inline is not read from the file", async () => {
    const { incoming, asked } = requests();
    incoming.handle("req-3", exitPlan(path.join(plans, "missing.md"), "# Inline"));
    await until(() => asked.length > 0);
    expect(asked[0]).toMatchObject({ input: { plan: "# Inline" } });
    expect(asked[0]?.planFileProblem).toBeUndefined();
    incoming.abandonAll();
  });

  it("a request the CLI withdraws while its file is read is never asked", async () => {
    writeFileSync(path.join(plans, "p.md"), "# The plan");
    const { incoming, asked, sent } = requests();
    incoming.handle("req-4", exitPlan(path.join(plans, "p.md")));
    incoming.cancel("req-4");
    incoming.handle("req-5", exitPlan(path.join(plans, "p.md")));
    await until(() => asked.length > 0);
    expect(asked.map((a) => a.requestId)).toEqual(["req-5"]);
    expect(sent).toEqual([]);
    incoming.abandonAll();
  });
});
