// A real CLI history (the deep-nesting recording: main → Top → Middle → Deepest agent) with words
// planted where search used to miss them: at the end of a multi-megabyte Bash output in the
// depth-2 sidechain, in a custom title, in thinking, and inside runs of Chinese, Japanese and
// Korean text. The main file is then copied, as a copied history would be, into a second project
// folder with its own cwd and title: two files named alike in two project folders, two sessions.
// Planted lines copy the envelope of the line before them, as the CLI writes it.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export type RecordedCli = "2.1.197" | "2.1.332";

/** Words each found in exactly one place of the original session (`shared`: in both copies). */
export const Planted = {
  /** The last word of the depth-2 agent's multi-megabyte Bash output. */
  deepOutput: "zephyrquasar",
  /** In the original's custom title ("Quillwort migration plan"). */
  title: "quillwort",
  /** In the copy's custom title ("Bramblecopy rehearsal"). */
  copyTitle: "bramblecopy",
  /** In the main agent's thinking. */
  thinking: "marmoset",
  /** In both copies' last answer. */
  shared: "lanternfish",
} as const;

export const CjkAnswer = "請先分析這個專案的結構。请用pnpm安装依赖。データベースを移行する。데이터베이스를 분석합니다";

/** Bytes of the planted Bash output (it is in its line twice: the tool_result and toolUseResult). */
export const DeepOutputBytes = 3 * 1024 * 1024;

export interface PlantedHistory {
  readonly projectsDir: string;
  readonly sessionId: string;
  /** The original's project folder and the copy's. */
  readonly project: string;
  readonly copyProject: string;
  readonly mainFile: string;
  readonly copyFile: string;
  readonly depth2AgentId: string;
  readonly depth2File: string;
}

const repoRoot = path.resolve(import.meta.dirname, "../..");

/** Copies the recording into `projectsDir` and plants the words. */
export function plantHistory(projectsDir: string, cli: RecordedCli = "2.1.197"): PlantedHistory {
  const recording = path.join(repoRoot, cli === "2.1.197" ? "fixtures/recordings" : "fixtures/recordings-2.1.332", "deep-nesting", "projects");
  fs.cpSync(recording, projectsDir, { recursive: true });
  const project = fs.readdirSync(projectsDir)[0]!;
  const mainName = fs.readdirSync(path.join(projectsDir, project)).find((n) => n.endsWith(".jsonl"))!;
  const sessionId = mainName.slice(0, -".jsonl".length);
  const mainFile = path.join(projectsDir, project, mainName);
  const agents = path.join(projectsDir, project, sessionId, "subagents");
  const depth2Meta = fs.readdirSync(agents).find((n) => n.endsWith(".meta.json") && JSON.parse(fs.readFileSync(path.join(agents, n), "utf8")).spawnDepth === 2)!;
  const depth2AgentId = depth2Meta.slice("agent-".length, -".meta.json".length);
  const depth2File = path.join(agents, `agent-${depth2AgentId}.jsonl`);

  const output = longOutput(DeepOutputBytes, `FAILED test_checkout_flow: ${Planted.deepOutput} mismatch`);
  const toolUseId = "toolu_planted_deep_output";
  appendLines(depth2File, (env) => [
    assistant(env(), [{ type: "tool_use", id: toolUseId, name: "Bash", input: { command: "npm test", description: "Run the whole suite" } }]),
    { ...env(), type: "user", message: { role: "user", content: [{ tool_use_id: toolUseId, type: "tool_result", content: output, is_error: false }] }, toolUseResult: { stdout: output, stderr: "", interrupted: false, isImage: false } },
  ]);
  appendLines(mainFile, (env) => [
    assistant(env(), [{ type: "thinking", thinking: `Let me weigh the ${Planted.thinking} heuristic before answering.`, signature: "sig" }]),
    assistant(env(), [{ type: "text", text: `${CjkAnswer} (${Planted.shared})` }]),
  ]);
  const copyProject = `${project}-copy`;
  const copyFile = path.join(projectsDir, copyProject, mainName);
  fs.mkdirSync(path.dirname(copyFile), { recursive: true });
  // The copy: the same lines, in another folder with another cwd (no sidechains came with it).
  fs.writeFileSync(copyFile, fs.readFileSync(mainFile, "utf8").replaceAll('"cwd":"/home/user/code/deep-nesting"', '"cwd":"/home/user/code/deep-nesting-copy"'));
  fs.appendFileSync(mainFile, `${JSON.stringify({ type: "custom-title", customTitle: "Quillwort migration plan", sessionId })}\n`);
  fs.appendFileSync(copyFile, `${JSON.stringify({ type: "custom-title", customTitle: "Bramblecopy rehearsal", sessionId })}\n`);
  return { projectsDir, sessionId, project, copyProject, mainFile, copyFile, depth2AgentId, depth2File };
}

/** About `bytes` of a test run's log, then `last` on its own line. */
function longOutput(bytes: number, last: string): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `ok ${i} - test_case_${i % 977} passed in ${(i % 89) + 3} ms`;
    lines.push(line);
    size += line.length + 1;
  }
  lines.push(last);
  return lines.join("\n");
}

export type Envelope = () => Record<string, unknown>;

/** Appends lines whose envelopes continue the file's last line (parent, time, ids). */
export function appendLines(file: string, make: (env: Envelope) => object[]): void {
  const lines = fs.readFileSync(file, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
  const last = [...lines].reverse().find((l) => typeof l["uuid"] === "string" && typeof l["sessionId"] === "string")!;
  let parent = last["uuid"] as string;
  let clock = Date.parse(last["timestamp"] as string);
  const keep = ["isSidechain", "agentId", "userType", "entrypoint", "cwd", "sessionId", "version", "gitBranch"];
  const env: Envelope = () => {
    const uuid = randomUUID();
    clock += 1000;
    const e: Record<string, unknown> = { parentUuid: parent, uuid, timestamp: new Date(clock).toISOString() };
    for (const k of keep) if (last[k] !== undefined) e[k] = last[k];
    parent = uuid;
    return e;
  };
  fs.appendFileSync(file, make(env).map((l) => `${JSON.stringify(l)}\n`).join(""));
}

export function assistant(env: Record<string, unknown>, content: object[]): object {
  return {
    ...env,
    type: "assistant",
    message: { id: `msg_${randomUUID()}`, type: "message", role: "assistant", model: "claude-opus-4-8", content, stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } },
    requestId: `req_${randomUUID()}`,
  };
}
