// Browser test of the Session graph (issue 24): a 3-level session run by the real CLI, closed and
// reopened from history, shows every agent under its caller in the graph; a description with
// markup is drawn as text; clicking a node selects its card in the Transcript, Hierarchy and
// Inspector.
import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Locator } from "playwright-core";
import { agentCall, bashCall, text } from "../support/scenarios/types.js";
import { ScreenshotDir } from "../support/ui/batonPage.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";
import { writeAgentSession, type AgentSpec } from "../support/ui/agentHistory.js";

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
    // Live: the graph follows the session as its agents start and end.
    await baton.openPanel("Graph");
    const graph = page.getByRole("region", { name: "Session graph" });
    await baton.send("nest three agents");
    await pw(agentNode(graph, "general-purpose", "Top agent")).toBeVisible({ timeout: 60_000 });
    await pw(baton.transcript).toContainText("Three levels finished.", { timeout: 90_000 });
    const liveDeepest = agentNode(graph, "general-purpose", "Deepest agent");
    await pw(liveDeepest).toHaveAttribute("data-status", "completed");
    const liveMiddleId = await agentNode(graph, "general-purpose", "Middle agent").getAttribute("data-node-id");
    expect(await liveDeepest.getAttribute("data-parent")).toBe(liveMiddleId);
    await baton.sessionTabs.getByRole("button", { name: /^Close / }).click();
    await baton.openLeftTab("Project");
    await baton.project.getByRole("button", { name: "Refresh sessions" }).click();
    await baton.project.getByRole("button", { name: /^Open session / }).first().click();
    await pw(baton.subagentCard("general-purpose", "Top agent")).toHaveAttribute("data-status", "completed", { timeout: 20_000 });

    // The Graph tab stays open; give the bottom dock room (the splitter's keys, as a person would).
    await pw(graph).toBeVisible();
    const splitter = page.getByRole("separator", { name: "Resize Graph" });
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
    await pw(baton.agentInHierarchy("general-purpose", "Deepest agent")).toHaveAttribute("aria-selected", "true");
    await pw(baton.inspector).toContainText("Deepest agent");
    await pw(baton.inspector).toContainText("[[SUB-C]] run echo");

    await graph.screenshot({ path: path.join(ScreenshotDir, "session-graph.png") });
    expect(app.pageErrors.filter((e) => !e.includes("favicon"))).toEqual([]);
  });

  it("lays out 400 restored agents in packed rows, and a worker chosen in the Hierarchy is brought into view", async () => {
    const sessionId = randomUUID();
    app = await startWebApp({}, { cwdName: "graph-400-ui", prepare: (env) => writeAgentSession(env, sessionId, manyAgents(8, 49)).then(() => undefined) });
    const { baton, page } = app;
    await baton.openLeftTab("Project");
    await baton.project.getByRole("button", { name: /^Open session / }).first().click();
    await pw(baton.subagentCard("coordinator", "Coordinator 7")).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
    await baton.openPanel("Graph");
    const graph = page.getByRole("region", { name: "Session graph" });
    // 8 coordinators from the main file, 392 workers from their sidechains, which the graph loads.
    await pw(graph.locator(".session-graph")).toHaveAttribute("data-nodes", "401", { timeout: 60_000 });
    console.log(`uiSessionGraph: 401 nodes laid out in ${await graph.locator(".session-graph").getAttribute("data-layout-ms")} ms in the page`);

    // It opens readable: no node text under 11 px on screen however many agents, the rest a scroll
    // away (the wheel pans, the zoom stays); the minimap has a strip of its own and covers no node.
    await expect.poll(() => smallestNodeTextPx(graph)).toBeGreaterThanOrEqual(11);
    const minimap = graph.getByRole("img", { name: "Minimap of the session graph" });
    await pw(minimap).toBeVisible();
    expect(await nodesUnder(graph, minimap)).toEqual([]);
    const flow = (await graph.locator(".sg-flow").boundingBox())!;
    const before = await viewportOf(graph);
    await page.mouse.move(flow.x + flow.width / 2, flow.y + flow.height / 2);
    await page.mouse.wheel(0, 300);
    await expect.poll(async () => (await viewportOf(graph)).y).toBeLessThan(before.y);
    expect((await viewportOf(graph)).zoom).toBe(before.zoom);
    expect(await nodesUnder(graph, minimap)).toEqual([]);

    // Maximised into the window and back; the view fits its new size and stays readable.
    const docked = (await graph.boundingBox())!;
    await graph.getByRole("button", { name: "Maximise graph" }).click();
    await expect.poll(async () => (await graph.boundingBox())!.height).toBeGreaterThan(docked.height * 1.5);
    await expect.poll(() => smallestNodeTextPx(graph)).toBeGreaterThanOrEqual(11);
    expect(await nodesUnder(graph, minimap)).toEqual([]);
    await baton.screenshot("session-graph-maximised");
    await graph.getByRole("button", { name: "Maximise graph" }).click();
    await expect.poll(async () => Math.round((await graph.boundingBox())!.height)).toBe(Math.round(docked.height));

    await baton.openLeftTab("Hierarchy");
    await baton.selectInHierarchy("worker", "Worker 7.48");
    const worker = agentNode(graph, "worker", "Worker 7.48");
    await pw(worker).toHaveAttribute("aria-current", "true", { timeout: 10_000 });
    await pw(worker).toBeVisible();
    // Its caller may be out of view (only nodes in view are mounted): its card names the same block.
    const coordinator = baton.subagentCard("coordinator", "Coordinator 7");
    expect(await worker.getAttribute("data-parent")).toBe(await coordinator.getAttribute("data-block-id"));
    await graph.screenshot({ path: "/tmp/session-graph-400.png" });
    expect(app.pageErrors.filter((e) => !e.includes("favicon"))).toEqual([]);
  });
});

