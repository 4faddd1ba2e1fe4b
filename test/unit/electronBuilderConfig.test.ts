// electron-builder.yml, read and judged by electron-builder's own code: its configuration loader
// (getConfig, as `electron-builder` loads the file) and its validator (validateConfiguration,
// which checks app-builder-lib/scheme.json and electron-builder's own deprecations). A config the
// validator refuses is shown to be refused, so the passing check means something. Then what the
// installers promise: the targets and their options, the icon, and no update feed anywhere.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/ui/buildRenderer.js";

const require = createRequire(import.meta.url);

type Config = Record<string, unknown> & {
  readonly linux: { readonly target: readonly string[]; readonly icon: string; readonly category: string; readonly maintainer: string };
  readonly deb: { readonly recommends: readonly string[] };
  readonly mac: { readonly target: readonly { readonly target: string; readonly arch: readonly string[] }[]; readonly hardenedRuntime: boolean; readonly icon: string; readonly identity?: string | null };
  readonly win: { readonly target: readonly { readonly target: string; readonly arch: readonly string[] }[]; readonly icon: string };
  readonly nsis: Record<string, unknown>;
  readonly publish: readonly Record<string, unknown>[];
  readonly asarUnpack: readonly string[];
};

const configModule = require(path.join(repoRoot, "node_modules", "app-builder-lib", "out", "util", "config", "config.js")) as {
  getConfig(projectDir: string, configPath: string | null, fromOptions: null): Promise<Config>;
  validateConfiguration(config: unknown, debugLogger: unknown): Promise<void>;
};
const { DebugLogger } = require(path.join(repoRoot, "node_modules", "builder-util")) as { DebugLogger: new (enabled: boolean) => unknown };

function validate(config: unknown): Promise<void> {
  return configModule.validateConfiguration(config, new DebugLogger(false));
}

let config: Config;

beforeAll(async () => {
  config = await configModule.getConfig(repoRoot, null, null);
});

