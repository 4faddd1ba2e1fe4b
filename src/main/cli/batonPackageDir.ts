// Baton's own package folder (the one whose package.json is named "baton"). Its node_modules holds
// the `claude` Baton's tests pin, which npm puts first on PATH for `npx baton …` and `npm start`:
// findClaude must know the folder to skip that copy and run the person's own CLI.

import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const BatonPackageName = "baton";

/** Whether `dir/package.json` names the package "baton". */
export function isBatonPackageDir(dir: string): boolean {
  try {
    const pkg: unknown = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    return typeof pkg === "object" && pkg !== null && (pkg as { name?: unknown }).name === BatonPackageName;
  } catch {
    return false;
  }
}

/**
 * The nearest folder at or above `from` (default: this module's folder, so it holds for the
 * sources run by tsx and for the bundle in out/main alike) that is Baton's package folder.
 */
export function batonPackageDir(from: string = path.dirname(fileURLToPath(import.meta.url))): string | undefined {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (isBatonPackageDir(dir)) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}
