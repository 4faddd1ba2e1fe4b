// Detectors for the XSS corpus test, on one Chromium page: every request the browser makes
// (anything not for 127.0.0.1 is aborted, so nothing leaves the machine, and recorded), pop-ups,
// navigations, dialogs, CSP violations (what the policy had to stop was live markup), and a
// MutationObserver that flags any element or attribute a payload could have made live, and
// ticks off expected words as they are drawn as text, however briefly a virtualised row lives.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { BrowserContext, Page } from "playwright-core";

/** A loopback HTTP server that records every request: a payload that ran would call it. */
export interface Trap {
  readonly origin: string;
  readonly hits: string[];
  close(): Promise<void>;
}

/** Serves `/control` (a page without a CSP, for the positive control) and records everything. */
export async function startTrap(): Promise<Trap> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    if (req.url === "/control") {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      res.end("<!doctype html><title>control</title><body><p>control page</p></body>");
      return;
    }
    hits.push(req.url ?? "");
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface PageFindings {
  /** Payload ids that ran (`window.__xss`). */
  readonly ran: readonly string[];
  /** Expected words never drawn as text. */
  readonly notDrawn: readonly string[];
}

export interface Probe {
  /** Requests for any host but 127.0.0.1 (aborted). */
  readonly leaks: string[];
  readonly sockets: string[];
  readonly popups: string[];
  /** Main-frame navigations to another origin than the app's. */
  readonly navigations: string[];
  readonly dialogs: string[];
  /** Live elements or attributes that a payload could have made (reported as they appear, so a navigation loses none). */
  readonly liveMarkup: string[];
  readonly cspViolations: string[];
  findings(): Promise<PageFindings>;
  /** Expands, opens and inspects what is mounted; resolves with how many things it did. */
  crawlOnce(): Promise<number>;
  /** Waits until the browser has drawn two more frames (React commits and the virtualiser measures). */
  frames(): Promise<void>;
}

export async function installProbe(context: BrowserContext, page: Page, expected: readonly string[]): Promise<Probe> {
  const appOrigin = new URL(page.url()).origin;
  const leaks: string[] = [];
  const sockets: string[] = [];
  const popups: string[] = [];
  const navigations: string[] = [];
  const dialogs: string[] = [];
  const liveMarkup: string[] = [];
  const cspViolations: string[] = [];
  await page.exposeFunction("__xssProbeReport", (kind: string, detail: string) => (kind === "csp" ? cspViolations : liveMarkup).push(detail));
  await context.route("**/*", async (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === "127.0.0.1") return route.fallback();
    leaks.push(url.href);
    return route.abort("blockedbyclient");
  });
  context.on("page", (p) => popups.push(p.url()));
  page.on("popup", (p) => popups.push(p.url()));
  page.on("websocket", (ws) => {
    if (new URL(ws.url()).hostname !== "127.0.0.1") sockets.push(ws.url());
  });
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame() && new URL(frame.url()).origin !== appOrigin) navigations.push(frame.url());
  });
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.evaluate(pageProbe, [...expected]);
  return {
    leaks,
    sockets,
    popups,
    navigations,
    dialogs,
    liveMarkup,
    cspViolations,
    findings: () =>
      page.evaluate(() => {
        const w = window as unknown as { __xss?: unknown[]; __probe: { finish(): Promise<Omit<PageFindings, "ran">> } };
        return w.__probe.finish().then((rest) => ({ ran: (w.__xss ?? []).map(String), ...rest }));
      }),
    crawlOnce: () => page.evaluate(() => (window as unknown as { __probe: { crawl(): Promise<number> } }).__probe.crawl()),
    frames: () => page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())))),
  };
}

