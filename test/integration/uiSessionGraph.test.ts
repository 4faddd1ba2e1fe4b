// Browser test of the Session graph (issue 24): a 3-level session run by the real CLI, closed and
// reopened from history, shows every agent under its caller in the graph; a description with
// markup is drawn as text; clicking a node selects its card in the Transcript, Hierarchy and
// Inspector.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Locator } from "playwright-core";
import { agentCall, bashCall, text } from "../support/scenarios/types.js";
import { ScreenshotDir } from "../support/ui/batonPage.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, writeHistory, type WebApp } from "../support/ui/webApp.js";
import type { CliEnv } from "../support/cliEnv.js";

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
    await page.getByRole("tablist", { name: "Bottom panels" }).getByRole("tab", { name: "Graph" }).click();
    const graph = page.getByRole("region", { name: "Session graph" });
    await baton.send("nest three agents");
    await pw(agentNode(graph, "general-purpose", "Top agent")).toBeVisible({ timeout: 60_000 });
    await pw(baton.transcript).toContainText("Three levels finished.", { timeout: 90_000 });
    const liveDeepest = agentNode(graph, "general-purpose", "Deepest agent");
    await pw(liveDeepest).toHaveAttribute("data-status", "completed");
    const liveMiddleId = await agentNode(graph, "general-purpose", "Middle agent").getAttribute("data-node-id");
    expect(await liveDeepest.getAttribute("data-parent")).toBe(liveMiddleId);
    await baton.transcript.getByRole("button", { name: /^Close / }).click();
    await baton.openLeftTab("Project");
    await baton.project.getByRole("button", { name: "Refresh sessions" }).click();
    await baton.project.getByRole("button", { name: /^Open session / }).first().click();
    await pw(baton.subagentCard("general-purpose", "Top agent")).toHaveAttribute("data-status", "completed", { timeout: 20_000 });

    // The Graph tab stays open; give the bottom dock room (the splitter's keys, as a person would).
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
    await pw(baton.agentInHierarchy("general-purpose", "Deepest agent")).toHaveAttribute("aria-selected", "true");
    await pw(baton.inspector).toContainText("Deepest agent");
    await pw(baton.inspector).toContainText("[[SUB-C]] run echo");

    await page.locator(".dock-bottom").screenshot({ path: path.join(ScreenshotDir, "session-graph.png") });
    expect(app.pageErrors.filter((e) => !e.includes("favicon"))).toEqual([]);
  });

  it("lays out 400 restored agents in packed rows, and a worker chosen in the Hierarchy is brought into view", async () => {
    const sessionId = randomUUID();
    app = await startWebApp({}, { cwdName: "graph-400-ui", prepare: (env) => writeManyAgents(env, sessionId, 8, 49) });
    const { baton, page } = app;
    await baton.openLeftTab("Project");
    await baton.project.getByRole("button", { name: /^Open session / }).first().click();
    await pw(baton.subagentCard("coordinator", "Coordinator 7")).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
    await page.getByRole("tablist", { name: "Bottom panels" }).getByRole("tab", { name: "Graph" }).click();
    const graph = page.getByRole("region", { name: "Session graph" });
    // 8 coordinators from the main file, 392 workers from their sidechains, which the graph loads.
    await pw(graph.locator(".session-graph")).toHaveAttribute("data-nodes", "401", { timeout: 60_000 });
    console.log(`uiSessionGraph: 401 nodes laid out in ${await graph.locator(".session-graph").getAttribute("data-layout-ms")} ms in the page`);

    await baton.openLeftTab("Hierarchy");
    await baton.selectInHierarchy("worker", "Worker 7.48");
    const worker = agentNode(graph, "worker", "Worker 7.48");
    await pw(worker).toHaveAttribute("aria-current", "true", { timeout: 10_000 });
    await pw(worker).toBeVisible();
    // Its caller may be out of view (only nodes in view are mounted): its card names the same block.
    const coordinator = baton.subagentCard("coordinator", "Coordinator 7");
    expect(await worker.getAttribute("data-parent")).toBe(await coordinator.getAttribute("data-block-id"));
    await page.locator(".dock-bottom").screenshot({ path: "/tmp/session-graph-400.png" });
    expect(app.pageErrors.filter((e) => !e.includes("favicon"))).toEqual([]);
  });
});

