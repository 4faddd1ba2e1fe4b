// On Windows the hook's channel is a named pipe instead of a Unix socket, with the same rules:
// reachable by the person only, one per launch, never from another machine. Node listens on a
// pipe with the same `net` server, but the rules a pipe needs are set by how it is created, so
// they are stated here as data (checked by unit tests; Baton's server is not started on Windows
// until they are enforced there).
import { createHash } from "node:crypto";

export interface PipeRule {
  readonly rule: "owner-only-dacl" | "reject-remote-clients" | "first-instance" | "per-launch-name" | "secret-required";
  /** What it means, for the person reading a refusal. */
  readonly why: string;
}

export interface PipePlan {
  /** `\\.\pipe\baton-hook-<user hash>-<pid>` */
  readonly name: string;
  readonly rules: readonly PipeRule[];
}

/** The pipe for a user's Baton launch: the user in the name is hashed (a name is visible to all users). */
export function windowsPipePlan(userSid: string, pid: number): PipePlan {
  const user = createHash("sha256").update(userSid).digest("hex").slice(0, 16);
  return {
    name: `\\\\.\\pipe\\baton-hook-${user}-${pid}`,
    rules: [
      { rule: "owner-only-dacl", why: "the pipe's security descriptor grants the person's SID alone (no Everyone, no Anonymous)" },
      { rule: "reject-remote-clients", why: "PIPE_REJECT_REMOTE_CLIENTS: no other machine may connect" },
      { rule: "first-instance", why: "FILE_FLAG_FIRST_PIPE_INSTANCE: a pipe someone made first under this name is refused, not joined" },
      { rule: "per-launch-name", why: "the name carries the launch's pid, so a stale or planted pipe is not reused" },
      { rule: "secret-required", why: "a client presents the launch's secret, as over the Unix socket" },
    ],
  };
}

/** Why `name` is not a pipe this user's Baton would listen on, or undefined. */
export function pipeNameProblem(name: string, userSid: string): string | undefined {
  const match = /^\\\\\.\\pipe\\baton-hook-([0-9a-f]{16})-(\d{1,10})$/.exec(name);
  if (match === null) return `${name} is not a local Baton hook pipe (\\\\.\\pipe\\baton-hook-<user>-<pid>)`;
  if (match[1] !== windowsPipePlan(userSid, Number(match[2])).name.split("-")[2]) return `${name} belongs to another user`;
  return undefined;
}
