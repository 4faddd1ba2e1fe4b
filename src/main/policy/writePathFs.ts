// The file system as the write-root check sees it (writeRoot.ts): the kernel's real path, a
// link's text, and whether a file may be executed (a project's own program, npmCommands.ts).
// Kept apart so the check itself can be run against a made-up file system.

import fs from "node:fs";
import type { WritePathFs } from "./writeRoot.js";

/** Nothing there: a missing name, or a name under something that is not a folder. */
const Missing = new Set(["ENOENT", "ENOTDIR"]);

export const nodeWritePathFs: WritePathFs = {
  // The native call is realpath(3): `..` after a link leaves the link's target, as open() would.
  // fs.realpathSync without .native resolves `..` by name first, which a link can fool.
  realPath(p) {
    try {
      return fs.realpathSync.native(p);
    } catch (error) {
      if (Missing.has((error as NodeJS.ErrnoException).code ?? "")) return undefined;
      throw error;
    }
  },
  readLink(p) {
    try {
      return fs.readlinkSync(p);
    } catch (error) {
      // EINVAL: there, but not a link.
      if ((error as NodeJS.ErrnoException).code === "EINVAL" || Missing.has((error as NodeJS.ErrnoException).code ?? "")) return undefined;
      throw error;
    }
  },
  isExecutable(p) {
    try {
      if (!fs.statSync(p).isFile()) return false;
      fs.accessSync(p, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  },
};
