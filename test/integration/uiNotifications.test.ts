// Browser tests of two renderer features a person only notices at the edges: desktop notifications
// while the window is hidden (a request waits, a long turn ends), and images dropped on the composer
// (kept with the unsent prompt across a reload).
import { afterEach, describe, expect, it } from "vitest";
import { bashCall, text } from "../support/scenarios/types.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { installNotificationDouble, setHidden, shiftClock, shownNotes } from "../support/ui/notificationDouble.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiNotifications: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const Png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

describe.skipIf(!hasChromium)("notifications and dropped images in the browser", () => {
  it("notifies a waiting request and a long turn only while the window is hidden", async () => {
    app = await startWebApp(
      {
        main: [
          { blocks: [bashCall("touch visible.txt", "Create visible file")] },
          { blocks: [bashCall("touch hidden.txt", "Create hidden file")] },
          { blocks: [text("Long turn over.")] },
          { blocks: [text("Quick answer.")] },
        ],
      },
      { cwdName: "notify-ui" },
    );
    const { baton, page } = app;
    await page.addInitScript(installNotificationDouble);
    await page.reload();
    await baton.waitReady();
    await baton.newSession();
    const status = page.getByLabel("Session status");

    // Visible window: the request shows on its card, no notification.
    await baton.send("touch two files");
    const first = baton.permissionOn(baton.toolCards("Bash").filter({ hasText: "touch visible.txt" }));
    await pw(first).toContainText("touch visible.txt", { timeout: 30_000 });
    await pw(status).toHaveText("waiting for you");
    expect(await shownNotes(app.page)).toEqual([]);

    // Hidden window: the next request notifies, naming the tool.
    await setHidden(app.page, true);
    await first.getByRole("button", { name: "Allow once", exact: true }).click();
    const second = baton.permissionOn(baton.toolCards("Bash").filter({ hasText: "touch hidden.txt" }));
    await pw(second).toContainText("touch hidden.txt", { timeout: 30_000 });
    await expect.poll(() => shownNotes(app!.page), { timeout: 10_000 }).toHaveLength(1);
    const [waiting] = await shownNotes(app.page);
    expect(waiting?.title).toBe("Claude is waiting for you");
    // It names the session and the agent, and says what waits.
    expect(waiting?.body).toMatch(/ · Main agent: Bash touch hidden\.txt$/);

    // The turn has now run "25 s": its end notifies.
    await shiftClock(page, 25_000);
    await second.getByRole("button", { name: "Allow once", exact: true }).click();
    await pw(baton.transcript).toContainText("Long turn over.", { timeout: 60_000 });
    await pw(status).toHaveText("idle", { timeout: 30_000 });
    await expect.poll(() => shownNotes(app!.page), { timeout: 10_000 }).toHaveLength(2);
    expect((await shownNotes(app.page))[1]?.title).toBe("Claude finished");

    // A short turn, still hidden: no notification.
    await baton.send("anything else?");
    await pw(baton.transcript).toContainText("Quick answer.", { timeout: 60_000 });
    await pw(status).toHaveText("idle", { timeout: 30_000 });
    expect(await shownNotes(app.page)).toHaveLength(2);
    expect(app.pageErrors).toEqual([]);
  });

  it("attaches an image dropped on the composer and sends it to the model", async () => {
    app = await startWebApp({ main: [{ blocks: [text("I see a dot.")] }] }, { cwdName: "drop-ui" });
    const { baton } = app;
    await baton.newSession();
    await dropOnComposer(baton);
    await pw(baton.transcript.getByRole("button", { name: "Remove image 1" })).toBeVisible();
    await pw(baton.transcript.getByRole("button", { name: "Remove image 2" })).toHaveCount(0);
    await baton.send("what is in this image?");
    const request = await app.model.waitForRequest((r) => r.agent === "main" && r.turn === 0, 60_000);
    await pw(baton.transcript).toContainText("I see a dot.", { timeout: 60_000 });
    const sent = JSON.stringify(request.body["messages"]);
    expect(sent).toContain(JSON.stringify({ type: "base64", media_type: "image/png", data: Png }));
    expect(sent).toContain('"type":"image"');
    expect(sent).toContain("what is in this image?");
    expect(app.pageErrors).toEqual([]);
  });

  it("keeps a dropped image with the unsent prompt across a reload; sent, it is gone", async () => {
    app = await startWebApp({ main: [{ blocks: [text("I see a dot.")] }] }, { cwdName: "drop-reload-ui" });
    const { baton, page } = app;
    await baton.newSession();
    await dropOnComposer(baton);
    await baton.composer.fill("about this dot");
    const thumb = baton.transcript.getByRole("button", { name: "Remove image 1" });
    await pw(thumb).toBeVisible();
    // The picture is kept as it is attached (IndexedDB): wait for it there before reloading.
    await expect.poll(() => page.evaluate(keptPictures)).toBe(1);

    await page.reload();
    await baton.waitReady();
    await pw(thumb).toBeVisible({ timeout: 20_000 });
    await pw(baton.transcript.getByRole("button", { name: "Remove image 2" })).toHaveCount(0);
    expect(await baton.composer.inputValue()).toBe("about this dot");

    await baton.composer.press("Enter");
    const request = await app.model.waitForRequest((r) => r.agent === "main" && r.turn === 0, 60_000);
    expect(JSON.stringify(request.body["messages"])).toContain(JSON.stringify({ type: "base64", media_type: "image/png", data: Png }));
    await pw(baton.transcript).toContainText("I see a dot.", { timeout: 60_000 });
    await expect.poll(() => page.evaluate(keptPictures)).toBe(0);
    await page.reload();
    await baton.waitReady();
    await pw(baton.transcript).toContainText("I see a dot.", { timeout: 20_000 });
    await pw(thumb).toHaveCount(0);
    expect(app.pageErrors).toEqual([]);
  });
});

/** Drops a PNG and a text file on the composer, as a file manager would. */
async function dropOnComposer(baton: WebApp["baton"]): Promise<void> {
  await baton.composer.evaluate((el, png) => {
    const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([bytes], "x.png", { type: "image/png" }));
    // Files that are not images are ignored.
    data.items.add(new File(["plain"], "notes.txt", { type: "text/plain" }));
    el.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
  }, Png);
}

/** How many pictures the window keeps with its drafts (state/draftImages.ts), read in the page. */
function keptPictures(): Promise<number> {
  return new Promise((resolve) => {
    const open = indexedDB.open("baton-drafts");
    open.onerror = () => resolve(-1);
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains("images")) return resolve(0);
      const all = db.transaction("images", "readonly").objectStore("images").getAll();
      all.onsuccess = () => resolve((all.result as { images: unknown[] }[]).reduce((n, e) => n + e.images.length, 0));
      all.onerror = () => resolve(-1);
    };
  });
}
