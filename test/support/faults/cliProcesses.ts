// The CLI processes this test process started, read from /proc: to kill one the way the OS or a
// person would (SIGKILL, SIGSTOP), and to prove none is left behind.
import fs from "node:fs";

export interface ChildProcessInfo {
  readonly pid: number;
  readonly args: readonly string[];
}

/** Direct children of this process whose command line names `program` (its path or its name). */
export function childrenRunning(program: string): ChildProcessInfo[] {
  const out: ChildProcessInfo[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      // Field 4 (ppid) follows the command name in parentheses, which may itself hold spaces.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) !== process.pid || fields[0] === "Z") continue;
      const args = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter((a) => a !== "");
      if (args.some((a) => a === program || a.endsWith(`/${program}`))) out.push({ pid, args });
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}

/** The one running child named `program`; throws when there is none or more than one. */
export function theChild(program: string): ChildProcessInfo {
  const found = childrenRunning(program);
  if (found.length !== 1) throw new Error(`expected one running ${program}, found ${found.length}`);
  return found[0]!;
}

/** Every process below `pid` (children, their children, …), read from /proc. */
export function descendantPids(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = parentOf(Number(entry));
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const walk = (from: number): void => {
    for (const child of children.get(from) ?? []) {
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

/** A process's command line, its arguments joined by spaces; "" once it has ended (it may end while a test looks). */
export function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter((a) => a !== "").join(" ");
  } catch {
    return "";
  }
}

/** Whether `pid` runs (a zombie waiting to be reaped does not). */
export function isRunning(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0] !== "Z";
  } catch {
    return false;
  }
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}
