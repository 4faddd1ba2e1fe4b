// One measurement in a fresh process, so its peak RSS belongs to the listing alone:
// `node --import tsx bench/listing/measure.ts <projectsDir> <parallel>` prints
// {"baseKb","peakKb","ms","sessions"} as JSON. The peak is VmHWM from /proc/self/status (Linux);
// elsewhere the highest sampled RSS.
import fs from "node:fs";
import { listSessions } from "../../src/main/history/sessionList.js";

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

const [projectsDir, parallelArg] = process.argv.slice(2);
if (projectsDir === undefined) throw new Error("usage: measure.ts <projectsDir> [parallel]");
const parallel = Number(parallelArg ?? "10");
const baseKb = highWaterKb();
const t0 = performance.now();
const lists = await Promise.all(Array.from({ length: parallel }, () => listSessions(projectsDir)));
const ms = performance.now() - t0;
clearInterval(sampler);
sampled = Math.max(sampled, process.memoryUsage().rss);
process.stdout.write(`${JSON.stringify({ baseKb, peakKb: highWaterKb(), ms: Math.round(ms), sessions: lists[0]?.length ?? 0 })}\n`);
