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

function turns(id: string, from: number, count: number): string[] {
  const lines: string[] = [];
  for (let t = from; t < from + count; t++) {
    const ts = new Date(Date.UTC(2026, 10, 30, 2, 0, t)).toISOString();
    const envelope = { sessionId: id, cwd: Cwd, gitBranch: "main", version: "2.1.197", timestamp: ts };
    lines.push(`${JSON.stringify({ ...envelope, type: "user", uuid: `u${t}`, message: { role: "user", content: `prompt ${t} of ${id}` } })}\n`);
    lines.push(`${JSON.stringify({ ...envelope, type: "assistant", uuid: `a${t}`, message: { id: `m${t}`, role: "assistant", model: "m", content: [{ type: "text", text: `answer ${t}` }] } })}\n`);
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
