// The argument array for `claude` in stream-json mode, as the Agent SDK builds it: no `-p`,
// permission prompts over stdio. Always an array handed to spawn, never a shell string.

import type { PermissionMode } from "../../shared/protocol/messages.js";

export interface SpawnArgsOptions {
  readonly permissionMode?: PermissionMode;
  readonly model?: string;
  readonly includePartialMessages?: boolean;
  /** Continue this session (`--resume <id>`). */
  readonly resume?: string;
  /** With `resume`: continue in a new session id (`--fork-session`). */
  readonly forkSession?: boolean;
  /** With `forkSession`: keep the resumed chain only up to this entry's uuid (`--resume-session-at`). */
  readonly resumeSessionAt?: string;
  /** Anything else, appended as given (e.g. `["--agents", json]`). */
  readonly extraArgs?: readonly string[];
}

export function buildSpawnArgs(options: SpawnArgsOptions = {}): string[] {
  const args = [
    "--output-format",
    "stream-json",
    "--input-format",
    "stream-json",
    "--verbose",
    "--permission-prompt-tool",
    "stdio",
  ];
  if (options.permissionMode) args.push("--permission-mode", options.permissionMode);
  if (options.model) args.push("--model", options.model);
  if (options.includePartialMessages) args.push("--include-partial-messages");
  if (options.resume) {
    args.push("--resume", options.resume);
    if (options.forkSession) args.push("--fork-session");
    // Only a fork cuts: a restart of the fork itself resumes all of it (forkSession false).
    if (options.forkSession && options.resumeSessionAt) args.push("--resume-session-at", options.resumeSessionAt);
  } else if (options.forkSession) {
    throw new Error("forkSession needs a session to resume");
  }
  if (options.extraArgs) args.push(...options.extraArgs);
  return args;
}
