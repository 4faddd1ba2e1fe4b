// Per-frame main-thread work from a Chromium trace. Chromium marks each animation frame of the
// renderer's main thread with an "AnimationFrame" span (the same span the Long Animation Frames
// API reports, for every frame, not only those over 50 ms): from the first task after the
// previous rendering update to the end of this one. A frame's work is the time the main thread
// spent in top-level tasks ("RunTask") inside that span; idle gaps are not counted.

import type { TraceEvent } from "./trace.js";

export interface FrameWork {
  /** Animation frames the page's main thread produced. */
  readonly frames: number;
  /** Main-thread work per frame (wall time in tasks), ms, ascending. */
  readonly workMs: readonly number[];
  /** The CPU time the main thread got for that work, ms, ascending: lower when other processes took the core. */
  readonly cpuMs: readonly number[];
  /** Frame span (first task → end of rendering), ms, ascending. */
  readonly spanMs: readonly number[];
  /** Main-thread busy time over the trace, ms, and the time from its first task to its last, ms. */
  readonly busyMs: number;
  readonly busyCpuMs: number;
  readonly tracedMs: number;
  /** Top-level tasks over 50 ms, ms. */
  readonly longTasksMs: readonly number[];
}

interface Span {
  readonly start: number;
  readonly end: number;
}

/** A task and the CPU time its thread got during it (`tdur`): less than its wall time when descheduled. */
interface Task extends Span {
  readonly cpu: number;
}

/** The renderer main thread that worked the most: the page's (other renderers idle). */
function pageMainThread(events: readonly TraceEvent[]): string | undefined {
  const mains = new Set(events.filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.["name"] === "CrRendererMain").map((e) => `${e.pid}:${e.tid}`));
  const busy = new Map<string, number>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (e.name === "RunTask" && mains.has(key)) busy.set(key, (busy.get(key) ?? 0) + (e.dur ?? 0));
  }
  return [...busy.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** Top-level tasks only: a RunTask nested in another (a nested run loop) is part of it. */
function topLevelTasks(events: readonly TraceEvent[]): Task[] {
  const tasks = events
    .filter((e) => e.ph === "X" && e.name === "RunTask" && e.dur !== undefined)
    .map((e) => ({ start: e.ts, end: e.ts + (e.dur ?? 0), cpu: e.tdur ?? e.dur ?? 0 }))
    .sort((a, b) => a.start - b.start);
  const top: Task[] = [];
  for (const task of tasks) {
    const last = top[top.length - 1];
    if (last !== undefined && task.start < last.end) continue;
    top.push(task);
  }
  return top;
}

/** AnimationFrame begin/end pairs, in order (Chromium reuses ids, so pairs are matched in sequence). */
function animationFrames(events: readonly TraceEvent[]): Span[] {
  const frames: Span[] = [];
  let open: number | undefined;
  for (const e of [...events].filter((x) => x.name === "AnimationFrame" && (x.ph === "b" || x.ph === "e")).sort((a, b) => a.ts - b.ts)) {
    if (e.ph === "b") open = e.ts;
    else if (open !== undefined) {
      frames.push({ start: open, end: e.ts });
      open = undefined;
    }
  }
  return frames;
}

/** Wall and CPU time of `tasks` (sorted, disjoint) inside each frame, by a sweep; a task cut by a frame edge counts pro rata. */
function workPerFrame(frames: readonly Span[], tasks: readonly Task[]): { wall: number[]; cpu: number[] } {
  const wall: number[] = [];
  const cpu: number[] = [];
  let first = 0;
  for (const frame of frames) {
    while (first < tasks.length && tasks[first]!.end <= frame.start) first++;
    let busy = 0;
    let used = 0;
    for (let i = first; i < tasks.length && tasks[i]!.start < frame.end; i++) {
      const task = tasks[i]!;
      const inside = Math.max(0, Math.min(task.end, frame.end) - Math.max(task.start, frame.start));
      busy += inside;
      used += task.end > task.start ? (task.cpu * inside) / (task.end - task.start) : 0;
    }
    wall.push(busy);
    cpu.push(used);
  }
  return { wall, cpu };
}

export function frameWork(events: readonly TraceEvent[]): FrameWork {
  const thread = pageMainThread(events);
  const own = events.filter((e) => `${e.pid}:${e.tid}` === thread);
  const tasks = topLevelTasks(own);
  const frames = animationFrames(own);
  const ms = (us: number): number => us / 1000;
  const ascending = (xs: number[]): number[] => xs.sort((a, b) => a - b);
  const work = workPerFrame(frames, tasks);
  const first = tasks[0]?.start ?? 0;
  const last = tasks.reduce((end, t) => Math.max(end, t.end), first);
  return {
    frames: frames.length,
    workMs: ascending(work.wall.map(ms)),
    cpuMs: ascending(work.cpu.map(ms)),
    spanMs: ascending(frames.map((f) => ms(f.end - f.start))),
    busyMs: ms(tasks.reduce((sum, t) => sum + (t.end - t.start), 0)),
    busyCpuMs: ms(tasks.reduce((sum, t) => sum + t.cpu, 0)),
    tracedMs: ms(last - first),
    longTasksMs: ascending(tasks.map((t) => ms(t.end - t.start)).filter((d) => d > 50)),
  };
}

/** The value at quantile q of an ascending list (nearest rank). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
}
