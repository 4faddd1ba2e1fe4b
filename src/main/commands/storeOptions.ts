// Options shared by `baton index` and `baton search`: where the history is and where the index is.
import { resolveProjectsDir } from "../platform/projectsDir.js";
import { checkDbPath, defaultDbPath, processDbPathEnv } from "../platform/dbPath.js";

export const STORE_OPTIONS_HELP = `  --projects-dir <dir>    History directory (default: $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects)
  --db <file>             Index database (default: $XDG_CONFIG_HOME/baton/history.db or ~/.config/baton/history.db)`;

export interface StoreLocation {
  readonly projectsDir: string;
  readonly dbPath: string;
}

/** Throws `forbidden_path` when the database would go inside `~/.claude` or the projects folder. */
export function storeLocation(values: { "projects-dir"?: string | undefined; db?: string | undefined }): StoreLocation {
  const projectsDir = resolveProjectsDir(values["projects-dir"] !== undefined ? { override: values["projects-dir"] } : {});
  return { projectsDir, dbPath: checkDbPath(values.db ?? defaultDbPath(), processDbPathEnv(projectsDir)) };
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}
