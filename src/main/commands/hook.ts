// `baton hook`: the command a terminal session's hooks run (registered by `baton claude`). Reads
// the CLI's hook input on stdin, asks the running Baton over its local socket (hook-<pid>.json in
// the run folder names the socket and the launch's secret; the newest running launch is asked) and prints the answer the CLI expects. It
// never allows by itself: no Baton, a refused socket, no answer in time, bad input or any other
// failure is "ask" (the terminal shows its own prompt), and the exit code is always 0. Its imports
// are kept to Node's own modules and the zod-free half of the contract, so it adds little to every
// tool call (`npm run bench:hook`); Baton validates the input fully (HookInputSchema) on its side.
import { readEndpoint } from "../terminal/hookEndpoint.js";
import { askBaton } from "../terminal/hookClient.js";
import { ClientWaitMs, ObserveWaitMs } from "../terminal/hookTiming.js";
import { runFolderPath } from "../terminal/runFolder.js";
import { AskVerdict, preToolUseOutput, type HookVerdict } from "../../shared/hookVerdict.js";
import type { HookInput, HookLaunch } from "../../shared/terminalHooks.js";
import { ExitCode, type CommandIO } from "./commandIO.js";

/** Hook input larger than this is not read to the end: "ask". */
const MaxInputBytes = 8 * 1024 * 1024;

const Help = `Usage: baton hook [--orchestration]

Run by Claude Code as a command hook in a session started with \`baton claude\`: reads the hook's
input on stdin, asks the running Baton (desktop app or \`baton web\`), prints the CLI's answer.
Without a Baton to ask, or on any failure, the answer is "ask": the terminal prompts as usual.
--orchestration: the session was started with \`baton claude --orchestration\` (Baton's presets hold).
`;

export async function run(args: readonly string[], io: CommandIO): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout(Help);
    return ExitCode.ok;
  }
  let output: string;
  try {
    output = await hookOutput(await readStdin(MaxInputBytes), process.env, { orchestration: args.includes("--orchestration") });
  } catch {
    output = JSON.stringify(preToolUseOutput(AskVerdict));
  }
  if (output !== "") io.stdout(`${output}\n`);
  return ExitCode.ok;
}

/**
 * What to print for the hook input `text` (undefined: too long to read): the PreToolUse answer for
 * Baton's verdict, the PermissionRequest decision when Baton made one, nothing for "defer" and
 * for events Baton only observes. Input that is not a hook's is answered as a PreToolUse "ask".
 */
export async function hookOutput(text: string | undefined, env: NodeJS.ProcessEnv, launch: HookLaunch): Promise<string> {
  const ask = JSON.stringify(preToolUseOutput(AskVerdict));
  if (text === undefined || text.trim() === "") return ask;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return ask;
  }
  if (!looksLikeHookInput(parsed)) return ask;
  const event = parsed.hook_event_name;
  const endpoint = readEndpoint(runFolderPath(env));
  const decides = event === "PreToolUse" || event === "PermissionRequest";
  const verdict: HookVerdict =
    endpoint === undefined ? AskVerdict : await askBaton(endpoint.socket, { secret: endpoint.secret, input: parsed, ...(launch.orchestration ? { orchestration: true } : {}) }, decides ? ClientWaitMs : ObserveWaitMs);
  if (event === "PreToolUse") {
    // "defer": nothing printed, so the CLI's own permission flow goes on (and its dialog, if it
    // shows one, comes to Baton as a PermissionRequest).
    const answer = preToolUseOutput(verdict);
    return answer === undefined ? "" : JSON.stringify(answer);
  }
  if (event === "PermissionRequest") return permissionRequestOutput(verdict);
  return "";
}

/** Whether `value` has the fields every hook input has (Baton checks the rest against HookInputSchema). */
function looksLikeHookInput(value: unknown): value is HookInput {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const fields = value as Record<string, unknown>;
  return ["session_id", "transcript_path", "cwd", "hook_event_name"].every((name) => typeof fields[name] === "string" && fields[name] !== "");
}

/** The CLI's PermissionRequest answer: Baton's allow or deny; nothing on ask or defer, so the terminal's own dialog shows. */
function permissionRequestOutput(verdict: HookVerdict): string {
  if (verdict.decision === "ask" || verdict.decision === "defer") return "";
  const decision = verdict.decision === "allow" ? { behavior: "allow" } : { behavior: "deny", ...(verdict.reason !== undefined ? { message: verdict.reason } : {}) };
  return JSON.stringify({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision } });
}

/** All of stdin as text, or undefined past `limit` bytes (the rest is not waited for). */
function readStdin(limit: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const stdin = process.stdin;
    const finish = (value: string | undefined): void => {
      stdin.removeAllListeners("data");
      stdin.pause();
      resolve(value);
    };
    stdin.on("data", (chunk: Buffer) => {
      length += chunk.length;
      if (length > limit) finish(undefined);
      else chunks.push(chunk);
    });
    stdin.on("end", () => finish(Buffer.concat(chunks).toString("utf8")));
    stdin.on("error", () => finish(undefined));
  });
}
