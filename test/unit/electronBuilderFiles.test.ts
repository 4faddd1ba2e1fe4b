// The installers carry every file the built app opens, and nothing of the repository besides.
// What is packed comes from electron-builder itself, run on electron-builder.yml up to the point
// it writes app.asar (test/support/electronBuilderProbe.ts: its own config loader, node_modules
// collector, `files` matcher, smart unpack and `asarUnpack`; no Electron binary, no network).
// What the app opens comes from reading the built out/ from its three entries and following
// imports, requires, asset URLs and worker/child entries into out/ and node_modules
// (test/support/appLoads.ts), plus the paths the app computes at run time, named below.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packagedBindingPath, storeBindingPath } from "../../scripts/electronNativePaths.mjs";
import { asarUnpackedPath, seccompSetting } from "../../src/main/sandbox/packagedHelpers.js";
import { appLoads, devOnlyReferences, type AppLoads, type Load } from "../support/appLoads.js";
import { packedEntries, type PackedEntry, type ProbePlatform } from "../support/electronBuilderProbe.js";
import { ensureMainBuilt, ensureRendererBuilt, repoRoot, whileOutputHeld } from "../support/ui/buildRenderer.js";

const ENTRIES = ["out/main/index.js", "out/preload/index.cjs", "out/renderer/index.html"];

// Where the app opens a file by a path it computes, which reading the bundle cannot follow.
const RESOURCES = path.join(path.sep, "opt", "Baton", "resources");
const BINDING_IN_APP = path.relative(path.join(RESOURCES, "app.asar.unpacked"), packagedBindingPath(RESOURCES)).split(path.sep).join("/");
const COMPUTED: readonly { readonly file: string; readonly how: string; readonly unpacked: boolean }[] = [
  { file: "package.json", how: "Electron (its main), and batonPackageDir() from app.getAppPath()", unpacked: false },
  { file: BINDING_IN_APP, how: "storeBindingPath() for an installed app (the store's better-sqlite3 binary)", unpacked: true },
  // Bubblewrap starts this helper by its path (generate-seccomp-filter.js builds it from its folder).
  { file: "node_modules/@anthropic-ai/sandbox-runtime/vendor/seccomp/x64/apply-seccomp", how: "sandbox runtime on Linux x64", unpacked: true },
  { file: "node_modules/@anthropic-ai/sandbox-runtime/vendor/seccomp/arm64/apply-seccomp", how: "sandbox runtime on Linux arm64", unpacked: true },
];

// Named in a bundle's text, not loaded: dockview's error message says which package a feature
// ships in. Each must still be found, so this list cannot outlive what it excuses.
const TEXT_NOT_IMPORTS: ReadonlyMap<string, string> = new Map([["dockview-enterprise", "out/renderer/assets/"]]);

// Nothing of these is ever opened by the app; out/cli is the `baton` command line.
const NEVER_PACKED = ["src/", "test/", "bench/", "fixtures/", "docs/", "scripts/", "build/", "out/cli/", ".github/", "dist/"];

interface Missing {
  readonly file: string;
  readonly from: string;
  readonly how: string;
  readonly problem: "not packed" | "packed inside app.asar, opened by path";
}

/** The loads the packed list lacks, or keeps inside the archive when they must be real files. */
function notPacked(loads: readonly Load[], entries: readonly PackedEntry[], mustBeUnpacked: (file: string) => boolean): Missing[] {
  const packed = new Map(entries.map((e) => [e.path, e]));
  const missing: Missing[] = [];
  for (const load of loads) {
    const file = path.relative(repoRoot, load.file).split(path.sep).join("/");
    const entry = packed.get(file);
    const from = load.from === "entry" ? "entry" : path.relative(repoRoot, load.from);
    if (entry === undefined) missing.push({ file, from, how: load.how, problem: "not packed" });
    else if (mustBeUnpacked(file) && !entry.unpacked) missing.push({ file, from, how: load.how, problem: "packed inside app.asar, opened by path" });
  }
  return missing;
}

function computedLoads(): Load[] {
  return COMPUTED.map((c) => ({ file: path.join(repoRoot, c.file), from: "entry", how: c.how }));
}

