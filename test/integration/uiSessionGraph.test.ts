// Browser test of the Session graph (issue 24): a 3-level session run by the real CLI, closed and
// reopened from history, shows every agent under its caller in the graph; a description with
// markup is drawn as text; clicking a node selects its card in the Transcript, Hierarchy and
// Inspector.
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Locator } from "playwright-core";
import { agentCall, bashCall, text } from "../support/scenarios/types.js";
import { ScreenshotDir } from "../support/ui/batonPage.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiSessionGraph: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const Side = `<b>Side</b> <img src=x onerror="window.__graphXss=1"> agent`;
const Foreground = { run_in_background: false };

describe.skipIf(!hasChromium)("session graph in the browser", () => {
  it("shows a restored 3-level session with every agent under its caller; a click selects the card", async () => {
    app = await startWebApp(
      {
        // Foreground calls: "Three levels finished." means every agent is done before the tab closes.
        main: [
          { blocks: [agentCall("Top agent", "[[SUB-A]] delegate twice", Foreground), agentCall(Side, "[[SUB-D]] answer at once", Foreground)] },
          { blocks: [text("Three levels finished.")] },
        ],
        "SUB-A": [{ blocks: [agentCall("Middle agent", "[[SUB-B]] delegate once more", Foreground)] }, { blocks: [text("Middle agent reported back.")] }],
        "SUB-B": [{ blocks: [text("Handing the work on."), agentCall("Deepest agent", "[[SUB-C]] run echo", Foreground)] }, { blocks: [text("Deepest agent reported back.")] }],
        "SUB-C": [{ blocks: [bashCall("echo from-depth-three", "Echo from the deepest agent")] }, { blocks: [text("Depth three done.")] }],
        "SUB-D": [{ blocks: [text("Side done.")] }],
      },
      { cwdName: "graph-ui", viewport: { width: 1440, height: 900 } },
    );
    const { baton, page } = app;
    await baton.newSession();
    await baton.send("nest three agents");
    await pw(baton.transcript).toContainText("Three levels finished.", { timeout: 90_000 });
    await baton.transcript.getByRole("button", { name: /^Close / }).click();
    await baton.openLeftTab("Project");
    await baton.project.getByRole("button", { name: "Refresh sessions" }).click();
    await baton.project.getByRole("button", { name: /^Open session / }).first().click();
    await pw(baton.subagentCard("general-purpose", "Top agent")).toHaveAttribute("data-status", "completed", { timeout: 20_000 });

    // Open the Graph tab; give the bottom dock room (the splitter's keys, as a person would).
    await page.getByRole("tablist", { name: "Bottom panels" }).getByRole("tab", { name: "Graph" }).click();
    const graph = page.getByRole("region", { name: "Session graph" });
    await pw(graph).toBeVisible();
    const splitter = page.getByRole("separator", { name: "Resize Console" });
    await splitter.focus();
    for (let i = 0; i < 12; i++) await splitter.press("ArrowUp");

    const conductor = graph.getByLabel("Conductor", { exact: true });
    const top = agentNode(graph, "general-purpose", "Top agent");
    const middle = agentNode(graph, "general-purpose", "Middle agent");
    const deepest = agentNode(graph, "general-purpose", "Deepest agent");
    const side = agentNode(graph, "general-purpose", Side);
    // The nested agents come from their callers' sidechains, loaded by the graph itself.
    await pw(deepest).toBeVisible({ timeout: 30_000 });
    await pw(conductor).toHaveAttribute("data-status", "idle");
    for (const n of [top, middle, deepest, side]) await pw(n).toHaveAttribute("data-status", "completed");

    // Every agent under its caller: the parent relation, the drawn edge, and the vertical order.
    const idOf = async (n: Locator) => (await n.getAttribute("data-node-id"))!;
    const [conductorId, topId, middleId, deepestId, sideId] = await Promise.all([conductor, top, middle, deepest, side].map(idOf));
    expect(await top.getAttribute("data-parent")).toBe(conductorId);
    expect(await side.getAttribute("data-parent")).toBe(conductorId);
    expect(await middle.getAttribute("data-parent")).toBe(topId);
    expect(await deepest.getAttribute("data-parent")).toBe(middleId);
    await pw(graph.locator(".react-flow__edge")).toHaveCount(4);
    for (const [from, to] of [[conductorId, topId], [conductorId, sideId], [topId, middleId], [middleId, deepestId]]) {
      await pw(graph.locator(`.react-flow__edge[data-id="${from}>${to}"]`)).toHaveCount(1);
    }
    const y = async (n: Locator) => (await n.boundingBox())!.y;
    expect(await y(conductor)).toBeLessThan(await y(top));
    expect(await y(top)).toBeLessThan(await y(middle));
    expect(await y(middle)).toBeLessThan(await y(deepest));
    expect(await y(side)).toBe(await y(top));

    // The description with markup is text: no element came out of it, nothing ran.
    await pw(side).toContainText("<b>Side</b>");
    await pw(graph.locator("b, img")).toHaveCount(0);
    expect(await page.evaluate(() => (window as { __graphXss?: number }).__graphXss)).toBeUndefined();

    // A click selects the agent everywhere: its card in the Transcript (opened and scrolled to), the Hierarchy, the Inspector.
    await baton.openLeftTab("Hierarchy");
    await deepest.click();
    await pw(deepest).toHaveAttribute("aria-current", "true");
    const card = baton.subagentCard("general-purpose", "Deepest agent");
    await pw(card).toHaveAttribute("data-selected", "true");
    await pw(card).toBeVisible();
    await pw(baton.hierarchy.getByRole("treeitem", { name: "general-purpose: Deepest agent" })).toHaveAttribute("aria-selected", "true");
    await pw(baton.inspector).toContainText("Deepest agent");
    await pw(baton.inspector).toContainText("[[SUB-C]] run echo");

    await page.locator(".dock-bottom").screenshot({ path: path.join(ScreenshotDir, "session-graph.png") });
    expect(app.pageErrors.filter((e) => !e.includes("favicon"))).toEqual([]);
  });
});

function agentNode(graph: Locator, type: string, description: string): Locator {
  return graph.getByLabel(`Agent ${type}: ${description}`, { exact: true });
}
