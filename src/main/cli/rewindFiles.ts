// The `rewind_files` control request (docs/protocol-notes.md, "Rewind files"): the CLI restores
// every file its Write/Edit calls changed to its state just before a prompt, or with `dry_run`
// says what that would change. `-p` keeps those checkpoints only when its environment asks for
// them, so every CLI Baton starts gets the variable (docs/configuration.md).

import type { JsonObject } from "../../shared/protocol/messages.js";

export const FileCheckpointingVariable = "CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING";

/** `env` with file checkpointing on, unless it already says (`=0` in Baton's environment turns it off). */
export function withFileCheckpointing(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env[FileCheckpointingVariable] !== undefined) return env;
  return { ...env, [FileCheckpointingVariable]: "1" };
}

/** The CLI's answer, typed. A refusal (`canRewind` false) carries the CLI's reason. */
export interface RewindFilesAnswer {
  readonly canRewind: boolean;
  readonly error?: string;
  /** Dry run only: absolute paths. */
  readonly filesChanged: readonly string[];
  readonly insertions: number;
  readonly deletions: number;
}

export function rewindAnswerOf(body: JsonObject | undefined): RewindFilesAnswer {
  const canRewind = body?.["canRewind"] === true;
  const error = body?.["error"];
  const files = body?.["filesChanged"];
  return {
    canRewind,
    ...(typeof error === "string" && error !== "" ? { error } : !canRewind ? { error: "Claude Code did not say why it cannot rewind." } : {}),
    filesChanged: Array.isArray(files) ? files.filter((f): f is string => typeof f === "string") : [],
    insertions: countOf(body?.["insertions"]),
    deletions: countOf(body?.["deletions"]),
  };
}

function countOf(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}