/** Runs in the page: the observer, the CSP listener and the crawler, on `window.__probe`. */
function pageProbe(expected: string[]): void {
  const pending = new Set(expected);
  const report = (window as unknown as { __xssProbeReport: (kind: "live" | "csp", detail: string) => Promise<void> }).__xssProbeReport;
  const inflight: Promise<void>[] = [];
  const live = (detail: string) => void inflight.push(report("live", detail));
  // What a payload could make live. The window itself draws none of these in its body (its own
  // forms have no action: that attribute is checked below).
  const forbidden = new Set(["script", "iframe", "frame", "frameset", "object", "embed", "base", "meta", "link", "style", "video", "audio", "source", "math", "svg", "use", "animate", "foreignobject", "noscript", "template", "xmp", "marquee", "isindex", "applet", "portal"]);
  const urlAttributes = new Set(["src", "srcset", "srcdoc", "action", "formaction", "data", "poster", "background", "ping", "xlink:href", "lowsrc", "dynsrc"]);
  const describe = (el: Element) => el.outerHTML.slice(0, 160);
  const checkElement = (el: Element): void => {
    if (forbidden.has(el.localName.toLowerCase())) live(`element: ${describe(el)}`);
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      if (name.startsWith("on")) live(`handler ${name}: ${describe(el)}`);
      else if (name === "href" && !(el.localName === "a" && /^(https?:|mailto:)/i.test(attr.value))) live(`href: ${describe(el)}`);
      // Pasted images are drawn from their own data: URL.
      else if (urlAttributes.has(name) && !(el.localName === "img" && name === "src" && attr.value.startsWith("data:"))) live(`${name}: ${describe(el)}`);
    }
  };
  const scan = (root: Element): void => {
    checkElement(root);
    for (const el of Array.from(root.querySelectorAll("*"))) checkElement(el);
  };
  const see = (text: string | null | undefined): void => {
    if (text === null || text === undefined || text === "") return;
    for (const word of pending) if (text.includes(word)) pending.delete(word);
  };
  document.addEventListener("securitypolicyviolation", (e) => void inflight.push(report("csp", `${e.violatedDirective} blocked ${e.blockedURI} ${e.sample}`)));
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === "attributes") {
        if (r.target instanceof Element) checkElement(r.target);
        continue;
      }
      if (r.type === "characterData") {
        see(r.target.parentElement?.textContent);
        continue;
      }
      for (const node of Array.from(r.addedNodes)) {
        if (node instanceof Element) {
          scan(node);
          see(node.textContent);
        } else if (node.nodeType === Node.TEXT_NODE) see(node.parentElement?.textContent ?? node.textContent);
      }
    }
  }).observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
  // What is drawn already (the session list loads with the window).
  scan(document.body);
  see(document.body.textContent);

  const frame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));
  const inspected = new Set<string>();
  const crawl = async (): Promise<number> => {
    let acted = 0;
    const toOpen = document.querySelectorAll<HTMLButtonElement>(
      "button.group-head[aria-expanded='false'], article.card > header > button.expander[aria-expanded='false'], .nested > .note > button.link-btn",
    );
    for (const button of Array.from(toOpen)) {
      button.click();
      acted++;
      await frame();
    }
    for (const details of Array.from(document.querySelectorAll("details:not([open])"))) {
      (details as HTMLDetailsElement).open = true;
      acted++;
    }
    // Each card once in the Inspector: its body, input and result drawn a second time.
    for (const card of Array.from(document.querySelectorAll<HTMLElement>("article.card[data-block-id]"))) {
      const id = card.dataset["blockId"] ?? "";
      if (inspected.has(id)) continue;
      inspected.add(id);
      card.querySelector<HTMLButtonElement>(":scope > header button.title-btn")?.click();
      acted++;
      await frame();
      for (const details of Array.from(document.querySelectorAll("[aria-label='Inspector'] details:not([open])"))) (details as HTMLDetailsElement).open = true;
      await frame();
    }
    return acted;
  };
  const finish = async () => {
    scan(document.body);
    see(document.body.textContent);
    await Promise.all(inflight); // every report has reached the test
    return { notDrawn: [...pending] };
  };
  (window as unknown as { __probe: object }).__probe = { crawl, finish };
}
