// The XSS corpus (test/support/xssPayloads.ts) in every field a transcript can carry, opened in
// the web UI in Chromium: every card expanded and inspected, search results and the Console drawn.
// Nothing may run, load, open or navigate, no request may leave 127.0.0.1, and each payload must
// be on the page as text. A positive control proves the detectors would have seen it.
import fsp from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";
import { installProbe, startTrap, type Probe, type Trap } from "../support/ui/xssProbe.js";
import { Fields, fitsTitle, writeXssHistory, XssPlacer, type XssHistory } from "../support/xssHistory.js";
import { TestNetHosts, xssCorpus, type XssPayload } from "../support/xssPayloads.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiXssCorpus: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
let trap: Trap | undefined;
afterEach(async () => {
  await app?.close();
  await trap?.close();
  app = undefined;
  trap = undefined;
});

/** The longest run of printable ASCII in a payload (at most 24 characters): drawn as text, it is there verbatim. */
function literalOf(payload: XssPayload): string {
  const runs = payload.text.match(/[\x20-\x7e]+/g) ?? [];
  return runs.reduce((a, b) => (b.length > a.length ? b : a), "").slice(0, 24).trim();
}

/** Scrolls the conversation from the top to the end, opening and inspecting everything on the way. */
async function crawlTranscript(app: WebApp, probe: Probe): Promise<void> {
  const { baton, page } = app;
  // A long session opens on its newest blocks under a notice at the top; wait for the whole file.
  await expect
    .poll(
      () =>
        baton.conversation.evaluate((el) => {
          // The list mounts the rows in view: read its first row once the scroll there has drawn it.
          el.scrollTop = 0;
          const first = el.querySelector('.row[data-index="0"]');
          return first !== null && !first.textContent?.includes("are still loading");
        }),
      { timeout: 30_000, interval: 250 },
    )
    .toBe(true);
  await probe.frames();
  for (let step = 0; step < 500; step++) {
    while ((await probe.crawlOnce()) > 0) await probe.frames();
    // A card's sidechain loads when it is expanded: wait for its steps before moving on.
    await page.waitForFunction(() => !document.body.textContent?.includes("Loading steps…"), undefined, { timeout: 20_000 });
    const moved = await baton.conversation.evaluate((el) => {
      const before = el.scrollTop;
      el.scrollTop = Math.min(el.scrollTop + el.clientHeight * 0.7, el.scrollHeight);
      return el.scrollTop !== before;
    });
    await probe.frames();
    if (!moved && (await probe.crawlOnce()) === 0) return;
  }
  throw new Error("the transcript did not end after 500 scroll steps");
}

/** Waits until the conversation, scrolled to its end, shows `tag`. */
async function atTheEnd(app: WebApp, tag: string): Promise<void> {
  await expect
    .poll(
      () =>
        app.baton.conversation.evaluate((el) => {
          el.scrollTop = el.scrollHeight;
          return el.textContent ?? "";
        }),
      { timeout: 30_000, interval: 250 },
    )
    .toContain(tag);
}

/**
 * What a person would do to see everything: open both sessions from the Project panel, walk the
 * transcript, look at the Hierarchy, search, and start a live session (its log lines reach the
 * Console).
 */
async function walkEverything(app: WebApp, probe: Probe, history: XssHistory, mdTags: readonly string[], live: { dir: string; tag: string }): Promise<void> {
  const { baton, env } = app;
  const { mainTitleTag, otherTitleTag } = history;
  await app.store!.index(env.projectsDir);
  await baton.openLeftTab("Project");
  await baton.project.getByRole("button", { name: "Refresh sessions" }).click();
  const entry = (tag: string) => baton.project.getByRole("button", { name: /^Open session / }).filter({ hasText: tag });
  await pw(entry(mainTitleTag)).toHaveCount(1, { timeout: 20_000 });
  await pw(entry(otherTitleTag)).toHaveCount(1);
  await entry(mainTitleTag).click();
  // The restored tab opens on its newest blocks, then the whole file: the end is where the session's
  // last markdown is (the list mounts only the rows in view, so look at the end each time).
  await atTheEnd(app, mdTags.at(-2)!); // the last one is the other session's
  await crawlTranscript(app, probe);

  await baton.openLeftTab("Hierarchy");
  await pw(baton.hierarchy.getByRole("treeitem")).toHaveCount(4, { timeout: 10_000 }); // the conductor and three agents
  await baton.openLeftTab("Project");
  await entry(otherTitleTag).click();
  await pw(baton.conversation).toContainText(mdTags.at(-1)!, { timeout: 20_000 });

  await baton.project.getByRole("searchbox", { name: "Search history" }).fill("onerror");
  const hits = baton.project.getByRole("list", { name: "Search results" });
  await pw(hits.locator("mark").first()).toBeVisible({ timeout: 20_000 });
  // Opening a hit marks the word wherever its session shows it, in the payloads too: still inert text.
  await hits.getByRole("button").first().click();
  await pw(app.page.getByRole("search", { name: "Find in session" }).getByRole("status", { name: "Matches" })).toContainText(" of ", { timeout: 30_000 });
  await pw(baton.conversation.locator("mark.find-hit.current")).toBeVisible({ timeout: 30_000 });

  await baton.newSession(live.dir);
  await pw(baton.console).toContainText(live.tag, { timeout: 60_000 });
}

