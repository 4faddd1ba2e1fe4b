// A preset's write scope and network in words, for the Rules view and `baton policy --list` alike
// (issue 31). Pure.

import type { Preset } from "./policy.js";

/** Where a preset may write. */
export function writeScope(write: Preset["write"]): string {
  return write === "none" ? "nothing" : "inside the session's folder or its worktree";
}

/** The hosts a preset's commands may reach (`*`: any host). */
export function networkScope(network: readonly string[]): string {
  if (network.length === 0) return "none";
  return network.includes("*") ? "any host" : network.join(", ");
}
