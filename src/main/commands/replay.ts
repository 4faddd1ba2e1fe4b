// `baton replay <stream.jsonl> [--stdin <stdin.jsonl>] [--json]`: rebuilds a session's transcript
// from a recorded stdout stream with the same hub reducer a live session uses, and prints it.

import { readFile } from "node:fs/promises";
import { createLineFramer, type LineProblem } from "../cli/lineFramer.js";
import { modelOf } from "../hub/index.js";
import { readStdinRecording, recordingEvents, type RecordedLine } from "../hub/recordingEvents.js";
import { renderTranscriptTree } from "../hub/transcriptTree.js";
import { terminalJson } from "../../shared/terminalText.js";
import { ExitCode, terminalIO, type CommandIO } from "./commandIO.js";

const Usage = "Usage: baton replay <stream.jsonl> [--stdin <stdin.jsonl>] [--json]\n";

interface ReplayArgs {
  readonly stream: string;
  readonly stdin?: string;
  readonly json: boolean;
}

export async function run(args: readonly string[], terminal: CommandIO): Promise<number> {
  // Titles, cwd, prompts and tool text come from files anyone could have written.
  const io = terminalIO(terminal);
  const parsed = parseArgs(args);
  if (parsed === "help") {
    io.stdout(Usage);
    return ExitCode.ok;
  }
  if (typeof parsed === "string") {
    io.stderr(`baton replay: ${parsed}\n${Usage}`);
    return ExitCode.usage;
  }
  const stream = await readLines(parsed.stream, "stream", io);
  if (stream === undefined) return ExitCode.usage;
  let stdin;
  if (parsed.stdin !== undefined) {
    const lines = await readLines(parsed.stdin, "stdin", io);
    if (lines === undefined) return ExitCode.usage;
    stdin = readStdinRecording(lines);
    for (const n of stdin.badLines) io.stderr(`baton replay: ${parsed.stdin}:${n}: not a JSON object, ignored\n`);
  }
  const events = recordingEvents(stream, stdin);
  for (const e of events) {
    if (e.kind === "protocol_problem") io.stderr(`baton replay: ${parsed.stream}:${e.lineNumber}: ${e.reason}\n`);
  }
  const transcript = modelOf(events).transcript();
  io.stdout(parsed.json ? `${terminalJson(transcript, 2)}\n` : renderTranscriptTree(transcript));
  return ExitCode.ok;
}

/** The arguments, "help", or what is wrong with them. */
function parseArgs(args: readonly string[]): ReplayArgs | "help" | string {
  let stream: string | undefined;
  let stdin: string | undefined;
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (arg === "--json") json = true;
    else if (arg === "-h" || arg === "--help") return "help";
    else if (arg === "--stdin") {
      stdin = args[++i];
      if (stdin === undefined) return "--stdin needs a file";
    } else if (arg.startsWith("-")) return `unknown option ${arg}`;
    else if (stream === undefined) stream = arg;
    else return `unexpected argument ${arg}`;
  }
  if (stream === undefined) return "missing <stream.jsonl>";
  return { stream, json, ...(stdin === undefined ? {} : { stdin }) };
}

async function readLines(file: string, what: string, io: CommandIO): Promise<RecordedLine[] | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : String((error as Error).message);
    io.stderr(`baton replay: cannot read ${what} file ${file}: ${reason}\n`);
    return undefined;
  }
  const lines: RecordedLine[] = [];
  const framer = createLineFramer({
    unterminatedLine: "emit",
    onLine: (text, lineNumber) => lines.push({ text, lineNumber }),
    onProblem: (p: LineProblem) => io.stderr(`baton replay: ${file}:${p.lineNumber}: ${p.reason}\n`),
  });
  framer.push(bytes);
  framer.end();
  return lines;
}