/** .node binaries (the operating system loads them), the tree-sitter grammars and the computed helpers. */
function mustBeUnpacked(file: string): boolean {
  return file.endsWith(".node") || file.endsWith(".wasm") || COMPUTED.some((c) => c.unpacked && c.file === file);
}

const PLATFORMS: readonly ProbePlatform[] = ["linux", "mac", "win"];
const packed = new Map<ProbePlatform, readonly PackedEntry[]>();
let loads: AppLoads;
let withoutPreload: readonly PackedEntry[];
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "baton-eb-"));

beforeAll(async () => {
  ensureMainBuilt();
  ensureRendererBuilt();
  // One build of out/ throughout: other tests rebuild it when their sources change.
  await whileOutputHeld(async () => {
    loads = appLoads(
      ENTRIES.map((e) => path.join(repoRoot, e)),
      computedLoads(),
    );
    for (const platform of PLATFORMS) packed.set(platform, await packedEntries(repoRoot, platform, path.join(scratch, platform)));
    withoutPreload = await packedEntries(repoRoot, "linux", path.join(scratch, "negative"), {
      files: ["package.json", "out/main/**", "out/renderer/**", "!**/*.map"],
    });
  });
}, 300_000);

afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe("what the built app opens", () => {
  it("is found from the three entries: the main bundle's chunks, workers and sandbox host, preload, renderer and their packages", () => {
    const files = new Set(loads.loads.map((l) => path.relative(repoRoot, l.file).split(path.sep).join("/")));
    for (const file of ["out/main/storeWorker.js", "out/main/extractWorker.js", "out/main/sandboxHost.js", "out/preload/index.cjs", "out/renderer/index.html"]) {
      expect(files, file).toContain(file);
    }
    expect([...files].some((f) => /^out\/renderer\/assets\/index-[\w-]+\.js$/.test(f)), "the renderer's script").toBe(true);
    expect([...files].some((f) => /^out\/renderer\/assets\/index-[\w-]+\.css$/.test(f)), "the renderer's styles").toBe(true);
    for (const file of [
      "node_modules/better-sqlite3/lib/index.js",
      "node_modules/web-tree-sitter/web-tree-sitter.js",
      "node_modules/web-tree-sitter/web-tree-sitter.wasm",
      "node_modules/tree-sitter-bash/tree-sitter-bash.wasm",
      "node_modules/@anthropic-ai/sandbox-runtime/dist/index.js",
      "node_modules/markdown-it/index.mjs",
      "node_modules/highlight.js/lib/common.js",
    ]) {
      expect(files, file).toContain(file);
    }
  });

  it("names nothing in out/ that is not on disk, but the paths only the TypeScript sources take and text that is no import", () => {
    const fromOut = loads.unresolved.filter((u) => path.relative(repoRoot, u.from).startsWith("out"));
    const unexplained = fromOut.filter((u) => !path.relative(repoRoot, u.from).startsWith(TEXT_NOT_IMPORTS.get(u.specifier) ?? "\0"));
    expect(unexplained).toEqual([]);
    for (const [specifier, where] of TEXT_NOT_IMPORTS) {
      expect(fromOut.some((u) => u.specifier === specifier && path.relative(repoRoot, u.from).startsWith(where)), `${specifier} still named in ${where}`).toBe(true);
    }
    // The worker boot file is only for .ts entries (tests, tsx); the built bundle starts its .js entries.
    const scripts = loads.loads.map((l) => l.file).filter((f) => /^out\/main\/.*\.js$/.test(path.relative(repoRoot, f).split(path.sep).join("/")));
    expect([...new Set(scripts.flatMap((f) => devOnlyReferences(f)))]).toEqual(["../platform/workerBoot.mjs"]);
  });
});

