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
