// The rooms of src/main and the imports allowed between them (issue 32), checked by
// `npm run lint` next to the process boundaries. Each room has one job; a room may import only the
// rooms its row names, so imports go one way and no folder imports one that imports it back
// (VS Code's layering rule is the model: `src/vs/base` knows nothing of `platform`, and so on up).
// A new folder must be given a row. The history room is entered through its index only, and its
// files import one another one way (no file cycle: `importCycles`).

import path from "node:path";

/** Room → the rooms it may import. Lower rooms first; every row names only rooms above it. */
export const MainRooms: Readonly<Record<string, readonly string[]>> = {
  // Helpers many rooms use: files Baton trusts, paths, validation, logging, serving, SQLite.
  platform: [],
  // Pure cores and leaves.
  hub: ["platform"],
  mcp: ["platform"],
  desktop: ["platform"],
  sandbox: ["platform"],
  audit: ["platform"],
  // The protocol client, git, history reading.
  cli: ["platform", "mcp"],
  worktrees: ["platform", "desktop"],
  history: ["platform", "hub", "audit"],
  // The search index, the worker that owns the databases.
  search: ["platform", "history"],
  store: ["platform", "audit", "search"],
  // Decisions: the policy engine, the escalation desk.
  policy: ["platform", "sandbox", "mcp", "cli", "audit"],
  orchestration: ["platform", "mcp", "audit"],
  // Tabs and live sessions, and the API over them.
  core: ["platform", "hub", "mcp", "cli", "history", "audit", "store", "policy", "orchestration", "worktrees", "desktop", "sandbox"],
  // The two transports side by side, and the window's hardening.
  "transport/ipc": ["platform", "core"],
  "transport/web": ["platform", "core"],
  window: ["platform"],
  // Terminal sessions' hooks (issue 35): the local socket `baton hook` asks over.
  terminal: ["platform"],
  // The wiring, then what stands on it: the command line and the Electron entry.
  app: ["platform", "cli", "audit", "store", "policy", "sandbox", "core", "terminal"],
  commands: ["platform", "hub", "mcp", "desktop", "sandbox", "audit", "cli", "worktrees", "history", "search", "store", "policy", "core", "app", "transport/web", "terminal"],
  "(entry)": ["platform", "app", "transport/ipc", "window"],
};

/** Rooms whose files other rooms may not import one by one: they go through `index.ts`. */
const EnteredByIndex: ReadonlySet<string> = new Set(["history"]);

/** The room of a file under src/main (repository-relative, forward slashes), or undefined. */
export function roomOf(file: string): string | undefined {
  const match = /^src\/main\/(.*)$/.exec(file);
  if (match === null) return undefined;
  const parts = (match[1] ?? "").split("/");
  if (parts.length === 1) return "(entry)";
  return parts[0] === "transport" && parts.length > 2 ? `transport/${parts[1]}` : parts[0];
}

/** Why `file` may not import the file `target` (both repository-relative), or undefined when it may. */
export function roomRule(file: string, target: string): string | undefined {
  const from = roomOf(file);
  const to = roomOf(target);
  if (from === undefined || to === undefined || from === to) return undefined;
  const allowed = MainRooms[from];
  if (allowed === undefined) return `src/main/${from} is a room scripts/mainRooms.ts does not know: give it a row (what it may import)`;
  if (!allowed.includes(to)) return `src/main/${from} may not import from src/main/${to} (allowed: ${allowed.length === 0 ? "nothing" : allowed.join(", ")}; scripts/mainRooms.ts)`;
  if (EnteredByIndex.has(to) && path.posix.basename(target).replace(/\.[cm]?[jt]sx?$/, "") !== "index") {
    return `src/main/${to} is entered through its index: import "${path.posix.relative(path.posix.dirname(file), `src/main/${to}/index.js`)}"`;
  }
  return undefined;
}

/** Rooms whose files may not import one another in a circle (history/ had one: issue 32). */
export const AcyclicRooms: ReadonlySet<string> = new Set(["history"]);

/**
 * The import cycles among `imports` (file → the files it imports), one per knot of files that
 * reach one another: the files in import order, the first repeated at the end. None when the
 * files import one way.
 */
export function importCycles(imports: ReadonlyMap<string, readonly string[]>): string[][] {
  const files = [...imports.keys()].sort();
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const knots: string[][] = [];
  // Tarjan's strongly connected components; a folder's files are few, so recursion is fine.
  const visit = (file: string): void => {
    order.set(file, order.size);
    low.set(file, order.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of imports.get(file) ?? []) {
      if (!imports.has(next)) continue;
      if (!order.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, order.get(next)!));
    }
    if (low.get(file) !== order.get(file)) return;
    const knot: string[] = [];
    let top: string;
    do {
      top = stack.pop()!;
      onStack.delete(top);
      knot.push(top);
    } while (top !== file);
    if (knot.length > 1 || (imports.get(file) ?? []).includes(file)) knots.push(knot);
  };
  for (const file of files) if (!order.has(file)) visit(file);
  return knots.map((knot) => cycleThrough(knot.sort()[0]!, new Set(knot), imports)).sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** A shortest way from `start` back to itself inside `knot` (breadth first). */
function cycleThrough(start: string, knot: ReadonlySet<string>, imports: ReadonlyMap<string, readonly string[]>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i]!;
    for (const next of [...(imports.get(file) ?? [])].sort()) {
      if (!knot.has(next)) continue;
      if (next === start) {
        const path = [file];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
        return [...path, start];
      }
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, file);
      queue.push(next);
    }
  }
  return [start, start];
}
