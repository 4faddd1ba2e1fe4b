// Every change as a diff (issue 34), in Chromium through web mode, with the real CLI writing the
// files: a Write over an existing file and an appending Edit show their minimal diffs (only the
// changed lines marked, numbered as the file is), also while the Edit waits for permission; a
// refused edit shows the CLI's message without its <tool_use_error> tags; the Changes view lists
// every changed file, the main agent's and two levels of subagents' (whose results carry no patch,
// so their diffs are computed), and again for the session reopened from history, whose
// subagents' steps it reads from disk. An entry selects its tool call in the transcript.
import fsp from "node:fs/promises";
import path from "node:path";
import type { Locator } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import type { ScriptBlock } from "../support/modelServer.js";
import { agentCall, text } from "../support/scenarios/types.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiDiffs: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const numbered = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}`);
const fileText = (lines: readonly string[]): string => lines.map((l) => `${l}\n`).join("");

/** notes.txt before: 40 lines. The Write changes line 20 and puts two lines after line 30. */
const Before = numbered(1, 40);
const Written = [...numbered(1, 19), "line twenty", ...numbered(21, 30), "inserted a", "inserted b", ...numbered(31, 40)];
/** The Edit appends ten lines after the last one. */
const Appended = numbered(43, 52).map((l) => `appended ${l}`);

/** The rows of a diff as `<old> <new> <marker><text>`, "." where a side has no number. */
async function rows(diff: Locator, kind: "add" | "del" | "ctx"): Promise<string[]> {
  return diff.locator(`.dl.${kind}`).evaluateAll((els) =>
    els.map((el) => {
      const d = el as HTMLElement;
      return `${d.dataset["oldLine"] ?? "."} ${d.dataset["newLine"] ?? "."} ${d.querySelector(".tx")?.textContent ?? ""}`;
    }),
  );
}