/** Width and height from a PNG's IHDR chunk (bytes 16–23), or undefined when it is not a PNG. */
function pngSize(file: string): { width: number; height: number } | undefined {
  const head = fs.readFileSync(file).subarray(0, 24);
  if (!head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return undefined;
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}

function pngBufferSize(png: Buffer): { width: number; height: number } | undefined {
  if (!png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return undefined;
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** An .icns's images by type: "icns", the file's length, then type, length (with its 8 bytes), data. */
function icnsImages(file: Buffer): Map<string, { width: number; height: number } | undefined> {
  expect(file.toString("ascii", 0, 4)).toBe("icns");
  expect(file.readUInt32BE(4)).toBe(file.length);
  const images = new Map<string, { width: number; height: number } | undefined>();
  for (let at = 8; at < file.length; ) {
    const length = file.readUInt32BE(at + 4);
    images.set(file.toString("ascii", at, at + 4), pngBufferSize(file.subarray(at + 8, at + length)));
    at += length;
  }
  return images;
}

/** An .ico's images: the size its directory says (0 is 256) and the PNG's own. */
function icoImages(file: Buffer): { size: number; png: { width: number; height: number } | undefined }[] {
  expect(file.readUInt16LE(2)).toBe(1);
  return Array.from({ length: file.readUInt16LE(4) }, (_, i) => {
    const at = 6 + 16 * i;
    const [bytes, offset] = [file.readUInt32LE(at + 8), file.readUInt32LE(at + 12)];
    return { size: file.readUInt8(at) || 256, png: pngBufferSize(file.subarray(offset, offset + bytes)) };
  });
}

describe("electron-builder.yml against electron-builder's own schema", () => {
  it("is what electron-builder loads from the repository, and its validator accepts it", async () => {
    expect(config["productName"]).toBe("Baton");
    await expect(validate(config)).resolves.toBeUndefined();
  });

  it("would be refused with an option electron-builder does not have, at the top or inside a target", async () => {
    await expect(validate({ ...config, autoUpdate: true })).rejects.toThrow(/configuration has an unknown property 'autoUpdate'/);
    await expect(validate({ ...config, nsis: { ...config.nsis, perUser: true } })).rejects.toThrow(/configuration\.nsis/);
    await expect(validate({ ...config, mac: { ...config.mac, hardenedRuntime: "off" } })).rejects.toThrow(/configuration\.mac\.hardenedRuntime/);
  });
});

describe("the installers it describes", () => {
  it("Linux: an AppImage and a deb, in Development, with a maintainer and the sandbox's tools recommended", () => {
    expect(config.linux.target).toEqual(["AppImage", "deb"]);
    expect(config.linux.category).toBe("Development");
    expect(config.linux.maintainer).toMatch(/<[^@\s]+@[^@\s]+>/);
    expect(config.deb.recommends).toEqual(["bubblewrap", "socat", "ripgrep"]);
  });

  it("macOS: one universal dmg (x64 and arm64 in one app), ad-hoc signed, hardened runtime off until releases are signed", () => {
    expect(config.mac.target).toEqual([{ target: "dmg", arch: ["universal"] }]);
    expect(config.mac.hardenedRuntime).toBe(false);
    expect(config.mac.identity).toBe("-");
  });

  it("Windows: an NSIS installer for the current user that lets the person choose the folder", () => {
    expect(config.win.target).toEqual([{ target: "nsis", arch: ["x64"] }]);
    expect(config.nsis).toMatchObject({ oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true });
  });

  it("publishes drafts to GitHub releases, and nothing in Baton fetches updates", () => {
    expect(config.publish).toEqual([{ provider: "github", releaseType: "draft", publishAutoUpdate: false }]);
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>;
    expect(Object.keys({ ...pkg["dependencies"], ...pkg["devDependencies"] })).not.toContain("electron-updater");
    const calls = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) return calls(full);
        return /autoUpdater|electron-updater/.test(fs.readFileSync(full, "utf8")) ? [path.relative(repoRoot, full)] : [];
      });
    expect(calls(path.join(repoRoot, "src"))).toEqual([]);
  });

  it("rebuilds better-sqlite3 for Electron and keeps its binary out of the archive", () => {
    expect(config["npmRebuild"]).not.toBe(false);
    expect(config.asarUnpack).toContain("node_modules/better-sqlite3/build/Release/better_sqlite3.node");
  });

  it("has Baton's icon: a 1024-pixel PNG, an .icns for macOS and an .ico for Windows holding PNGs of its sizes, one PNG per size for Linux", () => {
    expect(pngSize(path.join(repoRoot, "build", "icon.png"))).toEqual({ width: 1024, height: 1024 });
    expect(config.mac.icon).toBe("build/icon.icns");
    const icns = icnsImages(fs.readFileSync(path.join(repoRoot, config.mac.icon)));
    expect(icns.get("ic10")).toEqual({ width: 1024, height: 1024 });
    expect(icns.get("ic09")).toEqual({ width: 512, height: 512 });
    expect(icns.get("ic07")).toEqual({ width: 128, height: 128 });
    expect(config.win.icon).toBe("build/icon.ico");
    const ico = icoImages(fs.readFileSync(path.join(repoRoot, config.win.icon)));
    expect(ico.map((i) => i.size)).toContain(256);
    for (const image of ico) expect(image.png, `${image.size} px`).toEqual({ width: image.size, height: image.size });
    const sizes = fs.readdirSync(path.join(repoRoot, config.linux.icon)).sort();
    expect(sizes.length).toBeGreaterThanOrEqual(6);
    for (const name of sizes) {
      const n = Number(/^(\d+)x\1\.png$/.exec(name)?.[1]);
      expect(pngSize(path.join(repoRoot, config.linux.icon, name)), name).toEqual({ width: n, height: n });
    }
  });
});
