// Where a write would really land, and whether that is inside the write root (the session's cwd or
// the agent's worktree). A path can reach outside in ways its text does not show: `..`, a link out
// of the root, `..` after a link (which the kernel takes from the link's target, not from the
// link), a dangling link whose target a write would create. So the path is resolved twice, as a
// tool that tidies it by name first would write it (Node's path.resolve, then links) and as the
// kernel would open it raw, and it is inside only when both land inside. Either way, the nearest
// part that is there gives its real path, a dangling link is followed, and the rest is appended.
// Anything that cannot be resolved (a link loop, no permission to look) is outside: fail closed.

import path from "node:path";
import { nodeWritePathFs } from "./writePathFs.js";

const posix = path.posix;

export interface WritePathFs {
  /** Where `p` really is, `..` taken after links as the kernel does; undefined when nothing is there. Throws otherwise. */
  realPath(p: string): string | undefined;
  /** A symbolic link's text; undefined when `p` is not a link or is not there. Throws otherwise. */
  readLink(p: string): string | undefined;
  /**
   * Whether `p`, links followed, is a regular file this process may execute (npmCommands.ts: a
   * program the project already has). A view without it has no such file: the answer is no.
   */
  isExecutable?(p: string): boolean;
}

export type WritePathVerdict =
  | { readonly verdict: "inside"; readonly resolved: string; readonly root: string; readonly message: string }
  | { readonly verdict: "outside"; readonly resolved: string; readonly message: string };

/** As many links as Linux follows for one path before ELOOP. */
const MaxLinks = 40;

/**
 * Whether a write to `file` (absolute, or relative to `roots[0]`, the session's cwd) lands inside
 * one of `roots`, each taken at its real path (a root that is not absolute is ignored). `agent`
 * names the writer in the message the model gets.
 */
export function checkWritePath(file: string, roots: readonly string[], fsView: WritePathFs = nodeWritePathFs, agent = "this agent"): WritePathVerdict {
  const allowed = roots.filter((root) => posix.isAbsolute(root));
  const where = allowed.length === 0 ? `${agent} may not write anywhere: it has no write root` : `${agent} may only write inside ${allowed.join(" or ")}`;
  if (file === "") return { verdict: "outside", resolved: file, message: `${where}; no path was given` };
  if (file.includes("\0")) return { verdict: "outside", resolved: file, message: `${where}; ${shown(file)} holds a NUL character` };
  const cwd = allowed[0];
  if (cwd === undefined && !posix.isAbsolute(file)) return { verdict: "outside", resolved: file, message: `${where}; ${shown(file)} is relative` };
  const byName = posix.resolve(cwd ?? "/", file);
  const raw = posix.isAbsolute(file) ? file : `${cwd}/${file}`;
  let landings: string[];
  try {
    landings = [realTarget(byName, fsView), realTarget(raw, fsView)];
  } catch (error) {
    return { verdict: "outside", resolved: byName, message: `${where}; ${shown(byName)} cannot be resolved (${(error as Error).message})` };
  }
  const realRoots = allowed.flatMap((root) => realRoot(root, fsView));
  for (const landing of landings) {
    if (!realRoots.some((real) => isUnder(landing, real.real))) {
      const how = landing === byName ? `${shown(byName)} is outside` : `${shown(file)} leads to ${shown(landing)} through a symbolic link, which is outside`;
      return { verdict: "outside", resolved: landing, message: `${where}; ${how}` };
    }
  }
  const resolved = landings[1] ?? byName;
  const root = realRoots.find((real) => isUnder(resolved, real.real))?.root ?? allowed[0] ?? "/";
  return { verdict: "inside", resolved, root, message: `${shown(resolved)} is inside ${root}` };
}

/**
 * The real path a write to the absolute path `p` would land on: the real path of its longest part
 * that is there, a dangling link at the next name followed, the rest appended.
 */
export function realTarget(p: string, fsView: WritePathFs): string {
  let pending = p;
  for (let links = 0; links <= MaxLinks; links++) {
    const names = pending.split("/").filter((name) => name !== "" && name !== ".");
    let there = names.length;
    let real = fsView.realPath(`/${names.join("/")}`);
    while (real === undefined && there > 0) {
      there -= 1;
      real = fsView.realPath(`/${names.slice(0, there).join("/")}`);
    }
    if (real === undefined) throw new Error("/ is not there");
    const rest = names.slice(there);
    const [next, ...after] = rest;
    if (next === undefined) return real;
    const link = fsView.readLink(posix.join(real, next));
    if (link !== undefined) {
      // A dangling link: the write would create its target. Kept raw, so `..` in it is taken after links too.
      pending = `${link.startsWith("/") ? link : `${real}/${link}`}/${after.join("/")}`;
    } else if (rest.includes("..")) {
      // `..` under a name that is not there: the kernel refuses; a tool tidying by name climbs back.
      pending = posix.join(real, ...rest);
    } else {
      return posix.join(real, ...rest);
    }
  }
  throw new Error("too many symbolic links");
}

function realRoot(root: string, fsView: WritePathFs): { readonly root: string; readonly real: string }[] {
  try {
    return [{ root, real: realTarget(posix.resolve(root), fsView) }];
  } catch {
    return [];
  }
}

function isUnder(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
}

/** A path for a message: as it is, unless control characters would garble the line. */
function shown(p: string): string {
  return /[\u0000-\u001f\u007f]/.test(p) ? JSON.stringify(p) : p;
}