describe.skipIf(!hasChromium)("every change as a diff", () => {
  it("shows minimal diffs for a Write over a file and an appending Edit, an error without tags, and every changed file in the Changes view", async () => {
    let cwd = "";
    const file = (name: string) => path.join(cwd, name);
    const tool = (name: string, input: (f: typeof file) => Record<string, unknown>): ScriptBlock[] => [{ type: "tool_use", name, input: input(file) }];
    app = await startWebApp(
      {
        main: [
          { blocks: () => tool("Read", (f) => ({ file_path: f("notes.txt") })) },
          { blocks: () => tool("Write", (f) => ({ file_path: f("notes.txt"), content: fileText(Written) })) },
          { blocks: () => tool("Edit", (f) => ({ file_path: f("notes.txt"), old_string: "line 40\n", new_string: `line 40\n${fileText(Appended)}` })) },
          { blocks: () => tool("Edit", (f) => ({ file_path: f("notes.txt"), old_string: "no such text", new_string: "x" })) },
          { blocks: [text("Edited the notes.")] },
          { blocks: [agentCall("Sub edits", "[[SUB-A]] write and extend a file")] },
          { blocks: [text("Delegated.")] },
        ],
        "SUB-A": [
          { blocks: () => tool("Write", (f) => ({ file_path: f("sub.txt"), content: "alpha\nbeta\n" })) },
          { blocks: () => tool("Edit", (f) => ({ file_path: f("sub.txt"), old_string: "beta\n", new_string: "beta\ngamma\ndelta\n" })) },
          { blocks: [agentCall("Inner edits", "[[SUB-B]] write one more file")] },
          { blocks: [text("Sub edits done.")] },
        ],
        "SUB-B": [{ blocks: () => tool("Write", (f) => ({ file_path: f("inner.txt"), content: "deep\n" })) }, { blocks: [text("Inner edits done.")] }],
      },
      {
        cwdName: "diffs-ui",
        viewport: { width: 1600, height: 1000 },
        prepare: async (env) => {
          cwd = env.cwd;
          await fsp.writeFile(file("notes.txt"), fileText(Before));
        },
      },
    );
    const { baton, page } = app;
    await baton.newSession();
    await baton.send("edit the notes");

    // The Write asks first; its card shows the diff against the file the Read showed.
    const write = baton.toolCards("Write");
    await pw(baton.permissionOn(write)).toBeVisible({ timeout: 30_000 });
    await baton.permissionOn(write).getByRole("button", { name: "Allow once", exact: true }).click();

    // The appending Edit, while it waits: computed from the Write's content, only the ten new lines marked.
    const appending = baton.toolCards("Edit").first();
    await pw(baton.permissionOn(appending)).toBeVisible({ timeout: 30_000 });
    const waitingDiff = appending.getByLabel("Diff", { exact: true });
    expect(await rows(waitingDiff, "add")).toEqual(Appended.map((l, i) => `. ${43 + i} ${l}`));
    expect(await rows(waitingDiff, "del")).toEqual([]);
    await pw(waitingDiff.locator(".hunk-head")).toHaveText("@@ -40,3 +40,13 @@");
    await baton.permissionOn(appending).getByRole("button", { name: "Allow once", exact: true }).click();
    await pw(baton.transcript).toContainText("Edited the notes.", { timeout: 60_000 });

    // The Write over the file, from the CLI's patch: one line replaced (the word marked), two inserted.
    // The four calls fold into a group once none waits: open it, as a person would.
    const group = baton.transcript.getByRole("group", { name: "4 tool calls" });
    await group.getByRole("button", { expanded: false }).click();
    const writeDiff = write.getByLabel("Diff", { exact: true });
    expect(await rows(writeDiff, "del")).toEqual(["20 . line 20"]);
    expect(await rows(writeDiff, "add")).toEqual([". 20 line twenty", ". 31 inserted a", ". 32 inserted b"]);
    await pw(writeDiff.locator(".dl.add .wd").first()).toHaveText("twenty");
    expect(await writeDiff.locator(".dl.ctx").count()).toBeGreaterThan(0);
    // The appending Edit after it ran, from the CLI's own patch: the same ten lines.
    await pw(appending).toHaveAttribute("data-status", "completed");
    expect(await rows(appending.getByLabel("Diff", { exact: true }), "add")).toEqual(Appended.map((l, i) => `. ${43 + i} ${l}`));
    expect(await rows(appending.getByLabel("Diff", { exact: true }), "del")).toEqual([]);
    expect(await fsp.readFile(file("notes.txt"), "utf8")).toBe(fileText([...Written, ...Appended]));

    // The refused edit: the CLI's message, without its tags.
    const refused = baton.toolCards("Edit").nth(1);
    await pw(refused).toHaveAttribute("data-status", "failed");
    await pw(refused.getByLabel("Output")).toContainText("String to replace not found in file.");
    expect(await refused.textContent()).not.toContain("tool_use_error");

    // The subagents, in acceptEdits mode: their results carry no patch, so their diffs are computed.
    await page.getByRole("combobox", { name: "Permission mode" }).selectOption("acceptEdits");
    await baton.send("delegate");
    const sub = baton.subagentCard("general-purpose", "Sub edits");
    await pw(sub).toHaveAttribute("data-status", "completed", { timeout: 90_000 });
    await expect.poll(() => fsp.readFile(file("inner.txt"), "utf8").catch(() => ""), { timeout: 30_000 }).toBe("deep\n");
    await baton.expand(sub);
    const subEdit = baton.toolCards("Edit", sub);
    await pw(subEdit).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
    expect(await rows(subEdit.getByLabel("Diff", { exact: true }), "add")).toEqual([". 3 gamma", ". 4 delta"]);
    expect(await rows(subEdit.getByLabel("Diff", { exact: true }), "ctx")).toEqual(["1 1 alpha", "2 2 beta"]);

    // The Changes view: every file, in order, with who changed it.
    const changes = await openChanges(app);
    await expectFiles(changes, [
      ["notes.txt", "main agent"],
      ["sub.txt", "Sub edits"],
      ["inner.txt", "Sub edits › Inner edits"],
    ]);
    const notes = fileRow(changes, "notes.txt");
    await notes.click();
    await pw(changes.getByRole("list", { name: "Changes to notes.txt" }).getByRole("listitem")).toHaveCount(2);
    // Its entry opens the call in the transcript: the nested Edit, its cards opened around it.
    await fileRow(changes, "sub.txt").click();
    const subList = changes.getByRole("list", { name: "Changes to sub.txt" });
    expect(await rows(subList.getByLabel("Diff of Edit by Sub edits"), "add")).toEqual([". 3 gamma", ". 4 delta"]);
    await subList.getByRole("button", { name: /^Edit by Sub edits/ }).click();
    await pw(subEdit).toHaveAttribute("data-selected", "true");
    await baton.screenshot("changes-view");
    // Folded again, so that reopened, no open card reads the subagents' steps for the Changes view.
    await baton.expandButton(sub).click();
    await pw(baton.expandButton(sub)).toHaveAttribute("aria-expanded", "false");

    // Reopened from history: the same files, the subagents' read from their sidechain files.
    await baton.sessionTabs.getByRole("button", { name: /^Close / }).first().click();
    await pw(sub).toHaveCount(0, { timeout: 20_000 });
    await baton.openLeftTab("Project");
    await baton.project.getByRole("button", { name: "Refresh sessions" }).click();
    await baton.project.getByRole("button", { name: /^Open session / }).first().click();
    await pw(baton.transcript).toContainText("Edited the notes.", { timeout: 30_000 });
    const again = await openChanges(app);
    await expectFiles(again, [
      ["notes.txt", "main agent"],
      ["sub.txt", "Sub edits"],
      ["inner.txt", "Sub edits › Inner edits"],
    ]);
    await pw(baton.expandButton(sub)).toHaveAttribute("aria-expanded", "false");
    await fileRow(again, "sub.txt").click();
    expect(await rows(again.getByLabel("Diff of Edit by Sub edits"), "add")).toEqual([". 3 gamma", ". 4 delta"]);
    await fileRow(again, "inner.txt").click();
    await pw(again.getByRole("list", { name: "Changes to inner.txt" }).locator(".chip", { hasText: "new file" })).toHaveCount(1);
    expect(app.pageErrors.filter((e) => !e.includes("favicon"))).toEqual([]);
  });
});

/** Shows the Changes panel from the View menu and returns it. */
async function openChanges(app: WebApp): Promise<Locator> {
  await app.baton.openPanel("Changes");
  const panel = app.page.getByRole("region", { name: "Changes" });
  await pw(panel).toBeVisible();
  return panel;
}

/** A file's row (the button that opens its changes), by its path inside the session's folder. */
function fileRow(changes: Locator, path: string): Locator {
  return changes.locator(`li[data-path="${path}"] > .changes-file-row`);
}

/** The files listed, in order, each with who changed it. */
async function expectFiles(changes: Locator, files: readonly (readonly [string, string])[]): Promise<void> {
  const list = changes.getByRole("list", { name: "Changed files" });
  await expect
    .poll(async () => list.locator(":scope > li").evaluateAll((els) => els.map((el) => [(el as HTMLElement).dataset["path"] ?? "", el.querySelector(".changes-who")?.textContent ?? ""])), { timeout: 30_000 })
    .toEqual(files);
}
