// Listing benchmark: `npm run bench:listing [-- --parallel 10 --huge-mb 60 --sessions 20 --runs 3]`.
// Builds a history folder (bench/listing/folder.ts: ordinary sessions plus two holding a 60 MB
// line), then lists it `parallel` times at once in a fresh process per run and prints the peak
// RSS above the process's start and the time. Target: the peak stays far below one huge line.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { makeListingFolder } from "./folder.js";
import { tableRow } from "../tableRow.js";

export interface ListingMeasurement {
  readonly baseKb: number;
  readonly peakKb: number;
  readonly ms: number;
  readonly sessions: number;
}

/** Lists `projectsDir` `parallel` times at once in a fresh process. */
export function measureListing(projectsDir: string, parallel: number): ListingMeasurement {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), "measure.ts");
  const child = spawnSync(process.execPath, ["--import", "tsx", script, projectsDir, String(parallel)], { encoding: "utf8" });
  if (child.status !== 0) throw new Error(`measure.ts failed (${child.status}): ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "") as ListingMeasurement;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      parallel: { type: "string", default: "10" },
      "huge-mb": { type: "string", default: "60" },
      sessions: { type: "string", default: "20" },
      runs: { type: "string", default: "3" },
    },
  });
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "baton-bench-listing-"));
  try {
    const hugeMb = Number(values["huge-mb"]);
    const folder = makeListingFolder(root, { sessions: Number(values.sessions), hugeMb });
    const parallel = Number(values.parallel);
    console.log(`${values.sessions} sessions + 2 with a ${hugeMb} MB line; ${parallel} listings at once, fresh process per run`);
    const mb = (kb: number): string => `${(kb / 1024).toFixed(1)} MB`;
    let highestKb = 0;
    for (let run = 1; run <= Number(values.runs); run++) {
      const m = measureListing(folder.projectsDir, parallel);
      highestKb = Math.max(highestKb, m.peakKb - m.baseKb);
      console.log(`run ${run}: ${m.sessions} sessions listed, ${m.ms} ms, peak RSS ${mb(m.peakKb)} (${mb(m.peakKb - m.baseKb)} above the start)`);
    }
    console.log(tableRow(`peak RSS above the start, ${parallel} listings at once (highest of ${values.runs} runs)`, mb(highestKb), `far below one ${hugeMb} MB line`));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
