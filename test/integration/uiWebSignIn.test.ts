// Web mode's sign-in in real Chromium. After a tab signs in with the printed link, the same browser
// visits another local server (another port of 127.0.0.1): it receives Baton's cookie, as browsers
// send cookies to every port, but replaying everything it learned from a script, Origin forged,
// opens nothing. The signed-in tab keeps working (reload included), a decoy session cookie planted
// by a page on another port included; the link does not work twice;
// a tab without a link is told what to do; and `--port 80` (no port in Host) signs in too.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { LinkUsedMessage, NoLinkMessage } from "../../src/shared/webSignIn.js";
import { writePromptSession } from "../support/historyFiles.js";
import { text } from "../support/scenarios/types.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";
import { socketOutcome } from "../support/webSignIn.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiWebSignIn: /usr/bin/chromium not found, skipping browser tests");

const SessionId = "55555555-5555-4555-8555-555555555555";
const Prompt = "Tidy the release checklist";

let app: WebApp | undefined;
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
  await app?.close();
  app = undefined;
});

/** Another local server, as a dev server would be: it records every request's headers. */
async function startSpyServer(): Promise<{ port: number; requests: http.IncomingHttpHeaders[] }> {
  const requests: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.headers);
    res.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><title>dev server</title>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  stops.push(
    () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // The browser keeps its connection open; close() alone waits for it (a minute).
        server.closeAllConnections();
      }),
  );
  return { port: (server.address() as AddressInfo).port, requests };
}

async function startApp(port?: number): Promise<WebApp> {
  return startWebApp(
    { main: [{ blocks: [text("unused")] }] },
    {
      cwdName: "sign-in",
      ...(port !== undefined ? { port } : {}),
      prepare: async (env) => writePromptSession(env.projectsDir, SessionId, Prompt),
    },
  );
}

/** The Project panel lists the history session: the page's calls over the socket work. */
async function expectApiWorks(page: Page): Promise<void> {
  await page.getByRole("tab", { name: "Project", exact: true }).click();
  const project = page.getByRole("region", { name: "Project" });
  await pw(project.getByRole("button", { name: /^Open session / })).toContainText(Prompt, { timeout: 30_000 });
}

describe.skipIf(!hasChromium)("signing in to web mode in the browser", () => {
  it("another local server the signed-in browser visits learns nothing that opens the API", async () => {
    app = await startApp();
    const { web, browser } = app;
    await expectApiWorks(app.page);
    // The link left the address bar at once.
    expect(app.page.url()).toBe(`http://127.0.0.1:${web.port}/`);

    const spy = await startSpyServer();
    const visit = await browser.context.newPage();
    await visit.goto(`http://127.0.0.1:${spy.port}/`);
    await visit.close();
    // The premise: the browser handed Baton's cookie to a server on another port.
    const cookies = spy.requests.map((h) => h.cookie ?? "");
    expect(cookies.some((c) => c.includes(`baton_session_${web.port}=`))).toBe(true);

    // Replay all of it from a script with Baton's Origin forged: every socket is refused.
    const outcomes: (number | "open")[] = [];
    for (const headers of spy.requests) {
      const forged: Record<string, string> = {};
      for (const [key, value] of Object.entries(headers)) {
        if (typeof value === "string" && !["host", "connection", "upgrade"].includes(key) && !key.startsWith("sec-websocket-")) forged[key] = value;
      }
      forged["origin"] = `http://127.0.0.1:${web.port}`;
      outcomes.push(await socketOutcome(new WebSocket(`ws://127.0.0.1:${web.port}/ws`, { headers: forged })));
      outcomes.push(await socketOutcome(new WebSocket(`ws://127.0.0.1:${web.port}/ws`, ["baton.v1"], { headers: forged })));
    }
    expect(outcomes.length).toBeGreaterThan(0);
    expect(outcomes.every((o) => o === 401)).toBe(true);

    // The signed-in tab still works, after a reload too (its secret is kept per tab).
    await app.page.reload();
    await app.baton.waitReady();
    await expectApiWorks(app.page);
    expect(app.pageErrors).toEqual([]);
  });

  it("a page on another local port that plants a decoy session cookie (sent before the real one) locks no tab out", async () => {
    app = await startApp();
    const { web, browser } = app;
    await expectApiWorks(app.page);
    const planter = await startSpyServer();
    const visit = await browser.context.newPage();
    await visit.goto(`http://127.0.0.1:${planter.port}/`);
    // What any script there may do: cookies ignore ports, and a longer path is sent first.
    await visit.evaluate((name) => (document.cookie = `${name}=decoy; path=/ws`), `baton_session_${web.port}`);
    await visit.close();
    const sent = await browser.context.cookies(`http://127.0.0.1:${web.port}/ws`);
    expect(sent.filter((c) => c.name === `baton_session_${web.port}`).map((c) => c.path).sort()).toEqual(["/", "/ws"]);

    // The tab opens its socket again (a reload) with both cookies and keeps working.
    await app.page.reload();
    await app.baton.waitReady();
    await expectApiWorks(app.page);
    expect(app.pageErrors).toEqual([]);
  });

  it("the printed link works once: a second tab opening it is told so; a tab without a link is told what to do", async () => {
    app = await startApp();
    await expectApiWorks(app.page);
    const second = await app.browser.context.newPage();
    await second.goto(app.web.url);
    await pw(second.getByRole("alert")).toHaveText(LinkUsedMessage);
    expect(second.url()).toBe(`http://127.0.0.1:${app.web.port}/`);
    const bare = await app.browser.context.newPage();
    await bare.goto(`http://127.0.0.1:${app.web.port}/`);
    await pw(bare.getByRole("alert")).toHaveText(NoLinkMessage);
    // A new link (what `--new-link` prints) signs another tab in.
    const third = await app.browser.context.newPage();
    await third.goto(app.web.newLink());
    await expectApiWorks(third);
  });

  it("signs in on --port 80, where the browser sends Host without a port", async (context) => {
    try {
      app = await startApp(80);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EACCES" || code === "EADDRINUSE") {
        console.warn(`uiWebSignIn: cannot bind 127.0.0.1:80 here (${code}); skipping the port 80 test`);
        context.skip();
      }
      throw error;
    }
    expect(app.web.url).toMatch(/^http:\/\/127\.0\.0\.1\/#token=/);
    await expectApiWorks(app.page);
    expect(app.page.url()).toBe("http://127.0.0.1/");
    expect(app.pageErrors).toEqual([]);
  });
});
