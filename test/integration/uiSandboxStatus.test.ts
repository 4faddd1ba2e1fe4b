// What holds preset agents' commands, in the browser (issue 31): with orchestration on, the
// toolbar says "OS sandbox" and a preset's allowed Bash says on its card what its sandbox lets it
// do; "policy check only", turned on in the Rules view, shows in the warning colour and is saved;
// where bubblewrap is not on the CLI's PATH the toolbar names what to install and a preset
// agent's Bash is refused with that reason.
import fs from "node:fs";
import path from "node:path";
import type { Locator } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import type { CliEnv } from "../support/cliEnv.js";
import { agentCall, bashCall, text } from "../support/scenarios/types.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiSandboxStatus: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

function orchestrationOn(env: CliEnv): string {
  const dir = path.join(env.home, ".config", "baton");
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const settings = path.join(dir, "settings.json");
  fs.writeFileSync(settings, JSON.stringify({ orchestration: true }), { mode: 0o600 });
  return settings;
}

const analystLooks = {
  main: [{ blocks: [agentCall("Look around", "[[ANALYST]] look", { subagent_type: "analyst", run_in_background: false })] }, { blocks: [text("Conductor done.")] }],
  ANALYST: [{ blocks: [bashCall("ls", "List the folder")] }, { blocks: [text("Analyst done.")] }],
};

/** Starts a session, has the analyst run `ls`, and returns that step's card inside the analyst's. */
async function analystsLs({ baton }: WebApp): Promise<Locator> {
  await baton.newSession();
  await baton.send("look around");
  await pw(baton.transcript).toContainText("Conductor done.", { timeout: 90_000 });
  const card = baton.subagentCard("analyst", "Look around");
  await card.getByRole("button", { name: /expand/i }).first().click();
  return baton.toolCards("Bash", card).filter({ hasText: "ls" }).first();
}

describe.skipIf(!hasChromium)("the OS sandbox in the toolbar and on the cards", () => {
  it("says the OS sandbox holds preset agents' commands, and shows policy check only in the warning colour once chosen", async () => {
    let settings = "";
    app = await startWebApp(analystLooks, { cwdName: "sandbox-status", withPolicy: true, prepare: async (env) => void (settings = orchestrationOn(env)) });
    const { baton, page } = app;
    const toolbar = page.getByRole("toolbar", { name: "Session controls" });
    await pw(toolbar.getByLabel("OS sandbox")).toContainText("OS sandbox");

    // A preset's allowed Bash ran in its sandbox, and its card says what that sandbox allows.
    const ls = await analystsLs(app);
    await ls.getByRole("button", { name: /allowed by/ }).click();
    await pw(ls.getByLabel("Policy message")).toContainText("runs in the OS sandbox: writes only its temporary folder; network: any host");

    // Policy check only: the person's choice, in the Rules view, saved, and in sight on the toolbar.
    await baton.openPanel("Rules");
    const rules = page.getByRole("region", { name: "Rules" });
    await rules.getByRole("checkbox", { name: "Policy check only" }).click();
    const warning = toolbar.getByRole("status", { name: "Policy check only" });
    await pw(warning).toContainText("Policy check only");
    // In the theme's warning colour (themes.css --warn-text), whichever theme is in force.
    const colours = await warning.evaluate((el) => {
      const probe = document.createElement("span");
      probe.style.color = "var(--warn-text)";
      document.body.append(probe);
      const warningText = getComputedStyle(probe).color;
      probe.remove();
      return { drawn: getComputedStyle(el).color, warningText, text: getComputedStyle(document.body).color };
    });
    expect(colours.drawn).toBe(colours.warningText);
    expect(colours.drawn).not.toBe(colours.text);
    await pw(baton.console).toContainText("policy check only is on");
    await expect.poll(() => (JSON.parse(fs.readFileSync(settings, "utf8")) as { policyCheckOnly?: boolean }).policyCheckOnly).toBe(true);
    await rules.getByRole("checkbox", { name: "Policy check only" }).click();
    await pw(toolbar.getByLabel("OS sandbox")).toContainText("OS sandbox");
    await pw(warning).toHaveCount(0);
    expect(app.pageErrors).toEqual([]);
  });

  it("names what to install where no sandbox can run, and refuses a preset agent's Bash with that reason", async () => {
    app = await startWebApp(analystLooks, {
      cwdName: "sandbox-missing",
      withPolicy: true,
      prepare: async (env) => {
        orchestrationOn(env);
        // The CLI's PATH without bubblewrap, socat or ripgrep: what a machine without them looks like.
        const bin = path.join(env.home, "bin-without-sandbox");
        fs.mkdirSync(bin);
        for (const program of ["bash", "sh", "git", "ls", "cat", "node"]) {
          const found = (process.env["PATH"] ?? "").split(":").map((dir) => path.join(dir, program)).find((file) => fs.existsSync(file));
          if (found !== undefined) fs.symlinkSync(found, path.join(bin, program));
        }
        env.env["PATH"] = bin;
      },
    });
    const { baton, page } = app;
    const toolbar = page.getByRole("toolbar", { name: "Session controls" });
    await pw(toolbar.getByRole("alert", { name: "No OS sandbox" })).toContainText("install bubblewrap, socat, ripgrep");
    await pw(baton.console).toContainText("No OS sandbox: install bubblewrap, socat and ripgrep");
    const ls = await analystsLs(app);
    await ls.getByRole("button", { name: /denied/ }).click();
    await pw(ls.getByLabel("Policy message")).toContainText("run only inside the OS sandbox, and none can run on this machine");
    expect(app.pageErrors).toEqual([]);
  });
});
