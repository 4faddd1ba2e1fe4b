// History folders written by hand in the shapes the CLI writes for side requests (issue 21):
// prompt suggestions, `/btw` side questions, 2.0.x `Warmup` files and `/subtask` forks. The shapes
// are the real ones; the projects are made up.
import fs from "node:fs";
import path from "node:path";

export const Cwd = "/home/user/code/app";
export const ProjectName = "-home-user-code-app";

type Line = Record<string, unknown>;

function envelope(sessionId: string, uuid: string, parentUuid: string | null, time: number, extra: Line = {}): Line {
  return {
    parentUuid,
    isSidechain: false,
    userType: "external",
    cwd: Cwd,
    sessionId,
    version: "2.1.332",
    gitBranch: "main",
    uuid,
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, time)).toISOString(),
    ...extra,
  };
}

export function userLine(sessionId: string, uuid: string, parentUuid: string | null, time: number, content: unknown, extra: Line = {}): Line {
  return { ...envelope(sessionId, uuid, parentUuid, time, extra), type: "user", message: { role: "user", content } };
}

export function assistantLine(sessionId: string, uuid: string, parentUuid: string | null, time: number, content: unknown[], extra: Line = {}): Line {
  return {
    ...envelope(sessionId, uuid, parentUuid, time, extra),
    type: "assistant",
    message: { model: "claude-sonnet-4-5", id: `msg_${uuid}`, type: "message", role: "assistant", content, stop_reason: "end_turn", usage: { input_tokens: 1, output_tokens: 1 } },
  };
}

export function text(t: string): Line {
  return { type: "text", text: t };
}

export function writeJsonl(file: string, lines: readonly Line[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
}

export interface Project {
  readonly projectsDir: string;
  readonly projectDir: string;
  readonly mainFile: string;
  readonly subagentsDir: string;
}

export function project(projectsDir: string, sessionId: string): Project {
  const projectDir = path.join(projectsDir, ProjectName);
  return { projectsDir, projectDir, mainFile: path.join(projectDir, `${sessionId}.jsonl`), subagentsDir: path.join(projectDir, sessionId, "subagents") };
}

/**
 * A session whose Agent call never got a result (so the linker's last resort would take any file
 * that names nothing), plus a prompt suggestion, a `/btw` side question asked after the answer
 * "The app has two files." and a 2.0.x-style `Warmup` file at the project root.
 */
export function writeSideConversations(projectsDir: string, sessionId: string): Project {
  const p = project(projectsDir, sessionId);
  const s = sessionId;
  const conversation = [
    userLine(s, "m-u1", null, 1, "what is in this app?"),
    assistantLine(s, "m-a1", "m-u1", 2, [text("The app has two files.")]),
  ];
  writeJsonl(p.mainFile, [
    ...conversation,
    userLine(s, "m-u2", "m-a1", 10, "now look deeper"),
    assistantLine(s, "m-a2", "m-u2", 11, [{ type: "tool_use", id: "toolu_open", name: "Agent", input: { description: "Look deeper", prompt: "look deeper", subagent_type: "general-purpose" } }]),
  ]);
  const side = (line: Line, agentId: string): Line => ({ ...line, isSidechain: true, agentId });
  const suggestion = "aprompt_suggestion-0123456789abcdef";
  writeJsonl(path.join(p.subagentsDir, `agent-${suggestion}.jsonl`), [
    side(userLine(s, "ps-u1", null, 3, "[SUGGESTION MODE: Suggest what the user might type next.]"), suggestion),
    side(assistantLine(s, "ps-a1", "ps-u1", 4, [text("suggestedzebra run the tests")]), suggestion),
  ]);
  const aside = "aside_question-fedcba9876543210";
  writeJsonl(path.join(p.subagentsDir, `agent-${aside}.jsonl`), [
    ...conversation.map((l) => side(l, aside)),
    side(userLine(s, "bq-u1", "m-a1", 5, "which file is bigger?"), aside),
    side(assistantLine(s, "bq-a1", "bq-u1", 6, [text("The bigger one is main.ts.")]), aside),
  ]);
  writeJsonl(path.join(p.projectDir, "agent-1a2b3c4d.jsonl"), [
    { ...side(userLine(s, "w-u1", null, 0, "Warmup"), "1a2b3c4d"), version: "2.0.60" },
    { ...side(assistantLine(s, "w-a1", "w-u1", 0, [text("warmupzebra I am ready to help.")]), "1a2b3c4d"), version: "2.0.60" },
  ]);
  return p;
}

export const ForkId = "asummarise-0123456789abcdef";

/**
 * A session where `/subtask summarise` forked the conversation after the answer "Two files." and
 * the fork's answer came back as a `<task-notification>`. `parentLastUuid` names the fork point
 * (pass one not in the file to get a fork whose point is lost). An Agent call without a result
 * comes first: the fork's file must not go to it.
 */
export function writeSubtaskFork(projectsDir: string, sessionId: string, parentLastUuid = "m-a1"): Project {
  const p = project(projectsDir, sessionId);
  const s = sessionId;
  writeJsonl(p.mainFile, [
    userLine(s, "m-u0", null, 0, "look around"),
    // No subagent_type (it is optional): the last resort would take a file of any agent type.
    assistantLine(s, "m-a0", "m-u0", 1, [{ type: "tool_use", id: "toolu_open", name: "Agent", input: { description: "Look around", prompt: "look around" } }]),
    userLine(s, "m-u1", "m-a0", 2, "what is in this app?"),
    assistantLine(s, "m-a1", "m-u1", 3, [text("Two files.")]),
    userLine(s, "m-u2", "m-a1", 4, "<command-name>/subtask</command-name>\n<command-message>subtask</command-message>\n<command-args>summarise the files</command-args>"),
    userLine(s, "m-u3", "m-u2", 5, "and meanwhile?"),
    assistantLine(s, "m-a3", "m-u3", 6, [text("Meanwhile, nothing.")]),
    userLine(
      s,
      "m-u4",
      "m-a3",
      20,
      `<task-notification>\n<task-id>${ForkId}</task-id>\n<status>completed</status>\n<summary>Subtask "summarise" finished</summary>\n<result>Summary: main.ts and util.ts.</result>\n<usage>total_tokens: 42\ntool_uses: 1\nduration_ms: 900</usage>\n</task-notification>`,
      { origin: { kind: "task-notification" } },
    ),
  ]);
  const side = (line: Line): Line => ({ ...line, isSidechain: true, agentId: ForkId });
  writeJsonl(path.join(p.subagentsDir, `agent-${ForkId}.jsonl`), [
    { type: "fork-context-ref", parentLastUuid, parentSessionId: s, sessionId: s, agentId: ForkId, isSidechain: true, uuid: "f-ref", timestamp: "2026-01-01T00:00:04.500Z" },
    side(userLine(s, "f-u1", null, 7, "summarise the files")),
    side(assistantLine(s, "f-a1", "f-u1", 8, [{ type: "tool_use", id: "toolu_f_ls", name: "Bash", input: { command: "ls" } }])),
    side(userLine(s, "f-u2", "f-a1", 9, [{ type: "tool_result", tool_use_id: "toolu_f_ls", content: "main.ts\nutil.ts" }])),
    side(assistantLine(s, "f-a2", "f-u2", 10, [text("Summary: main.ts and util.ts.")])),
  ]);
  fs.writeFileSync(path.join(p.subagentsDir, `agent-${ForkId}.meta.json`), JSON.stringify({ agentType: "fork", isFork: true, name: "summarise" }));
  return p;
}
