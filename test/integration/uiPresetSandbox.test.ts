// The Rules view lists, per preset, what it may run and what is refused for it and why (issue 31):
// its commands, the npm commands its pnpm patterns give it, the refused list and npm's own rules
// with their reasons, where it writes and which hosts it reaches; a person's presets file gets the
// same npm twins as the built-ins.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { builtinPresetSet } from "../../src/main/policy/presets/builtinPresets.js";
import { NpmInstallReason, NpxReason } from "../../src/main/policy/presets/npmCommands.js";
import { presetsFileText } from "../../src/main/policy/presets/presetsFile.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiPresetSandbox: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe.skipIf(!hasChromium)("each preset's sandbox in the Rules view", () => {
  it("shows each preset's commands, npm twins, refusals with their reasons, writes and network, a presets file's preset too", async () => {
    let presetsFile = "";
    app = await startWebApp(
      { main: [] },
      {
        cwdName: "preset-sandbox-ui",
        withPolicy: true,
        prepare: async (env) => {
          // The person's file: the built-ins and a preset of their own whose pnpm exec gets npx.
          const builtIns = builtinPresetSet();
          const coder = builtIns.presets.find((p) => p.name === "coder")!;
          const tester = { ...coder, name: "tester", description: "Runs the project's jest.", exec: ["pnpm exec jest", "pnpm build"], network: ["registry.npmjs.org"] };
          presetsFile = path.join(env.home, ".config", "baton", "presets.json");
          fs.mkdirSync(path.dirname(presetsFile), { recursive: true, mode: 0o700 });
          fs.writeFileSync(presetsFile, presetsFileText({ presets: [...builtIns.presets, tester], refused: builtIns.refused }), { mode: 0o600 });
        },
      },
    );
    const { page } = app;
    await app.baton.openPanel("Rules");
    const presets = page.getByRole("region", { name: "Rules" }).getByRole("region", { name: "Presets" });
    await pw(presets.getByLabel("Presets source")).toContainText(presetsFile);
    const preset = async (name: string) => {
      const item = presets.getByRole("listitem", { name: `Preset ${name}`, exact: true });
      await item.locator("summary").click();
      await pw(item.getByLabel("Writes")).toBeVisible();
      return item;
    };

    const coder = await preset("coder");
    await pw(coder.getByLabel("Commands")).toContainText("pnpm run test|lint|format");
    await pw(coder.getByLabel("npm")).toHaveText("npm testnpm run test|lint|format");
    const refused = coder.getByRole("list", { name: "Refused" });
    await pw(refused.getByRole("listitem")).toHaveCount(4);
    await pw(refused.getByRole("listitem").nth(0)).toContainText(`npm install|ci|install-test|install-ci-test|update|uninstall|link|rebuild|dedupe|prune|init|… ${NpmInstallReason}`);
    expect(await refused.getByRole("listitem").nth(0).locator("code").getAttribute("title")).toMatch(/^npm install\|ci\|.*\|innit$/);
    await pw(refused).toContainText(`npx or npm exec of a package the project does not have ${NpxReason}`);
    await pw(refused).toContainText("npm --prefix, -g, --workspace");
    await pw(coder.getByLabel("Writes")).toHaveText("inside the session's folder or its worktree");
    await pw(coder.getByLabel("Network")).toHaveText("none");

    const scout = await preset("scout");
    await pw(scout.getByLabel("npm")).toContainText("none: its commands have no pnpm test, run or exec");
    await pw(scout.getByLabel("Writes")).toHaveText("nothing");
    await pw(scout.getByRole("list", { name: "Refused" })).toContainText(NpmInstallReason);

    const worker = await preset("worker");
    await pw(worker.getByLabel("npm")).toHaveText("npm runnpm test");
    await pw(worker.getByLabel("Network")).toContainText("registry.npmjs.org, registry.yarnpkg.com, pypi.org");
    await pw((await preset("coordinator")).getByLabel("Network")).toHaveText("any host");

    const tester = await preset("tester");
    await pw(tester.getByLabel("npm")).toHaveText("npm exec jest (already in node_modules/.bin)npx jest (already in node_modules/.bin)npm run build");
    await pw(tester.getByLabel("Network")).toHaveText("registry.npmjs.org");
    expect(app.pageErrors).toEqual([]);
  });
});
