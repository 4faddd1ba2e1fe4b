// One measurement in a fresh process, so its peak RSS belongs to the listing alone:
//   node --import tsx bench/listing/measure.ts <projectsDir> <parallel>
// lists the folder `parallel` times at once, cold (no index);
//   node --import tsx bench/listing/measure.ts <projectsDir> warm <dbPath>
// opens the index in its worker as the app does, brings it up to date (not timed), then lists the
// folder through the app's history source, warm. Prints {"baseKb","peakKb","ms","sessions"} as
// JSON: `ms` is the listing's wall time (its first in this process; the process's start, module
// loading and the index run are not in it). The peak is VmHWM from /proc/self/status (Linux);
// elsewhere the highest sampled RSS.
import fs from "node:fs";
import { createHistorySource } from "../../src/main/core/historySource.js";
import { listSessions } from "../../src/main/history/sessionList.js";
import { openStore } from "../../src/main/store/storeClient.js";

function highWaterKb(): number {
  try {
    const m = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync("/proc/self/status", "utf8"));
    if (m) return Number(m[1]);
  } catch {
    // Not Linux: sampled below.
  }
  return Math.round(sampled / 1024);
}

let sampled = process.memoryUsage().rss;
const sampler = setInterval(() => {
  sampled = Math.max(sampled, process.memoryUsage().rss);
}, 5);

const [projectsDir, mode, dbPath] = process.argv.slice(2);
if (projectsDir === undefined) throw new Error("usage: measure.ts <projectsDir> [parallel | warm <dbPath>]");
if (mode === "warm") {
  if (dbPath === undefined) throw new Error("usage: measure.ts <projectsDir> warm <dbPath>");
  const store = await openStore({ dbPath });
  try {
    await store.index(projectsDir);
    const source = createHistorySource({ projectsDir, store });
    const baseKb = highWaterKb();
    const t0 = performance.now();
    const sessions = await source.listSessions();
    const ms = performance.now() - t0;
    report(baseKb, ms, sessions.length);
  } finally {
    await store.close();
  }
} else {
  const parallel = Number(mode ?? "10");
  const baseKb = highWaterKb();
  const t0 = performance.now();
  const lists = await Promise.all(Array.from({ length: parallel }, () => listSessions(projectsDir)));
  report(baseKb, performance.now() - t0, lists[0]?.length ?? 0);
}

function report(baseKb: number, ms: number, sessions: number): void {
  clearInterval(sampler);
  sampled = Math.max(sampled, process.memoryUsage().rss);
  process.stdout.write(`${JSON.stringify({ baseKb, peakKb: highWaterKb(), ms: Math.round(ms * 10) / 10, sessions })}\n`);
}
