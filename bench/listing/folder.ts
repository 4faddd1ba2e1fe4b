// A history folder for the listing benchmark and its memory test: `sessions` ordinary sessions,
// plus one whose middle line is `hugeMb` MB long (a tool output nobody needs to list it) and one
// that ends on such a line. The huge lines are written a megabyte at a time, never held whole.
import fs from "node:fs";
import path from "node:path";

export interface ListingFolder {
  readonly projectsDir: string;
  readonly hugeFiles: readonly string[];
}

const Cwd = "/home/user/code/listing";

export function makeListingFolder(root: string, options: { readonly sessions?: number; readonly hugeMb?: number } = {}): ListingFolder {
  const projectsDir = path.join(root, "projects");
  const project = path.join(projectsDir, "-home-user-code-listing");
  fs.mkdirSync(project, { recursive: true });
  const sessions = options.sessions ?? 20;
  for (let i = 0; i < sessions; i++) {
    const id = sessionId(i);
    fs.writeFileSync(path.join(project, `${id}.jsonl`), turns(id, 0, 50).join(""));
  }
  const hugeMb = options.hugeMb ?? 60;
  const middle = path.join(project, `${sessionId(900)}.jsonl`);
  const end = path.join(project, `${sessionId(901)}.jsonl`);
  writeHuge(middle, turns(sessionId(900), 0, 5), hugeMb, turns(sessionId(900), 5, 5));
  writeHuge(end, turns(sessionId(901), 0, 5), hugeMb, []);
  return { projectsDir, hugeFiles: [middle, end] };
}

function sessionId(i: number): string {
  return `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
}

/** A prompt and its answer per turn, their keys in the order the CLI writes them, the answer with its token usage. */
function turns(id: string, from: number, count: number): string[] {
  const lines: string[] = [];
  for (let t = from; t < from + count; t++) {
    const timestamp = new Date(Date.UTC(2026, 10, 30, 2, 0, t)).toISOString();
    const tail = { userType: "external", entrypoint: "sdk-cli", cwd: Cwd, sessionId: id, version: "2.1.197", gitBranch: "main" };
    const usage = { input_tokens: 1200 + t, cache_creation_input_tokens: 0, cache_read_input_tokens: 9000, output_tokens: 40 + t };
    const message = { id: `msg_${id}_${t}`, type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text: `answer ${t}` }], stop_reason: "end_turn", stop_sequence: null, usage };
    lines.push(`${JSON.stringify({ parentUuid: t === 0 ? null : `a${t - 1}`, isSidechain: false, type: "user", message: { role: "user", content: `prompt ${t} of ${id}` }, uuid: `u${t}`, timestamp, ...tail })}\n`);
    lines.push(`${JSON.stringify({ parentUuid: `u${t}`, isSidechain: false, message, requestId: `req_${id}_${t}`, type: "assistant", uuid: `a${t}`, timestamp, ...tail })}\n`);
  }
  return lines;
}

/** `before`, then one user line holding a tool result of `mb` MB, then `after`. */
function writeHuge(file: string, before: readonly string[], mb: number, after: readonly string[]): void {
  const fd = fs.openSync(file, "w");
  try {
    fs.writeSync(fd, before.join(""));
    const head = JSON.stringify({ type: "user", sessionId: "x", cwd: Cwd, timestamp: "2026-11-30T02:00:30.000Z", uuid: "huge", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "" }] } });
    // Split where the empty content string is, and pour the megabytes in there.
    const at = head.indexOf('"content":""') + '"content":"'.length;
    fs.writeSync(fd, head.slice(0, at));
    const megabyte = Buffer.alloc(1024 * 1024, "x");
    for (let i = 0; i < mb; i++) fs.writeSync(fd, megabyte);
    fs.writeSync(fd, `${head.slice(at)}\n`);
    fs.writeSync(fd, after.join(""));
  } finally {
    fs.closeSync(fd);
  }
}
