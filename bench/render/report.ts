// Prints the render bench's figures and its verdict against issue 5's target: p95 main-thread
// work per frame ≤ 16 ms and no long task over 50 ms, on a page that visibly kept up.

import { availableParallelism, loadavg } from "node:os";
import type { CardsSeen, ProbeResult } from "./pageProbe.js";
import { quantile, type FrameWork } from "./traceFrames.js";
import { tableRow } from "../tableRow.js";

export interface RenderFigures {
  readonly source: string;
  /** Stdout lines the client read during the turn, and the ClientEvents they became. */
  readonly lines: number;
  readonly streamLines: number;
  readonly events: number;
  readonly rate: number;
  /** Lines per second as the client read them (first to last line). */
  readonly achieved: number;
  /** Prompt sent → the page shows the turn's last text. */
  readonly wallSeconds: number;
  /** CPU time of this Node process (client, hub, publisher, web server; and the bench's driver) meanwhile. */
  readonly mainCpuMs: number;
  readonly frames: FrameWork;
  readonly probe: ProbeResult;
  readonly seen: CardsSeen;
  readonly agents: number;
  readonly pageErrors: readonly string[];
}

const P95Target = 16;
const LongTaskTarget = 50;
const f1 = (n: number): string => n.toFixed(1);

/** Prints the figures; returns whether the target was met. */
export function report(r: RenderFigures): boolean {
  const { frames, probe, seen } = r;
  const p95 = quantile(frames.workMs, 0.95);
  const longest = Math.max(0, ...frames.longTasksMs, ...probe.longTasks);
  const longCount = Math.max(frames.longTasksMs.length, probe.longTasks.length);
  const completed = seen.cards.filter((c) => c.status === "completed").length;
  const updating = probe.mutations > 0 && new Set(probe.progressSamples).size > 1;
  const uiOk = seen.cards.length === r.agents && completed === r.agents && seen.finalText && updating;
  const ok = p95 <= P95Target && longest <= LongTaskTarget && uiOk && r.pageErrors.length === 0;
  const cpuP95 = quantile(frames.cpuMs, 0.95);
  const cpuOk = cpuP95 <= P95Target && quantile(frames.cpuMs, 1) <= LongTaskTarget && uiOk;
  const lines = [
    `render bench — stream: ${r.source}`,
    `  sent ${r.lines} of ${r.streamLines} stream lines (${r.events} client events) at ${r.rate} lines/s asked, ${Math.round(r.achieved)} lines/s achieved (as the client read them); prompt → last text on screen ${f1(r.wallSeconds)} s`,
    `  main side (client + hub + publisher + web server, this process): ${Math.round(r.mainCpuMs)} ms CPU over the run`,
    `  frames: ${frames.frames} animation frames on the page's main thread (trace, ${f1(frames.tracedMs > 0 ? (frames.frames * 1000) / frames.tracedMs : 0)}/s); main-thread busy ${Math.round(frames.busyMs)} ms (${Math.round(frames.busyCpuMs)} ms of it on a CPU) of ${Math.round(frames.tracedMs)} ms traced; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`,
    `  work per frame (main-thread task time inside each frame): p50 ${f1(quantile(frames.workMs, 0.5))} ms, p95 ${f1(p95)} ms, max ${f1(quantile(frames.workMs, 1))} ms` +
      ` (frame span p95 ${f1(quantile(frames.spanMs, 0.95))} ms)`,
    `  CPU time per frame (the same work less time descheduled): p50 ${f1(quantile(frames.cpuMs, 0.5))} ms, p95 ${f1(quantile(frames.cpuMs, 0.95))} ms, max ${f1(quantile(frames.cpuMs, 1))} ms`,
    `  long tasks > 50 ms: ${longCount} (longest ${f1(longest)} ms) [trace: ${frames.longTasksMs.length}, page longtask observer: ${probe.longTasks.length}]`,
    `  long animation frames > 50 ms (page LoAF observer${probe.loafSupported ? "" : ", unsupported"}): ${probe.longFrames.length}` +
      (probe.longFrames.length > 0 ? ` (longest ${f1(Math.max(...probe.longFrames.map((f) => f.duration)))} ms, max blocking ${f1(Math.max(...probe.longFrames.map((f) => f.blocking)))} ms)` : ""),
    `  UI: ${seen.cards.length} Subagent cards, ${completed} completed, final text ${seen.finalText ? "shown" : "MISSING"}, session ${seen.sessionStatus}; ` +
      `${probe.mutations} DOM mutations in the transcript, progress seen: ${probe.progressSamples.filter((s) => s !== "").slice(0, 3).join(" → ") || "none"}`,
    ...(r.pageErrors.length > 0 ? [`  page errors: ${r.pageErrors.slice(0, 3).join("; ")}`] : []),
    `  target p95 ≤ ${P95Target} ms and no long task > ${LongTaskTarget} ms: ${ok ? "OK" : "OVER TARGET"}${uiOk ? "" : " (the UI did not show the whole run)"}` +
      ` — counted in CPU time instead (p95 ${f1(cpuP95)} ms, no frame over ${LongTaskTarget} ms): ${cpuOk ? "OK" : "OVER TARGET"}`,
  ];
  console.log(lines.join("\n"));
  console.log(tableRow(`p95 main-thread work per frame, ${r.agents} subagents at ${r.rate} lines/s (${r.lines} lines)`, `${f1(p95)} ms, longest task ${f1(longest)} ms${ok ? "" : " (over)"}`, `≤ ${P95Target} ms, no task > ${LongTaskTarget} ms`));
  return ok;
}