describe.skipIf(!hasChromium)("XSS corpus in the browser", () => {
  it("renders every payload in every field as inert text, with no request leaving 127.0.0.1", async () => {
    trap = await startTrap();
    const corpus = xssCorpus(trap.origin);
    expect(new Set(corpus.map((p) => p.text)).size).toBeGreaterThanOrEqual(60);
    const placer = new XssPlacer(corpus);
    let history: XssHistory | undefined;
    app = await startWebApp({}, { cwdName: "xss-corpus", withStore: true, prepare: async (env) => void (history = writeXssHistory(env.projectsDir, corpus, placer)) });
    const { page, env } = app;
    // The Console field: a live session started in a folder named after a payload.
    const consoleDir = path.join(env.home, "code", placer.take("cl", { fits: (t) => fitsTitle(t) && !t.includes("/") }));
    const consoleTag = placer.placements.at(-1)!.tag;
    await fsp.mkdir(consoleDir, { recursive: true });

    const shown = placer.placements.filter((p) => p.shown);
    const verbatimFields = new Set(Object.keys(Fields).filter((f) => !["md", "as", "pl", "sm"].includes(f)));
    const literals = new Map<string, string>();
    for (const p of shown) {
      const payload = corpus.find((c) => c.id === p.payloadId)!;
      if (verbatimFields.has(p.field)) literals.set(literalOf(payload), payload.id);
    }
    const probe = await installProbe(app.browser.context, page, [...shown.map((p) => p.tag), ...literals.keys()]);

    // A payload that broke the page would stop the walk: report that beside what the detectors saw.
    const mdTags = shown.filter((p) => p.field === "md").map((p) => p.tag);
    const walkError = await walkEverything(app, probe, history!, mdTags, { dir: consoleDir, tag: consoleTag }).then(
      () => "none",
      (error: unknown) => String(error).slice(0, 400),
    );
    const found = await probe.findings().catch((error: unknown) => ({ ran: [], notDrawn: [`(the page is gone: ${String(error).slice(0, 200)})`] }));
    const notDrawn = found.notDrawn.map((word) => {
      const placed = shown.find((p) => p.tag === word);
      return placed !== undefined ? `${word} (${Fields[placed.field]})` : `literal of ${literals.get(word)}: ${word}`;
    });
    // One comparison, so a failure lists every kind of finding at once.
    expect({
      ran: found.ran,
      trapHits: trap.hits,
      offMachineRequests: probe.leaks,
      offMachineSockets: probe.sockets,
      popups: probe.popups,
      navigationsAway: probe.navigations,
      dialogs: probe.dialogs,
      liveMarkup: probe.liveMarkup,
      cspViolations: probe.cspViolations,
      frames: page.frames().length,
      notDrawnAsText: notDrawn,
      walkError,
    }).toEqual({ walkError: "none", ran: [], trapHits: [], offMachineRequests: [], offMachineSockets: [], popups: [], navigationsAway: [], dialogs: [], liveMarkup: [], cspViolations: [], frames: 1, notDrawnAsText: [] });
    expect(new Set(shown.map((p) => p.field)).size).toBeGreaterThanOrEqual(40);

    // Positive control. In the app's page the CSP stops inline code, so a live payload shows as a
    // violation and as live markup; on a page without a CSP it runs, calls the trap and leaks.
    await page.evaluate((trapOrigin) => {
      const div = document.createElement("div");
      document.body.append(div);
      div.innerHTML = `<img src="${trapOrigin}/x" onerror="(top.__xss=top.__xss||[]).push('control')">`;
    }, trap.origin);
    await expect.poll(() => probe.cspViolations.length, { timeout: 10_000 }).toBeGreaterThan(0);
    await expect.poll(() => probe.liveMarkup.join("\n"), { timeout: 10_000 }).toContain("onerror");
    await page.goto(`${trap.origin}/control`);
    await page.evaluate(([trapOrigin, host]) => {
      const div = document.createElement("div");
      document.body.append(div);
      div.innerHTML = `<img src="x" onerror="(top.__xss=top.__xss||[]).push('control');fetch('${trapOrigin}/hit?control')"><img src="http://${host}/control.png">`;
    }, [trap.origin, TestNetHosts[1]] as const);
    await expect.poll(() => page.evaluate(() => (window as unknown as { __xss?: string[] }).__xss ?? []), { timeout: 10_000 }).toEqual(["control"]);
    await expect.poll(() => [...trap!.hits], { timeout: 10_000 }).toContain("/hit?control");
    await expect.poll(() => [...probe.leaks], { timeout: 10_000 }).toContain(`http://${TestNetHosts[1]}/control.png`);
    expect(probe.navigations).toEqual([`${trap.origin}/control`]);
  });
});
