// The file that tells `baton hook` where the running Baton listens and which secret to present:
// `hook.json` in the run folder, 0600, rewritten by each launch (the newest Baton answers).
// `baton hook` imports this file alone from the room, so it stays free of anything slow to load.
import fs from "node:fs";
import path from "node:path";
import { folderProblem } from "./runFolder.js";

export interface HookEndpoint {
  readonly socket: string;
  readonly secret: string;
  readonly pid: number;
}

export const EndpointFileName = "hook.json";
const MaxEndpointBytes = 8192;

export function endpointFile(folder: string): string {
  return path.join(folder, EndpointFileName);
}

/** Writes the endpoint whole (0600, then renamed into place), so a reader never sees half of it. */
export function writeEndpoint(folder: string, endpoint: HookEndpoint): void {
  const file = endpointFile(folder);
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(endpoint)}\n`, { mode: 0o600, flag: "w" });
  fs.chmodSync(temporary, 0o600);
  fs.renameSync(temporary, file);
}

/** Removes the endpoint file if it still names `socket` (a newer launch's file stays). */
export function removeEndpoint(folder: string, socket: string): void {
  if (readEndpoint(folder)?.socket === socket) fs.rmSync(endpointFile(folder), { force: true });
}

/**
 * The endpoint Baton wrote, or undefined when there is none or it cannot be trusted: the folder
 * must pass the same checks as when it was made, and the file be a regular 0600 file of the person's.
 */
export function readEndpoint(folder: string, uid: number | undefined = process.getuid?.()): HookEndpoint | undefined {
  if (folderProblem(folder, uid) !== undefined) return undefined;
  const file = endpointFile(folder);
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
