// Renders Baton's icon (build/icon.svg) to what electron-builder packs: build/icon.png (1024×1024),
// build/icon.icns (macOS) and build/icon.ico (Windows), and build/icons/<n>x<n>.png, the sizes a
// Linux desktop picks from. Drawn by Chromium (/usr/bin/chromium, or BATON_CHROMIUM) through
// playwright-core with a transparent background; the .icns and .ico are written here around
// those PNGs (both formats hold PNG images), so packaging downloads no icon converter. Run after
// editing the SVG: `node scripts/renderIcons.mjs`; the results are committed.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const build = path.join(root, "build");
const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512];
const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];
// Apple's icon types that hold a PNG, and the pixels each holds (the @2x ones are Retina).
const ICNS_TYPES = [
  ["icp4", 16],
  ["icp5", 32],
  ["icp6", 64],
  ["ic07", 128],
  ["ic08", 256],
  ["ic09", 512],
  ["ic10", 1024],
  ["ic11", 32],
  ["ic12", 64],
  ["ic13", 256],
  ["ic14", 512],
];

async function render(browser, svg, size) {
  const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
  try {
    const sized = svg.replace(/<svg\b([^>]*?)\swidth="\d+"\s+height="\d+"/, `<svg$1 width="${size}" height="${size}"`);
    await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${sized}</body></html>`);
    return await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
  } finally {
    await page.close();
  }
}

/** An .ico of PNG images: a 6-byte header, a 16-byte entry per image, then the images. */
export function icoFile(pngs) {
  const header = Buffer.alloc(6 + 16 * pngs.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(pngs.length, 4);
  let offset = header.length;
  pngs.forEach(({ size, png }, i) => {
    const at = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, at);
    header.writeUInt8(size >= 256 ? 0 : size, at + 1);
    header.writeUInt16LE(1, at + 4);
    header.writeUInt16LE(32, at + 6);
    header.writeUInt32LE(png.length, at + 8);
    header.writeUInt32LE(offset, at + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...pngs.map((p) => p.png)]);
}

/** An .icns: "icns" and the file's length, then per image its type, its length with this header, the PNG. */
export function icnsFile(entries) {
  const parts = entries.map(({ type, png }) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, "ascii");
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write("icns", 0, "ascii");
  head.writeUInt32BE(8 + parts.reduce((n, p) => n + p.length, 0), 4);
  return Buffer.concat([head, ...parts]);
}

async function main() {
  const svg = fs.readFileSync(path.join(build, "icon.svg"), "utf8");
  const browser = await chromium.launch({
    executablePath: process.env["BATON_CHROMIUM"] ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu"],
  });
  const sizes = [...new Set([...LINUX_SIZES, ...ICO_SIZES, ...ICNS_TYPES.map(([, s]) => s), 1024])].sort((a, b) => a - b);
  const png = new Map();
  try {
    for (const size of sizes) png.set(size, await render(browser, svg, size));
  } finally {
    await browser.close();
  }
  fs.mkdirSync(path.join(build, "icons"), { recursive: true });
  fs.writeFileSync(path.join(build, "icon.png"), png.get(1024));
  for (const size of LINUX_SIZES) fs.writeFileSync(path.join(build, "icons", `${size}x${size}.png`), png.get(size));
  fs.writeFileSync(path.join(build, "icon.ico"), icoFile(ICO_SIZES.map((size) => ({ size, png: png.get(size) }))));
  fs.writeFileSync(path.join(build, "icon.icns"), icnsFile(ICNS_TYPES.map(([type, size]) => ({ type, png: png.get(size) }))));
  console.log(`baton: rendered build/icon.png, icon.icns, icon.ico and build/icons/ (${LINUX_SIZES.join(", ")} px) from build/icon.svg`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
