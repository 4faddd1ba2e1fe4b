// Launches Debian's Chromium through playwright-core (never a downloaded browser) with a fresh
// profile per launch. Tests skip with a visible message when Chromium is missing.
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext } from "playwright-core";

export const ChromiumPath = process.env["BATON_CHROMIUM"] ?? "/usr/bin/chromium";

export function chromiumAvailable(): boolean {
  return fs.existsSync(ChromiumPath);
}

export interface LaunchedBrowser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

export async function launchBrowser(viewport = { width: 1440, height: 900 }): Promise<LaunchedBrowser> {
  const profile = await fsp.mkdtemp(path.join(os.tmpdir(), "baton-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: ChromiumPath,
    headless: true,
    viewport,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  // tsx/esbuild wrap named functions in `__name(...)`; functions sent to page.evaluate need it too.
  await context.addInitScript({ content: "globalThis.__name = globalThis.__name || ((f) => f);" });
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      await fsp.rm(profile, { recursive: true, force: true });
    },
  };
}
