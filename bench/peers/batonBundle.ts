// Baton's measurements as plain JavaScript, bundled the way `npm run build:cli` bundles the
// command line (scripts/buildCli.ts): run under tsx, a measuring process would carry tsx's
// compiler in its peak RSS (about 65 MB here: `node -e 1` peaks at 40 MB, an empty file under
// `node --import tsx` at 107 MB), which neither the app nor `baton` carries and no peer pays.
// One flat folder, so `new URL("./storeWorker.js", import.meta.url)` finds the workers from
// whichever chunk asks; packages (better-sqlite3) stay imports, found in the repository's
// node_modules above bench/.data.
import { build } from "esbuild";
import fs from "node:fs";
import path from "node:path";
import { NodeBundle } from "../../scripts/buildCli.js";

export interface BatonBundle {
  /** bench/listing/measure.ts: the cold list (`<projectsDir> 1`) and the warm one (`<projectsDir> warm <db>`). */
  readonly listing: string;
  /** bench/peers/batonSearch.ts. */
  readonly search: string;
  /** bench/history/restore.ts: `--measure first --file <session>`, bench:restore's own measurement. */
  readonly restore: string;
}

export async function buildBatonBundle(repoRoot: string, outDir: string): Promise<BatonBundle> {
  fs.rmSync(outDir, { recursive: true, force: true });
  await build({
    absWorkingDir: repoRoot,
    entryPoints: {
      listing: path.join(repoRoot, "bench/listing/measure.ts"),
      search: path.join(repoRoot, "bench/peers/batonSearch.ts"),
      restore: path.join(repoRoot, "bench/history/restore.ts"),
      storeWorker: path.join(repoRoot, "src/main/store/storeWorker.ts"),
      extractWorker: path.join(repoRoot, "src/main/search/extractWorker.ts"),
    },
    outdir: outDir,
    ...NodeBundle,
  });
  return { listing: path.join(outDir, "listing.js"), search: path.join(outDir, "search.js"), restore: path.join(outDir, "restore.js") };
}
