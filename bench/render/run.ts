// `node --import tsx bench/render/run.ts [events] [rate]`: builds the renderer with a fake API,
// opens it in Chromium, streams 10 parallel subagents' updates at `rate` events/s (default 2,000)
// and prints the long-frame count (> 50 ms) and the p95 frame time measured in the page.
import { execFileSync } from "node:child_process";
import fsp from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromiumAvailable, launchBrowser } from "../../test/support/ui/browser.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "../..");
const events = Number(process.argv[2] ?? 20_000);
const rate = Number(process.argv[3] ?? 2_000);

async function serve(dir: string): Promise<http.Server> {
  const types: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css" };
  const server = http.createServer((req, res) => {
    const rel = (req.url ?? "/").split("?")[0]!.replace(/^\/+/, "") || "index.html";
    const file = path.join(dir, path.normalize(rel));
    if (!file.startsWith(dir)) return void res.writeHead(403).end();
    fsp.readFile(file).then(
      (body) => res.writeHead(200, { "content-type": types[path.extname(file)] ?? "application/octet-stream" }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return server;
}

async function main(): Promise<void> {
  if (!chromiumAvailable()) {
    console.log("render bench: no Chromium at /usr/bin/chromium; skipped");
    return;
  }
  const out = await fsp.mkdtemp(path.join(os.tmpdir(), "baton-render-bench-"));
  execFileSync(process.execPath, [path.join(repoRoot, "node_modules/vite/bin/vite.js"), "build", "-c", path.join(here, "vite.config.ts"), "--logLevel", "warn"], {
    cwd: repoRoot,
    env: { ...process.env, BATON_BENCH_OUT: out },
    stdio: "inherit",
  });
  const server = await serve(out);
  const browser = await launchBrowser();
  try {
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await page.getByRole("article", { name: "Subagent", exact: false }).count();
    await page.waitForFunction(() => "__bench" in window);
    const profile = process.env["BATON_BENCH_PROFILE"];
    const cdp = profile ? await browser.context.newCDPSession(page) : undefined;
    if (cdp) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.start");
    }
    const result = await page.evaluate(
      async ([n, r]) => {
        const frames: number[] = [];
        // Long tasks (> 50 ms of main-thread work) as Chromium reports them, during the stream only.
        const longTasks: number[] = [];
        const observer = new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) longTasks.push(entry.duration);
        });
        let last = performance.now();
        let running = true;
        const tick = (t: number): void => {
          frames.push(t - last);
          last = t;
          if (running) requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
        // One idle second first: on a loaded machine the baseline frame time is not zero.
        await new Promise((res) => setTimeout(res, 1000));
        const idle = frames.splice(0);
        const idleP95 = [...idle].sort((a, b) => a - b)[Math.floor(idle.length * 0.95)] ?? 0;
        observer.observe({ type: "longtask" });
        const started = performance.now();
        const bench = (window as unknown as { __bench: { run(e: number, r: number): Promise<number> } }).__bench;
        const sent = await bench.run(n!, r!);
        const seconds = (performance.now() - started) / 1000;
        await new Promise((res) => setTimeout(res, 300));
        running = false;
        observer.disconnect();
        const sorted = [...frames].sort((a, b) => a - b);
        const p95 = sorted[Math.floor(sorted.length * 0.95)] ?? 0;
        return {
          sent,
          seconds,
          frames: frames.length,
          longFrames: frames.filter((f) => f > 50).length,
          p95,
          idleP95,
          longTasks: longTasks.length,
          longestTask: Math.max(0, ...longTasks),
        };
      },
      [events, rate],
    );
    if (cdp && profile) {
      const { profile: data } = await cdp.send("Profiler.stop");
      await fsp.writeFile(profile, JSON.stringify(data));
    }
    if (process.env["BATON_BENCH_SCREENSHOT"]) await page.screenshot({ path: process.env["BATON_BENCH_SCREENSHOT"] });
    console.log(
      `render: ${result.sent} events in ${result.seconds.toFixed(2)} s (${Math.round(result.sent / result.seconds)} events/s), ` +
        `${result.frames} frames, long frames (>50 ms): ${result.longFrames}, p95 frame: ${result.p95.toFixed(1)} ms (idle baseline p95: ${result.idleP95.toFixed(1)} ms), ` +
        `long tasks: ${result.longTasks} (longest ${result.longestTask.toFixed(0)} ms)`,
    );
  } finally {
    await browser.close();
    server.close();
    await fsp.rm(out, { recursive: true, force: true });
  }
}

await main();
