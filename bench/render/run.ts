// Render bench (issue 5): a recorded-shape stream of 10 parallel subagents, played at ≥ 2,000
// lines/s through the whole web-mode path — a stand-in `claude` process (replayCli.mjs) writes
// the lines, the real ClaudeClient reads and parses them, the live session's hub reducer builds
// the transcript, the DeltaPublisher diffs it, the real web server sends it over the WebSocket,
// and the built renderer draws it in Chromium. Measures main-thread work per frame from a
// Chromium performance trace (not the frame interval, which headless Chromium pins at 16.7 ms),
// plus Chromium's own long-task and long-animation-frame reports. Prints figures; not a test.
//
//   node --import tsx bench/render/run.ts [lines] [rate] [--agents N] [--trace trace.json]
//     [--profile page.cpuprofile] [--screenshot out.png]   (files to open in DevTools)

import { chmod, mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { BatonService } from "../../src/main/core/batonService.js";
import { SessionManager } from "../../src/main/core/sessionManager.js";
import { ClaudeClient } from "../../src/main/cli/claudeClient.js";
import { startWebServer } from "../../src/main/transport/web/webServer.js";
import { BatonPage } from "../../test/support/ui/batonPage.js";
import { chromiumAvailable, launchBrowser } from "../../test/support/ui/browser.js";
import { ensureRendererBuilt } from "../../test/support/ui/buildRenderer.js";
import { cardsSeen, startProbe, stopProbe } from "./pageProbe.js";
import { report } from "./report.js";
import { scaleRecording, stepsFor } from "./scaledRecording.js";
import { startTrace } from "./trace.js";
import { frameWork } from "./traceFrames.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "../..");

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { agents: { type: "string", default: "10" }, trace: { type: "string" }, profile: { type: "string" }, screenshot: { type: "string" } },
});
const totalLines = Number(positionals[0] ?? 20_000);
const rate = Number(positionals[1] ?? 2_000);
const agents = Number(values.agents);
const DoneTimeoutMs = 120_000;
for (const [name, value] of [["lines", totalLines], ["rate", rate], ["--agents", agents]] as const) {
  if (!Number.isInteger(value) || value <= 0) throw new Error(`render bench: ${name} must be a positive whole number (got ${String(value)})`);
}

/** Counts what the real client reads: stdout lines (with the time of the first and last) and events. */
function lineCounter() {
  const counts = { lines: 0, events: 0, first: 0, last: 0 };
  const restart = (): void => void Object.assign(counts, { lines: 0, events: 0, first: 0, last: 0 });
  const createClient = (options: ConstructorParameters<typeof ClaudeClient>[0]): ClaudeClient => {
    const client = new ClaudeClient({
      ...options,
      tap: {
        ...options.tap,
        stdoutLine: (text) => {
          // Control answers (to requests the UI makes meanwhile) are not part of the recorded stream.
          if (text.startsWith('{"type":"control_response"')) return;
          const now = performance.now();
          if (counts.lines++ === 0) counts.first = now;
          counts.last = now;
        },
      },
    });
    client.on(() => counts.events++);
    return client;
  };
  return { counts, createClient, restart };
}

async function waitFor(what: string, test: () => boolean | Promise<boolean>, timeoutMs = DoneTimeoutMs): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`render bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function main(): Promise<void> {
  if (!chromiumAvailable()) {
    console.log("render bench: no Chromium at /usr/bin/chromium; skipped");
    return;
  }
  const rendererDir = ensureRendererBuilt();
  const steps = stepsFor(totalLines, agents);
  const stream = scaleRecording(repoRoot, agents, steps);
  const tmp = await mkdtemp(path.join(os.tmpdir(), "baton-render-bench-"));
  const cwd = path.join(tmp, "project");
  await mkdir(cwd);
  const replayFile = path.join(tmp, "stream.json");
  await writeFile(replayFile, JSON.stringify({ initializeAnswer: stream.initializeAnswer, lines: stream.lines }));
  const fakeClaude = path.join(tmp, "claude");
  await writeFile(fakeClaude, `#!/bin/sh\nexec "${process.execPath}" "${path.join(here, "replayCli.mjs")}" "$@"\n`);
  await chmod(fakeClaude, 0o755);

  const { counts, createClient, restart } = lineCounter();
  const manager = new SessionManager({
    claudePath: fakeClaude,
    env: { ...process.env, BATON_REPLAY_FILE: replayFile, BATON_REPLAY_RATE: String(rate) },
    // As createAppCore sets it for the app and `baton web`.
    clientDefaults: { includePartialMessages: true },
    createClient,
  });
  const service = new BatonService(manager);
  const web = await startWebServer({ service, rendererDir });
  const browser = await launchBrowser();
  try {
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const pageErrors: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(e.message));
    await page.goto(web.url);
    const baton = new BatonPage(page, cwd);
    await baton.waitReady();
    await baton.newSession(cwd);
    const finalText = `All ${agents} subagents finished.`;

    const trace = await startTrace(browser.context, page, values.profile !== undefined);
    await page.evaluate(startProbe);
    restart();
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    await baton.send("run ten things in parallel");
    await waitFor("every line to reach the client", () => counts.lines >= stream.lines.length);
    await waitFor("the page to show the end of the turn", () => page.evaluate(cardsSeen, finalText).then((s) => s.finalText));
    const wallSeconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const probe = await page.evaluate(stopProbe);
    const events = await trace.stop(values.trace, values.profile);
    const seen = await page.evaluate(cardsSeen, finalText);
    if (values.screenshot !== undefined) await page.screenshot({ path: values.screenshot });

    const streamed = counts.lines;
    const seconds = (counts.last - counts.first) / 1000;
    report({
      source: `generated: ${stream.source} (a real 2-agent stdio run) scaled to ${agents} agents × ${steps} steps, line shapes copied`,
      lines: streamed,
      streamLines: stream.lines.length,
      events: counts.events,
      rate,
      achieved: seconds > 0 ? streamed / seconds : 0,
      wallSeconds,
      mainCpuMs: (cpu.user + cpu.system) / 1000,
      frames: frameWork(events),
      probe,
      seen,
      agents,
      pageErrors,
    });
  } finally {
    await browser.close();
    await web.close();
    await manager.shutdown();
    await rm(tmp, { recursive: true, force: true });
  }
}

await main();