/** `coordinators` agents, each of which started `workers` agents (in its sidechain). */
function manyAgents(coordinators: number, workers: number): AgentSpec[] {
  return Array.from({ length: coordinators }, (_, i) => ({
    type: "coordinator",
    description: `Coordinator ${i}`,
    agents: Array.from({ length: workers }, (_, j) => ({ type: "worker", description: `Worker ${i}.${j}` })),
  }));
}

/** The smallest text on a drawn node, in screen pixels: its font size times the view's zoom. */
function smallestNodeTextPx(graph: Locator): Promise<number> {
  return graph.evaluate((root) => {
    const viewport = root.querySelector(".react-flow__viewport");
    if (viewport === null) return 0;
    const zoom = new DOMMatrixReadOnly(getComputedStyle(viewport).transform).a;
    let smallest = Infinity;
    for (const el of root.querySelectorAll(".react-flow__node *")) {
      const hasText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? "").trim() !== "");
      if (hasText) smallest = Math.min(smallest, parseFloat(getComputedStyle(el).fontSize) * zoom);
    }
    // No text drawn at all is not readable either.
    return smallest === Infinity ? 0 : smallest;
  });
}

/** The view's pan and zoom, from the transform React Flow draws it with. */
function viewportOf(graph: Locator): Promise<{ x: number; y: number; zoom: number }> {
  return graph.locator(".react-flow__viewport").evaluate((viewport) => {
    const m = new DOMMatrixReadOnly(getComputedStyle(viewport).transform);
    return { x: m.e, y: m.f, zoom: m.a };
  });
}

/** The nodes whose visible part (inside the flow's pane) the minimap covers. */
async function nodesUnder(graph: Locator, minimap: Locator): Promise<string[]> {
  return minimap.evaluate((map, root) => {
    const m = map.getBoundingClientRect();
    const pane = root!.querySelector(".react-flow")!.getBoundingClientRect();
    const covered: string[] = [];
    for (const node of root!.querySelectorAll<HTMLElement>(".react-flow__node")) {
      const r = node.getBoundingClientRect();
      const left = Math.max(r.left, pane.left, m.left);
      const right = Math.min(r.right, pane.right, m.right);
      const top = Math.max(r.top, pane.top, m.top);
      const bottom = Math.min(r.bottom, pane.bottom, m.bottom);
      if (left < right && top < bottom) covered.push(node.dataset["id"] ?? "?");
    }
    return covered;
  }, await graph.elementHandle());
}

function agentNode(graph: Locator, type: string, description: string): Locator {
  return graph.getByLabel(`Agent ${type}: ${description}`, { exact: true });
}
