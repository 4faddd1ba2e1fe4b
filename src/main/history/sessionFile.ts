// Finding a session's file by what a page names: its id (in its project folder, when known), or
// an absolute path inside the history folder. Nothing a page sends is resolved against Baton's
// working folder, and links are followed only while they stay inside the history folder.

import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { containedFile, containedPath, isPlainId, quotedId } from "../platform/containedPath.js";
import { HistoryError } from "./problems.js";

/**
 * A session the app names (from a page, untrusted): its id, looked up in its project folder
 * `project` or else in each project folder of `projectsDir`, or an absolute path of a transcript
 * inside that folder. A session is its project folder and id: an id found in two project folders
 * (a copied history) is refused as ambiguous, naming both, unless `project` picks one. Links are
 * followed only while they stay inside the folder (containedPath.ts). Returns the path as found
 * (its name is the session's id). Errors name the id and the history folder, never Baton's working
 * folder.
 */
export async function findSessionFile(idOrPath: string, projectsDir: string, project?: string): Promise<string> {
  const root = path.resolve(projectsDir);
  if (looksLikePath(idOrPath)) {
    if (!path.isAbsolute(idOrPath)) throw new HistoryError("refused", idOrPath, "A session is named by its id, or by the path of a transcript inside the history folder");
    const checked = await containedFile(root, idOrPath);
    if (checked.kind === "inside" && (await isFile(checked.real))) return checked.path;
    if (checked.kind === "outside") throw new HistoryError("refused", idOrPath, `That transcript is not in the history folder ${root} (${checked.reason}); Baton does not read it`);
    throw new HistoryError("not_found", idOrPath, `No transcript file there in the history folder ${root}`);
  }
  if (!isPlainId(idOrPath)) throw new HistoryError("refused", idOrPath, `${quotedId(idOrPath)} is not a session id`);
  if (project !== undefined && !isProjectName(project)) throw new HistoryError("refused", idOrPath, `${quotedId(project)} is not a project folder's name`);
  let projects: string[];
  try {
    projects = project !== undefined ? [project] : await readdir(root);
  } catch {
    throw new HistoryError("not_found", idOrPath, `No projects folder at ${root}`);
  }
  let refused: string | undefined;
  const found: string[] = [];
  for (const name of projects.sort()) {
    const checked = await containedPath(root, name, `${idOrPath}.jsonl`);
    if (checked.kind === "inside" && (await isFile(checked.real))) found.push(checked.path);
    if (checked.kind === "outside") refused ??= checked.reason;
  }
  if (found.length === 1) return found[0]!;
  if (found.length > 1) {
    throw new HistoryError("ambiguous", idOrPath, `Session ${idOrPath} is in ${found.length} project folders; name its project folder or give its file: ${found.join(", ")}`);
  }
  if (refused !== undefined) throw new HistoryError("refused", idOrPath, `Session ${idOrPath} was not opened: ${refused}`);
  const where = project !== undefined ? `in the project folder ${path.join(root, project)}` : `under ${root}`;
  throw new HistoryError("not_found", idOrPath, `No session ${idOrPath} ${where}`);
}

/** A project folder's name: one plain entry of the history folder, never `.`, `..` or a path. */
function isProjectName(name: string): boolean {
  return name.length > 0 && name.length <= 255 && name !== "." && name !== ".." && !/[\\/\0]/.test(name);
}

export async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** A session argument that names a file rather than an id. */
export function looksLikePath(pathOrId: string): boolean {
  return pathOrId.endsWith(".jsonl") || pathOrId.includes("/") || pathOrId.includes(path.sep);
}
