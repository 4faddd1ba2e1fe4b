// Faults survived: a CLI that prints noise. The real CLI behind a wrapper (noisyClaude.mjs) that
// prints non-JSON lines before it starts, chatters on stderr (hundreds of lines, one of 100 KB),
// and slips a line cut in half, a line over Baton's limit and a line that is not UTF-8 into the
// CLI's stream mid-turn. Each bad line is one Console entry with a short excerpt, stderr lines
// are bounded, and the session answers this turn and the next. A CLI that prints thousands of
// garbage lines gets the first hundred listed and one line saying the rest are not.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { text } from "../support/scenarios/types.js";
import { startFaultApp, value, type FaultApp } from "../support/faults/faultApp.js";
import { doubleCommand, writeWrapper } from "../support/faults/wrappers.js";

const MaxLineBytes = 1024 * 1024;

describe("faults: the CLI printing noise", () => {
  let app: FaultApp;

  beforeAll(async () => {
    app = await startFaultApp(
      { main: [{ blocks: [text("First answer, through the noise.")] }, { blocks: [text("Second answer, still fine.")] }] },
      {
        cwdName: "fault-noise",
        claudePath: (env) =>
          writeWrapper(env, "claude-noisy", `NOISY_REAL_CLAUDE="$CLAUDE" NOISY_HUGE_BYTES=${2 * MaxLineBytes} exec ${doubleCommand("noisyClaude.mjs")} "$@"`),
        manager: { clientDefaults: { stopTimeouts: { closeStdinMs: 3000, sigtermMs: 3000 }, maxLineBytes: MaxLineBytes } },
      },
    );
  });
  afterAll(() => app?.close());

  it("reports each malformed line once in the Console, keeps stderr bounded, and the session goes on", async () => {
    const { service, console: logs } = app;
    const { tab, watch } = await app.open();
    value(await service.sendPrompt(tab.tabId, "hello"));
    await watch.idleWith("First answer, through the noise.");
    value(await service.sendPrompt(tab.tabId, "and again"));
    const done = await watch.idleWith("Second answer, still fine.");
    expect(done.status).toBe("idle");

    const protocol = logs.filter((e) => e.tabId === tab.tabId && e.source === "protocol");
    const excerpts = protocol.map((e) => String(e.fields?.["excerpt"] ?? ""));
    expect(excerpts.some((x) => x.startsWith("Welcome! Checking for updates"))).toBe(true);
    expect(excerpts.some((x) => x.startsWith('{"type": "system", "broken'))).toBe(true);
    expect(excerpts.some((x) => x === '{"type":"assistant","message":{"role":"assistant')).toBe(true);
    expect(protocol.find((e) => /exceeds the \d+-byte limit/.test(e.message))?.fields?.["excerpt"]).toMatch(/^\{"type":"huge","pad":"h+$/);
    expect(protocol.some((e) => e.message === "line is not valid UTF-8")).toBe(true);
    // One entry per bad line (five), none repeated; each excerpt short.
    expect(protocol).toHaveLength(5);
    expect(new Set(protocol.map((e) => e.fields?.["lineNumber"])).size).toBe(5);
    for (const x of excerpts) expect(Buffer.byteLength(x)).toBeLessThanOrEqual(200);
    // Nothing else in the Console repeats them at a level it shows by default.
    expect(logs.filter((e) => e.tabId === tab.tabId && e.level !== "debug" && /unreadable line/.test(e.message))).toEqual([]);

    const stderr = logs.filter((e) => e.tabId === tab.tabId && e.source === "cli-stderr");
    expect(stderr.filter((e) => e.message.startsWith("chatter "))).toHaveLength(300);
    const long = stderr.find((e) => e.message.startsWith("zzz"));
    expect(long?.message.length).toBeLessThanOrEqual(8192);
    expect(app.manager.log.entries().length).toBeLessThanOrEqual(2000);
  });
});

describe("faults: the CLI printing garbage by the thousand", () => {
  let app: FaultApp;

  beforeAll(async () => {
    app = await startFaultApp(
      { main: [{ blocks: [text("Answered under the flood.")] }] },
      {
        cwdName: "fault-flood",
        claudePath: (env) =>
          writeWrapper(env, "claude-flood", 'i=0\nwhile [ $i -lt 3000 ]; do echo "noise line $i"; i=$((i+1)); done\nexec "$CLAUDE" "$@"'),
      },
    );
  });
  afterAll(() => app?.close());

  it("lists the first hundred, says the rest are not listed, and the session answers", async () => {
    const { service, console: logs } = app;
    const { tab, watch } = await app.open();
    value(await service.sendPrompt(tab.tabId, "hello"));
    await watch.idleWith("Answered under the flood.");
    const protocol = logs.filter((e) => e.tabId === tab.tabId && e.source === "protocol");
    expect(protocol).toHaveLength(101);
    expect(protocol[0]?.fields?.["excerpt"]).toBe("noise line 0");
    expect(protocol[99]?.fields?.["excerpt"]).toBe("noise line 99");
    expect(protocol[100]?.message).toBe("More than 100 unreadable lines from claude in this tab: the rest are not listed.");
  });
});
