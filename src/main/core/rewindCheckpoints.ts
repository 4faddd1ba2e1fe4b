// Each file's content at a prompt, from the CLI's own checkpoints, so the window can show the diff
// a rewind would make (the dry run names the files and counts lines only). The session's history
// file says which backup holds a file at a prompt: `file-history-snapshot` lines (a prompt's tracked
// files; 2.1.197 adds later files with `isSnapshotUpdate` lines) and, on 2.1.332,
// `file-history-delta` lines (a file first tracked during that prompt's turn). The backups are
// files under `<config dir>/file-history/<sessionId>/`; a backup named null means the file did not
// exist. A file first tracked after the prompt was, at the prompt, as its first backup holds it.
// That holds only once the prompt's own snapshot line is on disk: 2.1.197 writes a turn's lines
// late (after its result). Without that line, the session's latest prompt can still be read from
// the backups alone: each is named for the first 16 hex digits of the sha256 of the file's
// absolute path and its version (both CLIs), and with no prompt after it, a file's newest backup is
// its content at the prompt (none at all: it did not exist). An earlier prompt's is not guessed.
// Everything read here was written by the CLI and is treated as untrusted: backup names are checked
// before they become paths, and contents are bounded.

import { createHash } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { readJsonl } from "../history/index.js";
import { changedFrom, sizeOf } from "./lateLines.js";

/** Larger files show without a diff: the diff is computed in the window (shared/diff bounds it too). */
export const MaxRewindFileBytes = 2_000_000;

/** A backup's name as the CLI makes it: a hash of the path and a version. */
const BackupName = /^[0-9a-f]{8,64}@v[0-9]{1,9}$/;

export interface CheckpointSource {
  /** The session's history file. */
  readonly historyFile: string;
  /** `<config dir>/file-history/<sessionId>`. */
  readonly backupsDir: string;
  /** The session's working directory: tracked paths are relative to it. */
  readonly cwd: string;
}

/** Where a file's backup is: a backup's name, or null (the file did not exist). */
type BackupRef = string | null;

interface Checkpoints {
  /** The prompt's snapshot line was found: without it nothing is known of the prompt. */
  seen: boolean;
  /** At the prompt: absolute path → backup. */
  readonly atPrompt: Map<string, BackupRef>;
  /** Each file's first backup (version 1). */
  readonly first: Map<string, BackupRef>;
}

/**
 * The content of each of `files` just before prompt `promptUuid`: a string, null (it did not
 * exist), or absent from the map (no checkpoint found, or unreadable). `latestPrompt`: no prompt
 * of the session came after it. `waitUntil` (a Date.now() time): until then, a file the history
 * does not track yet is waited for as the history file grows (a live CLI's late lines).
 */
export async function contentsAtPrompt(source: CheckpointSource, promptUuid: string, files: readonly string[], latestPrompt = false, waitUntil = 0): Promise<Map<string, string | null>> {
  // Measured before each read: lines the CLI writes during a read are growth to read again.
  let size = await sizeOf(source.historyFile);
  let checkpoints = await readCheckpoints(source, promptUuid);
  // A live CLI may not have written the lines that track a file yet (lateLines.ts): read again as the history file grows.
  const untracked = (): boolean => files.some((f) => !checkpoints.atPrompt.has(path.resolve(f)) && !checkpoints.first.has(path.resolve(f)));
  while ((checkpoints.seen || !latestPrompt) && untracked() && (await changedFrom(source.historyFile, size, waitUntil))) {
    size = await sizeOf(source.historyFile);
    checkpoints = await readCheckpoints(source, promptUuid);
  }
  if (!checkpoints.seen) return latestPrompt ? newestBackups(source.backupsDir, files) : new Map();
  const contents = new Map<string, string | null>();
  for (const file of files) {
    const key = path.resolve(file);
    const ref = checkpoints.atPrompt.has(key) ? checkpoints.atPrompt.get(key) : checkpoints.first.get(key);
    if (ref === undefined) continue;
    if (ref === null) {
      contents.set(file, null);
      continue;
    }
    const content = await readBounded(path.join(source.backupsDir, ref));
    if (typeof content === "string") contents.set(file, content);
  }
  return contents;
}

/** Each file's newest backup (the latest prompt's content, see above); null: the file has none. */
async function newestBackups(backupsDir: string, files: readonly string[]): Promise<Map<string, string | null>> {
  const contents = new Map<string, string | null>();
  let names: string[];
  try {
    names = await readdir(backupsDir);
  } catch {
    return contents; // no backups folder: nothing is known
  }
  for (const file of files) {
    const prefix = `${createHash("sha256").update(path.resolve(file)).digest("hex").slice(0, 16)}@v`;
    let newest: { name: string; version: number } | undefined;
    for (const name of names) {
      const version = name.startsWith(prefix) && BackupName.test(name) ? Number(name.slice(prefix.length)) : NaN;
      if (Number.isInteger(version) && (newest === undefined || version > newest.version)) newest = { name, version };
    }
    if (newest === undefined) {
      contents.set(file, null);
      continue;
    }
    const content = await readBounded(path.join(backupsDir, newest.name));
    if (typeof content === "string") contents.set(file, content);
  }
  return contents;
}

/** A file's content now: a string, null (it does not exist), or undefined (too large or unreadable). */
export async function readBounded(file: string): Promise<string | null | undefined> {
  try {
    const info = await stat(file);
    if (!info.isFile() || info.size > MaxRewindFileBytes) return undefined;
    return await readFile(file, "utf8");
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? null : undefined;
  }
}

async function readCheckpoints(source: CheckpointSource, promptUuid: string): Promise<Checkpoints> {
  const checkpoints: Checkpoints = { seen: false, atPrompt: new Map(), first: new Map() };
  const note = (trackingPath: unknown, backup: unknown, prompt: unknown): void => {
    if (typeof trackingPath !== "string" || trackingPath === "" || typeof backup !== "object" || backup === null) return;
    const { backupFileName: name, version } = backup as { backupFileName?: unknown; version?: unknown };
    const ref: BackupRef | undefined = name === null ? null : typeof name === "string" && BackupName.test(name) ? name : undefined;
    if (ref === undefined) return;
    const key = path.resolve(source.cwd, trackingPath);
    if (prompt === promptUuid) checkpoints.atPrompt.set(key, ref);
    if (version === 1 && !checkpoints.first.has(key)) checkpoints.first.set(key, ref);
  };
  const read = (value: Record<string, unknown>): void => {
    if (value["type"] === "file-history-snapshot") {
      const snapshot = value["snapshot"] as { messageId?: unknown; trackedFileBackups?: unknown } | undefined;
      if (snapshot?.messageId === promptUuid) checkpoints.seen = true;
      const tracked = snapshot?.trackedFileBackups;
      if (typeof tracked !== "object" || tracked === null) return;
      for (const [trackingPath, backup] of Object.entries(tracked)) note(trackingPath, backup, snapshot?.messageId);
    } else if (value["type"] === "file-history-delta") {
      note(value["trackingPath"], value["backup"], value["snapshotMessageId"]);
    }
  };
  try {
    // The history's own reader: bounded lines, the CLI's bookkeeping lines passed over unread.
    await readJsonl(source.historyFile, { final: true, onRecord: (record) => read(record.value) });
  } catch {
    // No history file yet, or unreadable: no file's earlier content is known.
  }
  return checkpoints;
}
