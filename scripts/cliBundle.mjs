// Whether out/cli (the command line `npm run build:cli` bundles, scripts/buildCli.ts) may run:
// it exists and none of the source files it was made from changed since its build started.
// Plain JavaScript: bin/baton.mjs asks at every start, before anything could compile TypeScript
// (a stat of each of the ~230 sources listed in inputs.json, a few milliseconds); the tests that
// spawn `baton` ask too, and build it when stale.
import fs from "node:fs";
import path from "node:path";

/** The bundle's folder, entry and build record under Baton's package folder `root`, and the sources' entry. */
export function cliBundlePaths(root) {
  const dir = path.join(root, "out", "cli");
  return {
    dir,
    entry: path.join(dir, "baton.js"),
    inputs: path.join(dir, "inputs.json"),
    sourceEntry: path.join(root, "src", "main", "commands", "batonProcess.ts"),
  };
}

/**
 * `{ fresh: true }`, or `{ fresh: false, why }` with why in a few words ("out/cli is not built",
 * "src/main/commands/search.ts changed since out/cli was built"; a source gone counts as changed).
 */
export function cliBundleState(root) {
  const paths = cliBundlePaths(root);
  let record;
  try {
    record = JSON.parse(fs.readFileSync(paths.inputs, "utf8"));
  } catch {
    return { fresh: false, why: "out/cli is not built" };
  }
  if (!fs.existsSync(paths.entry) || typeof record?.startedAt !== "number" || !Array.isArray(record.inputs)) {
    return { fresh: false, why: "out/cli is not built" };
  }
  // A copy without the sources (the bundle and its dependencies alone) has nothing newer to run.
  if (!fs.existsSync(paths.sourceEntry)) return { fresh: true };
  for (const input of record.inputs) {
    let changed;
    try {
      changed = fs.statSync(path.join(root, input)).mtimeMs > record.startedAt;
    } catch {
      changed = true;
    }
    if (changed) return { fresh: false, why: `${input} changed since out/cli was built` };
  }
  return { fresh: true };
}
