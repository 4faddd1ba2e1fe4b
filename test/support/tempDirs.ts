// Temporary folders for tests: each a fresh folder under the system's temporary folder, removed with
// everything in it when the tests that made it are done.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach } from "vitest";

/**
 * A maker of fresh folders named `<prefix>XXXXXX` (mkdtemp: mode 0700), each given by its real path
 * (a macOS temporary folder sits behind a symlink, and the code under test resolves paths).
 * Every folder it made is removed after each test (`after: "each"`), or after the tests of the file
 * or describe block it is called in (`after: "all"`). The removal is a hook registered by this call,
 * and vitest runs after-hooks last-registered first: call it before an after-hook that must still
 * find the folders (closing a store, stopping a follower). A folder a test left unwritable is made
 * writable again first, so it cannot stop the clean-up.
 */
export function tempDirs(prefix: string, after: "each" | "all" = "each"): () => string {
  const made: string[] = [];
  const removeAll = (): void => {
    for (const dir of made.splice(0)) remove(dir);
  };
  if (after === "each") afterEach(removeAll);
  else afterAll(removeAll);
  return () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
    made.push(dir);
    return dir;
  };
}

function remove(dir: string): void {
  try {
    fs.rmSync(dir, { recursive: true, force: true });
  } catch {
    execFileSync("chmod", ["-R", "u+rwx", dir]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
