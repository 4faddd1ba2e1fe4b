// Where the CLI keeps its history (PROTOCOL.md §6.1). Baton only ever reads below this folder.

import os from "node:os";
import path from "node:path";

export interface ProjectsDirOptions {
  /** An explicit folder (`--projects-dir`) wins over everything else. */
  readonly override?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly homeDir?: string;
}

/** `--projects-dir`, else `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`. */
export function resolveProjectsDir(options: ProjectsDirOptions = {}): string {
  if (options.override !== undefined && options.override !== "") return path.resolve(options.override);
  const env = options.env ?? process.env;
  const configDir = env["CLAUDE_CONFIG_DIR"];
  if (configDir !== undefined && configDir !== "") return path.join(path.resolve(configDir), "projects");
  return path.join(options.homeDir ?? os.homedir(), ".claude", "projects");
}

/** The CLI's folder name for a cwd: every non-alphanumeric character becomes `-`. */
export function projectFolderName(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, "-");
}

const sessionFilePattern = /^[^.].*\.jsonl$/;

/** True for `<sessionId>.jsonl` main transcripts; false for root-layout `agent-*.jsonl` sidechains. */
export function isMainTranscriptName(fileName: string): boolean {
  return sessionFilePattern.test(fileName) && !fileName.startsWith("agent-");
}

export function sessionIdFromPath(filePath: string): string {
  return path.basename(filePath, ".jsonl");
}
