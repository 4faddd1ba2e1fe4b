// Baton's searches in a fresh process, over an index already up to date (bench:peers' warm list
// brought it there):
//   node --import tsx bench/peers/batonSearch.ts <dbPath> <queries.json>
// opens the index in its worker as the app does, then runs each query once (limit 20, as the
// search panel asks) and prints {"ms": [per query], "hits"} as JSON (its peak RSS is GNU time's,
// taken by the parent). The store's opening is not timed: the app has it open.
import fs from "node:fs";
import { openStore } from "../../src/main/store/storeClient.js";

const [dbPath, queriesFile] = process.argv.slice(2);
if (dbPath === undefined || queriesFile === undefined) throw new Error("usage: batonSearch.ts <dbPath> <queries.json>");
const queries = JSON.parse(fs.readFileSync(queriesFile, "utf8")) as string[];
const store = await openStore({ dbPath });
try {
  const ms: number[] = [];
  let hits = 0;
  for (const q of queries) {
    const t0 = performance.now();
    hits += (await store.search(q, { limit: 20 })).length;
    ms.push(performance.now() - t0);
  }
  console.log(JSON.stringify({ ms, hits }));
} finally {
  await store.close();
}
