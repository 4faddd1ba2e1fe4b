// A Chromium performance trace over CDP (what DevTools' Performance panel records), streamed
// back when it ends; optionally a V8 CPU profile of the page alongside. Both can be written to
// files for DevTools' Performance panel.

import { writeFile } from "node:fs/promises";
import type { BrowserContext, Page } from "playwright-core";

export interface TraceEvent {
  readonly name: string;
  readonly cat: string;
  readonly ph: string;
  readonly pid: number;
  readonly tid: number;
  /** Microseconds. */
  readonly ts: number;
  readonly dur?: number;
  /** Thread (CPU) time, microseconds. */
  readonly tdur?: number;
  readonly args?: Record<string, unknown>;
}

const Categories = [
  "toplevel",
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "disabled-by-default-devtools.timeline.frame",
  "blink.user_timing",
  "v8.execute",
  "__metadata",
];

export interface Trace {
  /** Ends the trace (and the CPU profile); writes them to the files given. */
  stop(traceFile?: string, profileFile?: string): Promise<readonly TraceEvent[]>;
}

/** With `profile`, the page's JavaScript is sampled too (V8's CPU profiler; it adds some overhead). */
export async function startTrace(context: BrowserContext, page: Page, profile = false): Promise<Trace> {
  const cdp = await context.newCDPSession(page);
  if (profile) {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await cdp.send("Profiler.start");
  }
  await cdp.send("Tracing.start", { traceConfig: { includedCategories: Categories, recordMode: "recordAsMuchAsPossible" }, transferMode: "ReturnAsStream" });
  return {
    async stop(traceFile, profileFile) {
      if (profile) {
        const { profile: data } = await cdp.send("Profiler.stop");
        if (profileFile !== undefined) await writeFile(profileFile, JSON.stringify(data));
      }
      const complete = new Promise<string>((resolve, reject) => {
        cdp.once("Tracing.tracingComplete", (e) => (e.stream === undefined ? reject(new Error("the trace came back without a stream")) : resolve(e.stream)));
      });
      await cdp.send("Tracing.end");
      const handle = await complete;
      const chunks: string[] = [];
      for (;;) {
        const { data, eof, base64Encoded } = await cdp.send("IO.read", { handle, size: 1 << 20 });
        chunks.push(base64Encoded === true ? Buffer.from(data, "base64").toString("utf8") : data);
        if (eof) break;
      }
      await cdp.send("IO.close", { handle });
      await cdp.detach();
      const text = chunks.join("");
      if (traceFile !== undefined) await writeFile(traceFile, text);
      const parsed = JSON.parse(text) as { traceEvents?: TraceEvent[] } | TraceEvent[];
      return Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
    },
  };
}