/** A restored session on disk: `coordinators` agents, each of which started `workers` agents (in its sidechain). */
async function writeManyAgents(env: CliEnv, sessionId: string, coordinators: number, workers: number): Promise<void> {
  const main = lines(env, sessionId);
  main.user("fan out");
  const sidechains: { agentId: string; toolUseId: string; text: string }[] = [];
  for (let i = 0; i < coordinators; i++) {
    const agentId = `a${(0xc0de0000 + i).toString(16).padStart(16, "0")}`;
    const toolUseId = `toolu_coord_${i}`;
    const side = lines(env, sessionId, agentId);
    side.user(`coordinate part ${i}`);
    for (let j = 0; j < workers; j++) {
      side.agentCall(`toolu_work_${i}_${j}`, "worker", `Worker ${i}.${j}`, `a${(0xf00d0000 + i * 1000 + j).toString(16).padStart(16, "0")}`);
    }
    side.text(`Part ${i} done.`);
    sidechains.push({ agentId, toolUseId, text: side.jsonl() });
    main.agentCall(toolUseId, "coordinator", `Coordinator ${i}`, agentId);
  }
  main.text("All parts done.");
  const file = await writeHistory(env, sessionId, main.lines);
  const dir = path.join(path.dirname(file), sessionId, "subagents");
  fs.mkdirSync(dir, { recursive: true });
  for (const s of sidechains) {
    fs.writeFileSync(path.join(dir, `agent-${s.agentId}.jsonl`), s.text);
    fs.writeFileSync(path.join(dir, `agent-${s.agentId}.meta.json`), JSON.stringify({ agentType: "coordinator", description: "c", toolUseId: s.toolUseId, spawnDepth: 1 }));
  }
}

/** The CLI's JSONL lines of one transcript (the main one, or an agent's sidechain). */
function lines(env: CliEnv, sessionId: string, agentId?: string) {
  const out: object[] = [];
  let parent: string | null = null;
  let clock = Date.parse("2026-01-01T10:00:00Z");
  const add = (fields: object): string => {
    const uuid = randomUUID();
    clock += 1000;
    out.push({ parentUuid: parent, isSidechain: agentId !== undefined, ...(agentId !== undefined ? { agentId } : {}), ...fields, uuid, timestamp: new Date(clock).toISOString(), userType: "external", entrypoint: "sdk-cli", cwd: env.cwd, sessionId, version: "2.1.197", gitBranch: "main" });
    parent = uuid;
    return uuid;
  };
  const assistant = (block: object, stop: string): string =>
    add({ type: "assistant", message: { id: `msg_${randomUUID()}`, type: "message", role: "assistant", model: "claude-scripted", content: [block], stop_reason: stop, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } } });
  return {
    lines: out,
    jsonl: () => out.map((l) => JSON.stringify(l)).join("\n") + "\n",
    user: (text: string) => add({ type: "user", message: { role: "user", content: text } }),
    text: (text: string) => assistant({ type: "text", text }, "end_turn"),
    agentCall(id: string, type: string, description: string, calleeId: string): void {
      const source = assistant({ type: "tool_use", id, name: "Agent", input: { description, prompt: `do ${description}`, subagent_type: type } }, "tool_use");
      const summary = `${description} done.`;
      add({
        type: "user",
        message: { role: "user", content: [{ tool_use_id: id, type: "tool_result", content: [{ type: "text", text: summary }] }] },
        toolUseResult: { status: "completed", prompt: `do ${description}`, agentId: calleeId, agentType: type, content: [{ type: "text", text: summary }], totalDurationMs: 1000, totalTokens: 100, totalToolUseCount: 1 },
        sourceToolAssistantUUID: source,
      });
    },
  };
}

function agentNode(graph: Locator, type: string, description: string): Locator {
  return graph.getByLabel(`Agent ${type}: ${description}`, { exact: true });
}
