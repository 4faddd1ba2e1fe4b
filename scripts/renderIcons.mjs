// Renders Baton's icon (build/icon.svg) to the PNGs electron-builder packs: build/icon.png
// (1024×1024; electron-builder makes the macOS .icns and Windows .ico from it) and build/icons/
// <n>x<n>.png, the sizes a Linux desktop picks from. Drawn by Chromium (/usr/bin/chromium, or
// BATON_CHROMIUM) through playwright-core, with a transparent background. Run after editing the
// SVG: `node scripts/renderIcons.mjs`; the PNGs are committed.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const source = path.join(root, "build", "icon.svg");
const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512];

async function render(browser, svg, size, file) {
  const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
  try {
    const sized = svg.replace(/<svg\b([^>]*?)\swidth="\d+"\s+height="\d+"/, `<svg$1 width="${size}" height="${size}"`);
    await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${sized}</body></html>`);
    await page.screenshot({ path: file, omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
  } finally {
    await page.close();
  }
}

async function main() {
  const svg = fs.readFileSync(source, "utf8");
  const browser = await chromium.launch({
    executablePath: process.env["BATON_CHROMIUM"] ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    fs.mkdirSync(path.join(root, "build", "icons"), { recursive: true });
    await render(browser, svg, 1024, path.join(root, "build", "icon.png"));
    for (const size of LINUX_SIZES) await render(browser, svg, size, path.join(root, "build", "icons", `${size}x${size}.png`));
  } finally {
    await browser.close();
  }
  console.log(`baton: rendered build/icon.png and build/icons/ (${LINUX_SIZES.join(", ")} px) from build/icon.svg`);
}

await main();
