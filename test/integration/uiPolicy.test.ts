// Orchestration mode and the person's rules in the browser (issue 22): the toolbar's toggle and
// the presets file's problem beside it (and in the Console), the Rules view (add with the syntax
// error shown in place, list, delete, restore the built-in presets after a confirm), and a
// permission prompt's "Always allow in this project", whose rule then shows in the Rules view; a
// rules.json and settings.json others can write are refused, said beside the toggle and elsewhere.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bashCall, text } from "../support/scenarios/types.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiPolicy: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe.skipIf(!hasChromium)("orchestration and rules in the browser", () => {
  it("toggles orchestration, shows and resets a broken presets file, adds and deletes a rule, and keeps a prompt's project rule", async () => {
    let configDir = "";
    app = await startWebApp(
      {
        main: [
          { blocks: [bashCall("git init -q", "Make it a repository")] },
          { blocks: [text("Repository made.")] },
          { blocks: [bashCall("rm -f notes.txt", "Remove the notes")] },
          { blocks: [text("Removal refused.")] },
        ],
      },
      {
        cwdName: "policy-ui",
        withPolicy: true,
        prepare: async (env) => {
          configDir = path.join(env.home, ".config", "baton");
          fs.mkdirSync(configDir, { recursive: true });
          fs.writeFileSync(path.join(configDir, "presets.json"), '{"version": 1, "presets": [{"name": "coder"}]}');
        },
      },
    );
    const { baton, page } = app;
    const toolbar = page.getByRole("toolbar", { name: "Session controls" });

    // The toggle: off by default, saved when turned on, said to apply to new sessions.
    const toggle = toolbar.getByRole("checkbox", { name: "Orchestration" });
    await pw(toolbar).toContainText("Orchestration off");
    const hint = await toolbar.locator(".orchestration label").getAttribute("title");
    expect(hint).toContain("started from now on");
    await toggle.click();
    await pw(toolbar).toContainText("Orchestration on");
    await expect.poll(() => (JSON.parse(fs.readFileSync(path.join(configDir, "settings.json"), "utf8")) as { orchestration?: boolean }).orchestration).toBe(true);

    // The broken presets file: beside the toggle, in the Console, and in the Rules view until restored.
    await pw(toolbar.getByRole("alert", { name: "Presets problem" })).toContainText("presets.json");
    await pw(baton.console).toContainText("the built-in presets are in force");
    await baton.openPanel("Rules");
    const rules = page.getByRole("region", { name: "Rules" });
    await pw(rules.getByRole("alert", { name: "Presets file problem" })).toContainText("presets.json");
    await pw(rules.getByRole("region", { name: "Presets" })).toContainText("coordinator");
    await rules.getByRole("button", { name: "Restore built-in presets" }).click();
    await rules.getByRole("group", { name: "Confirm restoring the built-in presets" }).getByRole("button", { name: "Restore" }).click();
    await pw(rules.getByRole("alert", { name: "Presets file problem" })).toHaveCount(0);
    await pw(toolbar.getByRole("alert", { name: "Presets problem" })).toHaveCount(0);
    await pw(rules.getByLabel("Presets source")).toContainText(path.join(configDir, "presets.json"));

    // A project rule needs a session tab: start one, then add a rule, with a typo first.
    await baton.newSession();
    const form = rules.getByRole("form", { name: "Add a rule" });
    await form.getByRole("textbox", { name: "Rule" }).fill("Bash(pnpm test:*");
    await form.getByRole("button", { name: "Add" }).click();
    await pw(form.getByRole("alert", { name: "Rule error" })).toContainText("unbalanced parentheses");
    await form.getByRole("textbox", { name: "Rule" }).fill("Bash(pnpm test:*)");
    await form.getByRole("button", { name: "Add" }).click();
    const added = rules.getByRole("listitem", { name: "Rule allow Bash(pnpm test:*)" });
    await pw(added).toContainText(`project ${fs.realpathSync(app.env.cwd)}`);
    await pw(added).toContainText("from the Rules view");
    await pw(form.getByRole("alert", { name: "Rule error" })).toHaveCount(0);
    await added.getByRole("button", { name: "Delete rule allow Bash(pnpm test:*)" }).click();
    await pw(added).toHaveCount(0);

    // A prompt offers the rule it would add; choosing it lists the rule, kept from the prompt.
    await baton.send("make a repository");
    const card = baton.toolCards("Bash").filter({ hasText: "git init -q" });
    const prompt = baton.permissionOn(card);
    await pw(prompt.getByLabel("Rule it will add")).toHaveText("Bash(git init:*)", { timeout: 30_000 });
    await prompt.getByRole("button", { name: "Always allow in this project" }).click();
    await pw(baton.transcript).toContainText("Repository made.", { timeout: 60_000 });
    const kept = rules.getByRole("listitem", { name: "Rule allow Bash(git init:*)" });
    await pw(kept).toContainText("from a permission prompt");
    await pw(kept).toContainText("project");

    // A deny rule of the person's refuses the call through the hook; the card's badge names the rule, the message on a click.
    await form.getByRole("combobox", { name: "Rule behavior" }).selectOption("deny");
    await form.getByRole("combobox", { name: "Rule scope" }).selectOption("everywhere");
    await form.getByRole("textbox", { name: "Rule" }).fill("Bash(rm:*)");
    await form.getByRole("button", { name: "Add" }).click();
    await pw(rules.getByRole("listitem", { name: "Rule deny Bash(rm:*)" })).toContainText("everywhere");
    await baton.send("remove the notes");
    await pw(baton.transcript).toContainText("Removal refused.", { timeout: 60_000 });
    const refused = baton.toolCards("Bash").filter({ hasText: "rm -f notes.txt" });
    const badge = refused.getByRole("button", { name: "denied by your rule deny Bash(rm:*)" });
    await pw(badge).toBeVisible();
    await badge.click();
    await pw(refused.getByLabel("Policy message")).toContainText("Denied by the person's rule deny Bash(rm:*) (everywhere)");
    expect(app.pageErrors).toEqual([]);
  });

  it("says beside the switch, in the Console and in the Rules view that a rules.json and settings.json others can write are not read", async () => {
    let configDir = "";
    app = await startWebApp(
      { main: [{ blocks: [text("unused")] }] },
      {
        cwdName: "policy-untrusted",
        withPolicy: true,
        prepare: async (env) => {
          configDir = path.join(env.home, ".config", "baton");
          fs.mkdirSync(configDir, { recursive: true });
          const rules = { version: 1, rules: [{ behavior: "deny", rule: "Bash(rm:*)", scope: "everywhere", origin: "file", createdAt: "2026-12-01T00:00:00.000Z" }] };
          fs.writeFileSync(path.join(configDir, "rules.json"), JSON.stringify(rules));
          fs.chmodSync(path.join(configDir, "rules.json"), 0o666);
          fs.writeFileSync(path.join(configDir, "settings.json"), JSON.stringify({ orchestration: true }));
          fs.chmodSync(path.join(configDir, "settings.json"), 0o664);
        },
      },
    );
    const { baton, page } = app;
    const rulesFile = path.join(configDir, "rules.json");
    const settingsFile = path.join(configDir, "settings.json");
    const toolbar = page.getByRole("toolbar", { name: "Session controls" });
    const rulesAlert = toolbar.getByRole("alert", { name: "Rules problem" });
    await pw(rulesAlert).toContainText(`${rulesFile} is writable by others (mode 0666)`);
    expect(await rulesAlert.getAttribute("title")).toBe(`${rulesFile} is writable by others (mode 0666): Baton does not read it (none of its rules are in force); run chmod 600 ${rulesFile}`);
    await pw(toolbar.getByRole("alert", { name: "Settings problem" })).toContainText(`${settingsFile} is writable by its group (mode 0664)`);
    // The saved "on" is not read: the switch is off.
    await pw(toolbar).toContainText("Orchestration off");
    await pw(toolbar.getByRole("alert", { name: "Presets problem" })).toHaveCount(0);
    await pw(baton.console).toContainText(`${rulesFile} is writable by others (mode 0666)`);
    await pw(baton.console).toContainText(`${settingsFile} is writable by its group (mode 0664)`);
    await baton.openPanel("Rules");
    const rules = page.getByRole("region", { name: "Rules" });
    await pw(rules.getByRole("alert", { name: "Rules file problem" })).toContainText("none of its rules are in force");
    await pw(rules.getByRole("listitem", { name: "Rule deny Bash(rm:*)" })).toHaveCount(0);
    expect(app.pageErrors).toEqual([]);
  });
});
