// The file that tells `baton hook` where a running Baton listens and which secret to present:
// `hook-<pid>.json` in the run folder, 0600, one per launch, so the desktop window and a
// `baton web` can run at once and one stopping leaves the other reachable. The hook asks the
// newest launch still running. `baton hook` imports this file alone from the room, so it stays
// free of anything slow to load.
import fs from "node:fs";
import path from "node:path";
import { folderProblem } from "./runFolder.js";

export interface HookEndpoint {
  readonly socket: string;
  readonly secret: string;
  readonly pid: number;
}

const EndpointName = /^hook-(\d{1,10})\.json$/;
const MaxEndpointBytes = 8192;

/** The launch's endpoint file in `folder`. */
export function endpointFile(folder: string, pid: number = process.pid): string {
  return path.join(folder, `hook-${pid}.json`);
}

/** Writes the endpoint whole (0600, then renamed into place), so a reader never sees half of it. */
export function writeEndpoint(folder: string, endpoint: HookEndpoint): void {
  const file = endpointFile(folder, endpoint.pid);
  const temporary = `${file}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(endpoint)}\n`, { mode: 0o600, flag: "w" });
  fs.chmodSync(temporary, 0o600);
  fs.renameSync(temporary, file);
}

/** Removes the launch's endpoint file if it still names `socket`. */
export function removeEndpoint(folder: string, socket: string, pid: number = process.pid): void {
  const file = endpointFile(folder, pid);
  if (readEndpointFile(file, process.getuid?.())?.socket === socket) fs.rmSync(file, { force: true });
}

/** Removes the endpoint files and sockets of launches no longer running (a crash leaves them). */
export function removeStaleEndpoints(folder: string): void {
  for (const name of safeList(folder)) {
    const pid = /^hook-(\d{1,10})\.(json|sock)$/.exec(name)?.[1];
    if (pid !== undefined && !isRunning(Number(pid))) fs.rmSync(path.join(folder, name), { force: true });
  }
}

/**
 * The endpoint of the newest Baton still running, or undefined when there is none or none can be
 * trusted: the folder must pass the same checks as when it was made, and the file be a regular
 * 0600 file of the person's.
 */
export function readEndpoint(folder: string, uid: number | undefined = process.getuid?.()): HookEndpoint | undefined {
  if (folderProblem(folder, uid) !== undefined) return undefined;
  const files = safeList(folder)
    .filter((name) => EndpointName.test(name))
    .map((name) => ({ file: path.join(folder, name), mtime: mtimeOf(path.join(folder, name)) }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { file } of files) {
    const endpoint = readEndpointFile(file, uid);
    if (endpoint !== undefined && isRunning(endpoint.pid)) return endpoint;
  }
  return undefined;
}

function readEndpointFile(file: string, uid: number | undefined): HookEndpoint | undefined {
  let text: string;
  try {
    const stat = fs.lstatSync(file);
    if (!stat.isFile() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o077) !== 0 || stat.size > MaxEndpointBytes) return undefined;
    text = fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  try {
    const value = JSON.parse(text) as Partial<HookEndpoint> | null;
    if (typeof value?.socket !== "string" || typeof value.secret !== "string" || typeof value.pid !== "number") return undefined;
    return { socket: value.socket, secret: value.secret, pid: value.pid };
  } catch {
    return undefined;
  }
}

function safeList(folder: string): string[] {
  try {
    return fs.readdirSync(folder);
  } catch {
    return [];
  }
}

function mtimeOf(file: string): number {
  try {
    return fs.lstatSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** Whether a process with this pid runs (signal 0 checks without sending anything). */
function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    // ESRCH: gone. EPERM: another user's process, which cannot be the Baton that wrote our file.
    return false;
  }
}
