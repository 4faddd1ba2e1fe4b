// `system` lines in history files: newer CLIs (2.1.282 and later) write a slash command and its
// output as `system`/`local_command` lines instead of user lines; they are shown as the same
// command echo. Subtypes Baton does not know are reported once per subtype, with a count.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { restoreSession } from "../../src/main/history/restore.js";
import { listSessions } from "../../src/main/history/sessionList.js";
import { BlockView } from "../../src/renderer/transcript/BlockView.js";
import { parseCommandEcho } from "../../src/shared/commandEcho.js";
import { tempDirs } from "../support/tempDirs.js";

const sessionId = "7a7a7a7a-1111-4222-8333-444444444444";
const cwd = "/home/user/code/cmds";
const tempDir = tempDirs("baton-system-lines-");

let n = 0;
const envelope = () => ({ parentUuid: n === 0 ? null : `uuid-${n}`, isSidechain: false, userType: "external", cwd, sessionId, version: "2.1.332", gitBranch: "main", uuid: `uuid-${++n}`, timestamp: `2026-11-30T02:00:${String(n).padStart(2, "0")}.000Z` });
const prompt = (content: string) => ({ ...envelope(), type: "user", message: { role: "user", content } });
const reply = (text: string) => ({ ...envelope(), type: "assistant", message: { id: `msg_${n}`, type: "message", role: "assistant", model: "claude-opus-4-8", content: [{ type: "text", text }] } });
// The CLI's own shape (its `type:"system",subtype:"local_command",content,level:"info",…,isMeta:false`).
const local = (content: string) => ({ ...envelope(), type: "system", subtype: "local_command", content, level: "info", isMeta: false });
const system = (subtype: string, extra: Record<string, unknown> = {}) => ({ ...envelope(), type: "system", subtype, ...extra });

function writeSession(lines: readonly object[]): string {
  const dir = tempDir();
  const project = path.join(dir, "-home-user-code-cmds");
  mkdirSync(project, { recursive: true });
  const file = path.join(project, `${sessionId}.jsonl`);
  writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  return file;
}

describe("system lines in history", () => {
  it("shows a local_command echo and its output as the command echo a user line would give", async () => {
    const file = writeSession([
      prompt("write the parser"),
      reply("Done."),
      local("<command-name>/model</command-name>\n            <command-message>model</command-message>\n            <command-args>opus</command-args>"),
      local("<local-command-stdout>Set model to \u001b[1mOpus\u001b[22m</local-command-stdout>"),
    ]);
    const { transcript } = await restoreSession(file);
    const users = transcript.blocks.filter((b) => b.kind === "user");
    expect(users.map((b) => parseCommandEcho(b.text))).toEqual([
      undefined,
      [{ kind: "command", line: "/model opus" }],
      [{ kind: "output", stream: "stdout", text: "Set model to Opus" }],
    ]);
    const html = renderToStaticMarkup(createElement(BlockView, { tabId: "t", block: users[1]!, nested: false }));
    expect(html).toContain('aria-label="Local command"');
    expect(html).toContain("/model opus");
    expect(html).not.toContain("command-name");
    // As with user-line echoes: the command counts as a prompt, its output does not, and neither names the session.
    const projects = path.dirname(path.dirname(file)); // <projects>/<project>/<session>.jsonl
    const [summary] = await listSessions(projects);
    expect(summary).toMatchObject({ promptCount: 2, title: "write the parser" });
  });

  it("reports a system subtype Baton does not know once, with how many lines had it", async () => {
    const file = writeSession([
      prompt("start"),
      system("frobnicate_report", { content: "one" }),
      reply("Working."),
      system("frobnicate_report", { content: "two" }),
      system("frobnicate_report", { content: "three" }),
      system("turn_duration", { durationMs: 1200 }),
      system("stop_hook_summary", { hookCount: 1 }),
      system("informational", { content: "Remote Control disconnected", level: "warning" }),
    ]);
    const { transcript, problems } = await restoreSession(file);
    expect(problems.filter((p) => p.kind === "unknown_system_lines")).toEqual([
      { kind: "unknown_system_lines", path: file, count: 3, message: expect.stringContaining('"frobnicate_report"') },
    ]);
    // Known bookkeeping subtypes are not problems; an informational line is shown.
    expect(problems.filter((p) => p.kind !== "unknown_system_lines")).toEqual([]);
    expect(transcript.blocks.filter((b) => b.kind === "notice").map((b) => [b.level, b.text])).toEqual([["warning", "Remote Control disconnected"]]);
  });
});
