// An Agent call's rejected result in a CLI 2.1.332 history (issue 21), restored as it was live.
// The CLI refusing the call without asking (auto or plan mode: `permissionDecision` "reject",
// no sidechain) is a refused tool call, not a failed subagent card with an empty id. The same
// rejection text left by an interrupt (`toolDenialKind: "user-rejected"`, no decision; the
// sidechain exists) is the stopped subagent with its steps. The line shapes are the real ones
// (trimmed from CLI 2.1.332 runs); the projects are made up.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadSubagentBlocks } from "../../src/main/history/historySession.js";
import { restoreSession } from "../../src/main/history/restore.js";
import { restoreFirstScreen } from "../../src/main/history/firstScreen.js";
import { assistantLine, project, text, userLine, writeJsonl, type Project } from "../support/sideConversationFiles.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-refused-agent-", "all");
let tmp: string;
beforeAll(() => {
  tmp = tempDir();
});

const Rejected =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
const Unavailable =
  "Auto mode is unavailable: its safety check does not run for this session, so Agent was not run. Other actions that need the check will be denied too, and retrying won't help.";

const agentUse = (id: string, description: string) => ({
  type: "tool_use",
  id,
  name: "Agent",
  input: { description, prompt: `[[SUB-A]] ${description}`, subagent_type: "general-purpose", run_in_background: false },
});
const rejection = (toolUseId: string, content: string) => [{ type: "tool_result", content, is_error: true, tool_use_id: toolUseId }];

describe("an Agent call the CLI refused without asking", () => {
  const S = "a0a0a0a0-0000-4000-8000-000000000021";
  let p: Project;
  beforeAll(() => {
    p = project(path.join(tmp, "refused"), S);
    writeJsonl(p.mainFile, [
      userLine(S, "u1", null, 1, "explore please"),
      assistantLine(S, "a1", "u1", 2, [agentUse("toolu_main_t0_1", "Explore")]),
      userLine(S, "r1", "a1", 3, rejection("toolu_main_t0_1", Unavailable), {
        toolUseResult: `Error: ${Unavailable}`,
        toolDenialKind: "automode-unavailable",
        permissionDecision: { decision: "reject", source: "config", reasonType: "classifier", reasonCode: "classifier:auto-mode:unavailable" },
      }),
      assistantLine(S, "a2", "r1", 4, [text("Refused then.")]),
    ]);
  });

  it("restores as a denied tool call with the CLI's reason, and no subagent card", async () => {
    const { transcript, problems } = await restoreSession(p.mainFile);
    expect(problems).toEqual([]);
    const call = transcript.blocks.find((b) => b.id === "toolu_main_t0_1")?.call;
    expect(call?.subagent).toBeUndefined();
    // What the live hub shows for it (system/permission_denied, then the result).
    expect(call).toMatchObject({ name: "Agent", status: "denied", permission: { state: "denied", decidedBy: "claude-code:classifier", message: Unavailable } });
  });

  it("is the same on the first screen", async () => {
    const screen = await restoreFirstScreen(p.mainFile, { projectsDir: p.projectsDir });
    const call = screen.transcript.blocks.find((b) => b.id === "toolu_main_t0_1")?.call;
    expect(call?.subagent).toBeUndefined();
    expect(call?.status).toBe("denied");
  });
});

describe("a foreground Agent call an interrupt cut", () => {
  const S = "b0b0b0b0-0000-4000-8000-000000000021";
  const AgentId = "a643ba45a6a136508";
  let p: Project;
  beforeAll(() => {
    p = project(path.join(tmp, "interrupted"), S);
    const cut = { toolUseResult: "User rejected tool use", toolDenialKind: "user-rejected" };
    writeJsonl(p.mainFile, [
      userLine(S, "u1", null, 1, "now a long one"),
      assistantLine(S, "a1", "u1", 2, [agentUse("toolu_main_t3_0", "Long task")]),
      userLine(S, "r1", "a1", 6, rejection("toolu_main_t3_0", Rejected), cut),
      userLine(S, "i1", "r1", 7, [text("[Request interrupted by user for tool use]")]),
    ]);
    const side = { isSidechain: true, agentId: AgentId };
    writeJsonl(path.join(p.subagentsDir, `agent-${AgentId}.jsonl`), [
      userLine(S, "s1", null, 3, "[[SUB-A]] Long task", side),
      assistantLine(S, "s2", "s1", 4, [{ type: "tool_use", id: "toolu_SUB-L_t0_0", name: "Bash", input: { command: "sleep 20 && touch late.txt", description: "Sleep, then create a file" } }], side),
      userLine(S, "s3", "s2", 5, rejection("toolu_SUB-L_t0_0", Rejected), { ...side, ...cut }),
      userLine(S, "s4", "s3", 5, [text("[Request interrupted by user for tool use]")], side),
    ]);
    fs.writeFileSync(
      path.join(p.subagentsDir, `agent-${AgentId}.meta.json`),
      JSON.stringify({ agentType: "general-purpose", isBuiltIn: true, description: "Long task", toolUseId: "toolu_main_t3_0", spawnDepth: 1, requestShape: "foreground" }),
    );
  });

  it("restores as the stopped subagent, linked to its sidechain, with its steps", async () => {
    const { transcript, problems, session } = await restoreSession(p.mainFile);
    expect(problems).toEqual([]);
    const call = transcript.blocks.find((b) => b.id === "toolu_main_t3_0")?.call;
    expect(call).toMatchObject({ status: "stopped", subagent: { status: "stopped", sidechainPath: path.join(p.subagentsDir, `agent-${AgentId}.jsonl`) } });
    const steps = await loadSubagentBlocks(session, "toolu_main_t3_0");
    expect(steps.map((b) => b.call?.name)).toEqual(["Bash"]);
  });
});
