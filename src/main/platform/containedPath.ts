// The one gate for every path Baton builds while reading history. History files are hostile
// input: the names they give (agent ids, run ids) and the links the folder holds (a symlinked
// session file, `subagents` folder or project folder) must not take a read outside the folder
// they belong to. Checked on real paths, so `..`, symlinks and `/proc/self/root` cannot hide
// where a path really goes. Refusals say what and why, never what the file holds.

import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { isInsideDir } from "./projectsDir.js";

/** The ids a transcript gives (agent ids `a` + hex, run ids `wf_…`, session UUIDs): plain names only. */
const PlainId = /^[A-Za-z0-9_-]{1,200}$/;

/** Whether an id from a file can name a file: no separators, no `..`, no NUL, nothing exotic. */
export function isPlainId(id: string): boolean {
  return PlainId.test(id);
}

/** An id for a notice: quoted, cut short, control characters escaped (JSON.stringify). */
export function quotedId(id: string): string {
  return JSON.stringify(id.length > 60 ? `${id.slice(0, 59)}…` : id);
}

export type ContainedPath =
  /** `path` as built (for names and display); `real` is where it really is: read that one. */
  | { readonly kind: "inside"; readonly path: string; readonly real: string }
  /** Nothing there (yet), and where it would be lies inside: nothing to read. */
  | { readonly kind: "missing"; readonly path: string }
  /** Refused: `reason` says why, for a notice. */
  | { readonly kind: "outside"; readonly path: string; readonly reason: string };

/**
 * `root` joined with `names` (each one plain file or folder name), checked to lie inside `root`
 * once every link is followed. A link inside `root` to another place inside it is followed.
 */
export async function containedPath(root: string, ...names: string[]): Promise<ContainedPath> {
  const built = path.join(root, ...names);
  const bad = names.find((n) => !isPlainName(n));
  if (bad !== undefined) return { kind: "outside", path: built, reason: `${quotedId(bad)} is not a plain name` };
  return containedFile(root, built);
}

/** The same for a path already built (`file` must lie inside `root` as written, and really). */
export async function containedFile(root: string, file: string): Promise<ContainedPath> {
  const target = path.resolve(file);
  if (target.includes("\0") || !isInsideDir(target, root)) return { kind: "outside", path: target, reason: "it is not inside the history folder" };
  const realRoot = await realOrUndefined(path.resolve(root));
  if (realRoot === undefined) return { kind: "missing", path: target };
  const real = await realOrUndefined(target);
  if (real !== undefined) return isInsideDir(real, realRoot) ? { kind: "inside", path: target, real } : leaves(target);
  // Not there: it is missing only if the nearest folder that is there lies inside too.
  for (let dir = path.dirname(target); isInsideDir(dir, root); dir = path.dirname(dir)) {
    const realDir = await realOrUndefined(dir);
    if (realDir !== undefined) return isInsideDir(realDir, realRoot) ? { kind: "missing", path: target } : leaves(target);
    if (dir === path.dirname(dir)) break;
  }
  return { kind: "missing", path: target };
}

function leaves(target: string): ContainedPath {
  return { kind: "outside", path: target, reason: "it is a link that leads outside the history folder" };
}

function isPlainName(name: string): boolean {
  return name !== "" && name !== "." && name !== ".." && !/[/\\\0]/.test(name);
}

async function realOrUndefined(p: string): Promise<string | undefined> {
  try {
    return await fsp.realpath(p);
  } catch {
    return undefined;
  }
}

/**
 * Where `p` really is: its real path, or for a path not there (yet), the real path of its nearest
 * existing folder with the rest appended. For comparing folders (is Baton's own file inside the
 * chosen history folder?) through links, `..` and `/proc/self/root`.
 */
export function realPathSync(p: string): string {
  const resolved = path.resolve(p);
  try {
    return fs.realpathSync.native(resolved);
  } catch {
    const parent = path.dirname(resolved);
    return parent === resolved ? resolved : path.join(realPathSync(parent), path.basename(resolved));
  }
}

/**
 * For refusing Baton's own files in a folder: inside as written or once links are followed, so a
 * link to `dir`, `..` through a link, or a path into it by `/proc/self/root` all count as inside.
 */
export function mayBeInsideDir(p: string, dir: string): boolean {
  return isInsideDir(p, dir) || isInsideDir(realPathSync(p), realPathSync(dir));
}

/** For reading: `p` lies inside `dir` as written and once every link is followed. */
export function staysInsideDir(p: string, dir: string): boolean {
  return isInsideDir(p, dir) && isInsideDir(realPathSync(p), realPathSync(dir));
}
