// Types for cliBundle.mjs (plain JavaScript so bin/baton.mjs can ask before tsx is loaded; the
// build script and the tests import it from TypeScript).

export interface CliBundlePaths {
  readonly dir: string;
  readonly entry: string;
  readonly inputs: string;
  /** The process entry's TypeScript source, which bin/baton.mjs runs through tsx when the bundle is stale. */
  readonly sourceEntry: string;
}

/** What out/cli/inputs.json holds. */
export interface CliBuildRecord {
  /** When the build began to read the sources (ms since the epoch, as file mtimes). */
  readonly startedAt: number;
  /** The source files the bundle was made from, relative to the package folder. */
  readonly inputs: readonly string[];
}

export type CliBundleState = { readonly fresh: true } | { readonly fresh: false; readonly why: string };

export declare function cliBundlePaths(root: string): CliBundlePaths;
export declare function cliBundleState(root: string): CliBundleState;
