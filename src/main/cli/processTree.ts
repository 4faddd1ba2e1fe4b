// Kills a process and every process it started. The CLI runs each Bash command in a process group
// of its own, so killing the CLI (or its group) leaves them running, re-parented to init; Baton
// finds them by parentage before it kills anything, while the tree can still be followed. Best
// effort: a child started after the listing is missed, and a listing that fails kills the CLI alone.

import { execFile } from "node:child_process";

/** How long `ps` (or `taskkill`) may take before Baton kills the CLI alone. */
const ListTimeoutMs = 5000;

/** Sends `signal` to `pid` and to all its descendants (Windows: `taskkill /T /F`). */
export async function killTree(pid: number, signal: NodeJS.Signals): Promise<void> {
  if (process.platform === "win32") {
    await run("taskkill", ["/pid", String(pid), "/T", "/F"]);
    return;
  }
  const descendants = descendantsIn(await run("ps", ["-A", "-o", "pid=,ppid="]), pid);
  for (const target of [pid, ...descendants]) {
    try {
      process.kill(target, signal);
    } catch {
      // Already gone.
    }
  }
}

/** The descendants of `root` in `ps -o pid=,ppid=` output, parents before children. Pure. */
export function descendantsIn(psOutput: string, root: number): number[] {
  const children = new Map<number, number[]>();
  for (const line of psOutput.split("\n")) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (pid === undefined || ppid === undefined || !Number.isInteger(pid) || !Number.isInteger(ppid)) continue;
    const list = children.get(ppid);
    if (list === undefined) children.set(ppid, [pid]);
    else list.push(pid);
  }
  const found: number[] = [];
  const seen = new Set<number>([root]);
  for (let i = -1; i < found.length; i++) {
    for (const child of children.get(i === -1 ? root : found[i]!) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      found.push(child);
    }
  }
  return found;
}

function run(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve) => {
    execFile(command, [...args], { timeout: ListTimeoutMs, windowsHide: true, maxBuffer: 16 * 1024 * 1024 }, (_error, stdout) => resolve(String(stdout ?? "")));
  });
}
