// "Rewind files to here" in Chromium through web mode, with the real CLI changing the files
// (issue 37): the action on a prompt opens a dialog that lists the files a rewind changes with
// their diffs, nothing changes until "Rewind", then the files are back and the transcript marks
// it; the mark outlives the tab (Baton's audit trail): the tab closed and the page reloaded, the
// session reopened from the Project panel shows it on the same prompt, and the rewind's notice. A CLI with checkpointing
// turned off: the dialog shows its reason and offers no rewind.
import fsp from "node:fs/promises";
import path from "node:path";
import type { Locator } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import type { ScriptBlock } from "../support/modelServer.js";
import { OriginalText } from "../support/scenarios/rewindTurns.js";
import { text } from "../support/scenarios/types.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiRewind: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});


async function rowTexts(diff: Locator, kind: "add" | "del"): Promise<string[]> {
  return diff.locator(`.dl.${kind} .tx`).allTextContents();
}

describe.skipIf(!hasChromium)("rewind files to a prompt", () => {
  it("shows each file's diff before anything changes, rewinds on confirm and marks the transcript, the mark there again once reopened from history", async () => {
    let cwd = "";
    const file = (name: string) => path.join(cwd, name);
    const tool = (name: string, input: Record<string, unknown>): ScriptBlock[] => [{ type: "tool_use", name, input }];
    app = await startWebApp(
      {
        main: [
          { blocks: [text("Nothing changed yet.")] },
          { blocks: () => tool("Read", { file_path: file("a.txt") }) },
          { blocks: () => tool("Edit", { file_path: file("a.txt"), old_string: "line two", new_string: "line 2 edited" }) },
          { blocks: () => tool("Write", { file_path: file("b.txt"), content: "a new file\n" }) },
          { blocks: [text("Changed two files.")] },
        ],
      },
      {
        cwdName: "rewind-ui",
        viewport: { width: 1400, height: 1000 },
        withAudit: true,
        prepare: async (env) => {
          cwd = env.cwd;
          await fsp.writeFile(file("a.txt"), OriginalText);
        },
      },
    );
    const { baton, page } = app;
    await baton.newSession();
    await page.getByRole("combobox", { name: "Permission mode" }).selectOption("acceptEdits");
    await baton.send("first");
    await pw(baton.transcript).toContainText("Nothing changed yet.", { timeout: 60_000 });
    await baton.send("second: change two files");
    await pw(baton.transcript).toContainText("Changed two files.", { timeout: 60_000 });
    expect(await fsp.readFile(file("a.txt"), "utf8")).toBe("line one\nline 2 edited\nline three\n");

    const second = baton.transcript.getByLabel("Prompt", { exact: true }).filter({ hasText: "second: change two files" });
    await second.getByRole("group", { name: "Prompt actions" }).getByRole("button", { name: "Rewind files to here" }).click();
    const dialog = page.getByRole("dialog", { name: "Rewind files to this prompt" });
    const files = dialog.getByRole("list", { name: "Files a rewind changes" }).getByRole("listitem");
    await pw(files).toHaveCount(2, { timeout: 30_000 });
    const edited = files.filter({ hasText: "a.txt" });
    await pw(edited.locator(".chip")).toHaveText("restored");
    const editedDiff = edited.getByLabel("What a rewind changes in a.txt");
    expect(await rowTexts(editedDiff, "del")).toEqual(["line 2 edited"]);
    expect(await rowTexts(editedDiff, "add")).toEqual(["line two"]);
    const created = files.filter({ hasText: "b.txt" });
    await pw(created.locator(".chip")).toHaveText("deleted");
    expect(await rowTexts(created.getByLabel("What a rewind changes in b.txt"), "del")).toEqual(["a new file"]);
    // Only the preview so far: nothing changed on disk.
    expect(await fsp.readFile(file("b.txt"), "utf8")).toBe("a new file\n");

    await dialog.getByRole("button", { name: "Rewind 2 files" }).click();
    await pw(dialog).not.toBeVisible({ timeout: 30_000 });
    expect(await fsp.readFile(file("a.txt"), "utf8")).toBe(OriginalText);
    await expect(fsp.access(file("b.txt"))).rejects.toThrow();
    await pw(second.getByRole("note")).toHaveText("Files rewound to here: 2 files", { timeout: 30_000 });
    await pw(baton.transcript).toContainText("Files rewound (2 files) to just before the prompt “second: change two files”.");

    // Asked again, the prompt has nothing left to rewind.
    await second.getByRole("button", { name: "Rewind files to here" }).click();
    await pw(dialog).toContainText("No file changed since this prompt", { timeout: 30_000 });
    await pw(dialog.getByRole("button", { name: /^Rewind/ })).toHaveCount(0);
    await dialog.getByRole("button", { name: "Close" }).click();
    await pw(dialog).not.toBeVisible();

    // The tab closed and the page reloaded: the session reopened from history marks the same prompt.
    await baton.sessionTabs.getByRole("button", { name: /^Close / }).click();
    await pw(second).toHaveCount(0, { timeout: 20_000 });
    await page.reload();
    await baton.waitReady();
    await baton.openPanel("Project");
    await baton.project.getByRole("button", { name: "Refresh sessions" }).click();
    const rows = baton.project.getByLabel("Sessions").getByRole("listitem");
    await pw(rows).toHaveCount(1, { timeout: 30_000 });
    await rows.nth(0).getByRole("button", { name: /^Open session / }).click();
    await pw(baton.sessionTabs.getByRole("tab", { selected: true })).toContainText("(history)", { timeout: 30_000 });
    await pw(baton.transcript).toContainText("Changed two files.", { timeout: 30_000 });
    const prompts = baton.transcript.getByLabel("Prompt", { exact: true });
    await pw(prompts.filter({ hasText: "second: change two files" }).getByRole("note")).toHaveText("Files rewound to here: 2 files");
    await pw(prompts.filter({ hasText: "first" }).getByRole("note")).toHaveCount(0);
    await pw(baton.transcript.getByRole("note").filter({ hasText: "Files rewound to here" })).toHaveCount(1);
    // And the notice that said when it happened, after the turn it came in.
    await pw(baton.transcript).toContainText("Files rewound (2 files) to just before the prompt “second: change two files”.");
    // A past session's prompts offer no rewind (its CLI is not running).
    await pw(baton.transcript.getByRole("button", { name: "Rewind files to here" })).toHaveCount(0);
    expect(app.pageErrors).toEqual([]);
  });

  it("shows the CLI's reason when it cannot rewind (checkpointing turned off) and offers no rewind", async () => {
    let cwd = "";
    app = await startWebApp(
      { main: [{ blocks: () => [{ type: "tool_use", name: "Write", input: { file_path: path.join(cwd, "c.txt"), content: "c\n" } }] }, { blocks: [text("Wrote c.")] }] },
      {
        cwdName: "rewind-ui-off",
        prepare: async (env) => {
          cwd = env.cwd;
          // Baton's own environment turns checkpointing off (docs/configuration.md): its CLIs inherit it.
          env.env["CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING"] = "0";
        },
      },
    );
    const { baton, page } = app;
    await baton.newSession();
    await page.getByRole("combobox", { name: "Permission mode" }).selectOption("acceptEdits");
    await baton.send("write c");
    await pw(baton.transcript).toContainText("Wrote c.", { timeout: 60_000 });
    await baton.transcript.getByRole("button", { name: "Rewind files to here" }).click();
    const dialog = page.getByRole("dialog", { name: "Rewind files to this prompt" });
    await pw(dialog.getByRole("alert")).toHaveText("Claude Code cannot rewind to this prompt: File rewinding is not enabled.", { timeout: 30_000 });
    await pw(dialog.getByRole("button", { name: /^Rewind/ })).toHaveCount(0);
    await page.keyboard.press("Escape");
    await pw(dialog).not.toBeVisible();
    expect(await fsp.readFile(path.join(cwd, "c.txt"), "utf8")).toBe("c\n");
    await pw(baton.transcript.getByRole("note").filter({ hasText: "Files rewound" })).toHaveCount(0);
  });
});
