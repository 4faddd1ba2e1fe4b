// A call is answered once its agent's file holds its result: the main file for the main agent, the
// subagent's own file under `<session>/subagents/` for a subagent; a call only asked is not, and an
// agent id that is not a plain name or a sidechain that leads out of the project folder reads nothing.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resultWritten } from "../../src/main/core/answeredInTerminal.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-answered-");
const SessionId = "88888888-8888-4888-8888-888888888888";
const AgentId = "a91c40a33b6ca99ff";

const toolUse = (id: string) => JSON.stringify({ type: "assistant", message: { role: "assistant", content: [{ type: "tool_use", id, name: "Bash", input: { command: "touch x" } }] } });
const toolResult = (id: string) => JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "" }] } });

function project(): { main: string; sidechain: string; root: string } {
  const root = tempDir();
  const dir = path.join(root, "projects", "-home-user-code-app");
  fs.mkdirSync(path.join(dir, SessionId, "subagents"), { recursive: true });
  return { main: path.join(dir, `${SessionId}.jsonl`), sidechain: path.join(dir, SessionId, "subagents", `agent-${AgentId}.jsonl`), root };
}

describe("resultWritten", () => {
  it("finds the result in the asking agent's own file, and not a call only asked", async () => {
    const { main, sidechain } = project();
    fs.writeFileSync(main, `${toolUse("toolu_main")}\n${toolResult("toolu_main")}\n${toolUse("toolu_main_open")}\n`);
    fs.writeFileSync(sidechain, `${toolUse("toolu_sub")}\n${toolResult("toolu_sub")}\n${toolUse("toolu_sub_open")}\n`);
    expect(await resultWritten(main, SessionId, undefined, "toolu_main")).toBe(true);
    expect(await resultWritten(main, SessionId, undefined, "toolu_main_open")).toBe(false);
    expect(await resultWritten(main, SessionId, AgentId, "toolu_sub")).toBe(true);
    expect(await resultWritten(main, SessionId, AgentId, "toolu_sub_open")).toBe(false);
    // The subagent's result is not the main agent's, nor another agent's.
    expect(await resultWritten(main, SessionId, undefined, "toolu_sub")).toBe(false);
    expect(await resultWritten(main, SessionId, "aother", "toolu_sub")).toBe(false);
  });

  it("reads nothing for an agent id that is not a plain name, or a sidechain that leads out of the project", async () => {
    const { main, sidechain, root } = project();
    fs.writeFileSync(main, "");
    const outside = path.join(root, "outside.jsonl");
    fs.writeFileSync(outside, `${toolResult("toolu_out")}\n`);
    fs.symlinkSync(outside, sidechain);
    expect(await resultWritten(main, SessionId, AgentId, "toolu_out")).toBe(false);
    expect(await resultWritten(main, SessionId, `../${AgentId}`, "toolu_out")).toBe(false);
    expect(await resultWritten(main, SessionId, "", "toolu_out")).toBe(false);
  });
});
