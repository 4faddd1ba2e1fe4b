// Faults survived: a CLI that stops reading its stdin. Baton's writes never block its loop and
// never pile up past the bound: a prompt that would is refused with a clear error, and a pipe left
// full past the stall time gets the CLI killed with a message in the tab. The same tab then starts
// a new CLI on the next prompt. The CLI here is a wrapper that, while a flag file exists, runs a
// test double (notReadingClaude.mjs: answers initialize, then never reads) instead of the real one.
import fs from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStdinWriter } from "../../src/main/cli/stdinWriter.js";
import { text } from "../support/scenarios/types.js";
import { childrenRunning } from "../support/faults/cliProcesses.js";
import { noticesOf, startFaultApp, stillSpinning, value, type FaultApp } from "../support/faults/faultApp.js";
import { doubleCommand, writeWrapper } from "../support/faults/wrappers.js";

const MiB = 1024 * 1024;
const MaxQueued = 4 * MiB;
const StallMs = 3000;

describe("faults: the CLI not reading its stdin", () => {
  it("the writer (a pipe nobody reads): refuses lines past the bound, then reports the stall once and closes", async () => {
    const never = new Writable({ highWaterMark: 1024, write: () => undefined });
    const stalls: unknown[] = [];
    const writer = createStdinWriter(never, { maxQueuedBytes: 10_000, stallMs: 200, onStalled: (s) => stalls.push(s) });
    const line = "x".repeat(999);
    const taken = Array.from({ length: 30 }, () => writer.writeLine(line));
    expect(taken.filter(Boolean)).toHaveLength(10);
    expect(writer.queuedBytes).toBeLessThanOrEqual(10_000);
    expect(writer.closed).toBe(false);
    await expect.poll(() => stalls.length).toBe(1);
    expect(stalls[0]).toEqual({ queuedBytes: 10_000, stalledMs: 200 });
    expect(writer.closed).toBe(true);
    expect(writer.queuedBytes).toBe(never.writableLength);
    expect(writer.writeLine(line)).toBe(false);
  });

  describe("through the app", () => {
    let app: FaultApp;
    let flag: string;

    beforeAll(async () => {
      app = await startFaultApp(
        { main: [{ blocks: [text("Working again, in a new CLI.")] }] },
        {
          cwdName: "fault-stdin",
          claudePath: (env) => {
            flag = path.join(env.home, "not-reading");
            fs.writeFileSync(flag, "");
            return writeWrapper(env, "claude-or-not-reading", `if [ -e "$HOME/not-reading" ]; then exec ${doubleCommand("notReadingClaude.mjs")}; fi\nexec "$CLAUDE" "$@"`);
          },
          manager: { clientDefaults: { stopTimeouts: { closeStdinMs: 3000, sigtermMs: 3000 }, stdinMaxQueuedBytes: MaxQueued, stdinStallMs: StallMs } },
        },
      );
    });
    afterAll(() => app?.close());

    it("refuses prompts past the bound without blocking, kills the CLI after the stall time, and the tab's next prompt starts a new CLI", async () => {
      const { service, console: logs } = app;
      const { tab, watch } = await app.open();
      expect(childrenRunning("notReadingClaude.mjs")).toHaveLength(1);

      // The loop stays free: the longest gap between 20 ms ticks while Baton writes.
      let last = Date.now();
      let longestGap = 0;
      const ticker = setInterval(() => {
        longestGap = Math.max(longestGap, Date.now() - last);
        last = Date.now();
      }, 20);
      // Under sendPrompt's own limit of a million characters.
      const prompt = "y".repeat(900_000);
      const outcomes: { ok: boolean; code?: string; message?: string }[] = [];
      for (let i = 0; i < 12; i++) {
        const result = await service.sendPrompt(tab.tabId, prompt);
        outcomes.push(result.ok ? { ok: true } : { ok: false, code: result.error.code, message: result.error.message });
      }
      clearInterval(ticker);
      const accepted = outcomes.filter((o) => o.ok).length;
      // What the pipe and the stream hold, plus the bound: never all twelve.
      expect(accepted).toBeGreaterThan(0);
      expect(accepted * prompt.length).toBeLessThanOrEqual(MaxQueued + 2 * MiB);
      const refused = outcomes.find((o) => !o.ok);
      expect(refused).toMatchObject({ code: "cli_not_reading", message: expect.stringMatching(/Claude Code is not reading its input \(\d+ MB wait for it\)/) });
      expect(longestGap).toBeLessThan(2000);

      const after = await watch.waitFor("the tab to say the CLI was killed", () => (watch.transcript().status === "error" ? watch.transcript() : undefined));
      expect(noticesOf(after, "error").join("\n")).toMatch(new RegExp(`Claude Code stopped reading its input \\(\\d+ KB waited ${StallMs / 1000} s\\)\\. Baton killed it \\(SIGKILL\\)\\.`));
      expect(stillSpinning(after)).toEqual([]);
      expect(childrenRunning("notReadingClaude.mjs")).toEqual([]);
      expect(logs.some((e) => e.tabId === tab.tabId && e.level === "error" && e.message.includes("stopped reading its input"))).toBe(true);

      // The same tab goes on with a CLI that reads.
      fs.rmSync(flag);
      value(await service.sendPrompt(tab.tabId, "hello again"));
      await watch.idleWith("Working again, in a new CLI.");
    });
  });
});
