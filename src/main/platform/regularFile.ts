// Opening files found in the history folder, which may hold anything: a FIFO, socket, device or
// directory named like a transcript is refused, never read (opening or reading a FIFO waits for a
// writer forever). The kind is checked before opening, and again on the open descriptor: the file
// is opened with O_NONBLOCK, so a FIFO swapped in between returns at once and is refused too.
// Every reader of history files opens them here.

import fs, { constants } from "node:fs";
import { open, stat, type FileHandle } from "node:fs/promises";

export type NotRegularKind = "directory" | "FIFO" | "socket" | "device" | "other";

export class NotRegularFileError extends Error {
  readonly code = "ENOTREGULAR";
  constructor(
    readonly path: string,
    readonly kind: NotRegularKind,
  ) {
    super(`${path}: not a regular file (${describeKind(kind)})`);
    this.name = "NotRegularFileError";
  }
}

// Windows has no O_NONBLOCK (nor FIFOs that open() blocks on).
const ReadFlags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** Undefined for a regular file; otherwise what it is. Symbolic links are followed first. */
export function notRegularKind(st: fs.Stats | fs.Dirent): NotRegularKind | undefined {
  if (st.isFile()) return undefined;
  if (st.isDirectory()) return "directory";
  if (st.isFIFO()) return "FIFO";
  if (st.isSocket()) return "socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "device";
  return "other";
}

export function describeKind(kind: NotRegularKind): string {
  return kind === "other" ? "not a file" : `a ${kind}`;
}

/** The notice a skipped path gets: which path, and why. */
export function notRegularMessage(kind: NotRegularKind): string {
  return `skipped: not a regular file (${describeKind(kind)})`;
}

/** What `file` is when it exists and is not a regular file; undefined when regular or missing. */
export async function notRegularAt(file: string): Promise<NotRegularKind | undefined> {
  try {
    return notRegularKind(await stat(file));
  } catch {
    return undefined;
  }
}

/** Opens `file` for reading; rejects with NotRegularFileError unless it is a regular file. */
export async function openRegularFile(file: string): Promise<FileHandle> {
  const before = notRegularKind(await stat(file));
  if (before !== undefined) throw new NotRegularFileError(file, before);
  const handle = await open(file, ReadFlags);
  try {
    const after = notRegularKind(await handle.stat());
    if (after !== undefined) throw new NotRegularFileError(file, after);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** `openRegularFile` with blocking calls; returns a descriptor the caller closes. */
export function openRegularFileSync(file: string): number {
  const before = notRegularKind(fs.statSync(file));
  if (before !== undefined) throw new NotRegularFileError(file, before);
  const fd = fs.openSync(file, ReadFlags);
  try {
    const after = notRegularKind(fs.fstatSync(fd));
    if (after !== undefined) throw new NotRegularFileError(file, after);
    return fd;
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

/** The text of a small regular file (a meta.json, a run record). */
export async function readRegularFileText(file: string): Promise<string> {
  const handle = await openRegularFile(file);
  try {
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}

export function readRegularFileTextSync(file: string): string {
  const fd = openRegularFileSync(file);
  try {
    return fs.readFileSync(fd, "utf8");
  } finally {
    fs.closeSync(fd);
  }
}