describe.each(PLATFORMS)("the %s installer's app.asar", (platform) => {
  it("holds every file the app opens; binaries and files opened by path sit unpacked beside it", () => {
    expect(notPacked(loads.loads, packed.get(platform) ?? [], mustBeUnpacked)).toEqual([]);
  });

  it("holds nothing of the sources, tests, benchmarks, fixtures, docs or the command line", () => {
    const stray = (packed.get(platform) ?? []).map((e) => e.path).filter((p) => NEVER_PACKED.some((prefix) => p.startsWith(prefix)));
    expect(stray).toEqual([]);
    const appFiles = (packed.get(platform) ?? []).map((e) => e.path).filter((p) => !p.startsWith("node_modules/"));
    expect(appFiles.every((p) => p === "package.json" || /^out\/(?:main|preload|renderer)\//.test(p)), appFiles.join("\n")).toBe(true);
    expect(appFiles.some((p) => p.endsWith(".map"))).toBe(false);
  });
});

describe("the check itself", () => {
  it("reports a file outside the packed patterns", () => {
    const source = { file: path.join(repoRoot, "src", "main", "index.ts"), from: "entry", how: "a source file" };
    expect(notPacked([source], packed.get("linux") ?? [], mustBeUnpacked)).toEqual([
      { file: "src/main/index.ts", from: "entry", how: "a source file", problem: "not packed" },
    ]);
  });

  it("reports the preload when electron-builder's `files` leave it out", () => {
    const missing = notPacked(loads.loads, withoutPreload, mustBeUnpacked);
    expect(missing.map((m) => m.file)).toEqual(["out/preload/index.cjs"]);
  });

  it("reports a binary packed inside the archive", () => {
    const inside = (packed.get("linux") ?? []).map((e) => (e.path === BINDING_IN_APP ? { ...e, unpacked: false } : e));
    expect(notPacked(loads.loads, inside, mustBeUnpacked)).toEqual([
      expect.objectContaining({ file: BINDING_IN_APP, problem: "packed inside app.asar, opened by path" }),
    ]);
  });
});

describe("the installed app's SQLite binary", () => {
  it("is the copy electron-builder rebuilt, beside the archive; npm start uses build/native; Node its own", () => {
    const installed = storeBindingPath({ electron: "45.5.0" }, "x64", path.join(RESOURCES, "app.asar"), RESOURCES);
    expect(installed).toBe(path.join(RESOURCES, "app.asar.unpacked", "node_modules", "better-sqlite3", "build", "Release", "better_sqlite3.node"));
    const dev = path.join(path.sep, "home", "user", "code", "baton");
    expect(storeBindingPath({ electron: "45.5.0" }, "x64", dev, undefined)).toBe(path.join(dev, "build", "native", "electron-45.5.0-x64", "better_sqlite3.node"));
    expect(storeBindingPath({ node: "20.19.0" }, "x64", dev, undefined)).toBeUndefined();
    expect(storeBindingPath({ node: "20.19.0" }, "x64", dev, RESOURCES)).toBeUndefined();
  });
});

describe("the installed app's seccomp helper", () => {
  const entry = path.join(RESOURCES, "app.asar", "node_modules", "@anthropic-ai", "sandbox-runtime", "dist", "index.js");

  it("is handed to the sandbox runtime at its unpacked path, which the Linux installer packs as a real file", () => {
    const setting = seccompSetting(entry, "linux", "x64");
    const unpackedRoot = path.join(RESOURCES, "app.asar.unpacked");
    expect(setting?.applyPath).toBe(path.join(unpackedRoot, "node_modules", "@anthropic-ai", "sandbox-runtime", "vendor", "seccomp", "x64", "apply-seccomp"));
    const inApp = path.relative(unpackedRoot, setting?.applyPath ?? "").split(path.sep).join("/");
    expect(packed.get("linux")?.find((e) => e.path === inApp)).toEqual({ path: inApp, unpacked: true });
    expect(seccompSetting(entry, "linux", "arm64")?.applyPath).toContain(path.join("seccomp", "arm64", "apply-seccomp"));
  });

  it("is left to the runtime's own lookup outside an archive, off Linux, and on CPUs it has no helper for", () => {
    expect(seccompSetting(path.join(repoRoot, "node_modules", "@anthropic-ai", "sandbox-runtime", "dist", "index.js"), "linux", "x64")).toBeUndefined();
    expect(seccompSetting(entry, "darwin", "arm64")).toBeUndefined();
    expect(seccompSetting(entry, "linux", "ia32")).toBeUndefined();
    expect(asarUnpackedPath(path.join(RESOURCES, "app.asar.unpacked", "x"))).toBeUndefined();
  });
});
