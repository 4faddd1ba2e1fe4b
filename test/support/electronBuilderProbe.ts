// What electron-builder would pack, without Electron's binary or the network: electron-builder's
// own Packager runs on electron-builder.yml (loading and validating it, collecting the production
// node_modules with `npm list`, applying `files`, smart unpack and `asarUnpack`) up to the moment
// it writes app.asar. Three stand-ins, named here: the step that copies Electron's binary into the
// output does nothing (there is no binary to copy), the archive writer records the entries it was
// given instead of writing them, and npmRebuild is off (rebuilding needs Electron's headers).
// Nothing is written but an empty output folder in a temporary directory, unless asked to write the
// packed files out as folders (writePackedApp), for a test that runs the app from them.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pipeline } from "node:stream/promises";

const require = createRequire(import.meta.url);

/** One entry of app.asar as electron-builder would write it, path relative to the app's root. */
export interface PackedEntry {
  readonly path: string;
  /** Kept beside the archive, in app.asar.unpacked/, as a real file. */
  readonly unpacked: boolean;
}

export type ProbePlatform = "linux" | "mac" | "win";

interface AsarStream {
  readonly path: string;
  readonly type?: string;
  readonly unpacked: boolean;
  /** A file's content as electron-builder would write it (package.json already rewritten). */
  readonly streamGenerator?: () => NodeJS.ReadableStream;
  /** A link's target, relative to its folder. */
  readonly symlink?: string;
}

interface BuilderLib {
  readonly Packager: new (options: Record<string, unknown>) => { build(): Promise<unknown> };
  readonly Platform: Record<"LINUX" | "MAC" | "WINDOWS", { createTarget(type: string, arch: number): unknown; nodeName: string }>;
  readonly LinuxPackager: new (info: unknown) => unknown;
  readonly MacPackager: new (info: unknown) => unknown;
  readonly WinPackager: new (info: unknown) => unknown;
}

interface PackagerInfo {
  readonly framework: { prepareApplicationStageDirectory: (options: unknown) => Promise<void> };
}

/** Thrown by the stand-in archive writer once it has the entries: the build stops there. */
class ArchiveReached extends Error {
  constructor(readonly streams: readonly AsarStream[]) {
    super("electron-builder reached the archive step");
  }
}

function builderLib(root: string): BuilderLib {
  return require(path.join(root, "node_modules", "app-builder-lib")) as BuilderLib;
}

/** electron-builder.yml as electron-builder reads it, with `changes` over its top-level keys, as a JSON file. */
async function configFile(root: string, changes: Readonly<Record<string, unknown>>, outputDir: string): Promise<string> {
  const { getConfig } = require(path.join(root, "node_modules", "app-builder-lib", "out", "util", "config", "config.js")) as {
    getConfig(projectDir: string, configPath: string | null, fromOptions: null): Promise<Record<string, unknown>>;
  };
  const file = path.join(outputDir, "electron-builder.probe.json");
  fs.mkdirSync(outputDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ ...(await getConfig(root, null, null)), ...changes }));
  return file;
}

/**
 * The files electron-builder would put in app.asar (and app.asar.unpacked) for `platform`, as the
 * configuration at `root` says (`override` replaces top-level keys of it). `outputDir` receives only the empty folders electron-builder makes.
 */
export async function packedEntries(
  root: string,
  platform: ProbePlatform,
  outputDir: string,
  override: Readonly<Record<string, unknown>> = {},
): Promise<readonly PackedEntry[]> {
  const streams = await archiveStreams(root, platform, outputDir, override);
  return streams.filter((s) => s.type !== "directory").map((s) => ({ path: s.path.split(path.sep).join("/"), unpacked: s.unpacked }));
}

/**
 * Writes what electron-builder would pack for `platform` into `dest` as plain folders: app.asar
 * and app.asar.unpacked in one tree, as Electron shows them to the app. Returns `dest`.
 */
export async function writePackedApp(root: string, platform: ProbePlatform, outputDir: string, dest: string): Promise<string> {
  for (const stream of await archiveStreams(root, platform, outputDir, {})) {
    const target = path.join(dest, stream.path);
    if (stream.type === "directory") {
      fs.mkdirSync(target, { recursive: true });
    } else if (stream.type === "link" && stream.symlink !== undefined) {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.symlinkSync(stream.symlink, target);
    } else if (stream.streamGenerator !== undefined) {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      await pipeline(stream.streamGenerator(), fs.createWriteStream(target));
    }
  }
  return dest;
}

async function archiveStreams(
  root: string,
  platform: ProbePlatform,
  outputDir: string,
  override: Readonly<Record<string, unknown>>,
): Promise<readonly AsarStream[]> {
  const lib = builderLib(root);
  const asar = require(path.join(root, "node_modules", "app-builder-lib", "out", "asar", "asarUtil.js")) as {
    AsarPackager: { prototype: { executeElectronAsar(streams: readonly AsarStream[]): Promise<void> } };
  };
  const { Arch } = require(path.join(root, "node_modules", "builder-util")) as { Arch: Record<string, number> };
  const writer = asar.AsarPackager.prototype.executeElectronAsar;
  asar.AsarPackager.prototype.executeElectronAsar = (streams) => Promise.reject(new ArchiveReached(streams));
  const target = { linux: lib.Platform.LINUX, mac: lib.Platform.MAC, win: lib.Platform.WINDOWS }[platform];
  const stand = { npmRebuild: false, directories: { output: outputDir } };
  // An override of a list (files) must replace it, which electron-builder's merge of an options
  // object does not do: such a configuration goes in as a file of its own, loaded the same way.
  const config = Object.keys(override).length === 0 ? stand : await configFile(root, { ...override, ...stand }, outputDir);
  const packager = new lib.Packager({
    projectDir: root,
    targets: target.createTarget("dir", Arch["x64"] ?? 1),
    publish: "never",
    config,
    platformPackagerFactory: (info: PackagerInfo) => {
      info.framework.prepareApplicationStageDirectory = () => Promise.resolve();
      const helper = { linux: lib.LinuxPackager, mac: lib.MacPackager, win: lib.WinPackager }[platform];
      return new helper(info);
    },
  });
  try {
    await packager.build();
  } catch (error) {
    if (error instanceof ArchiveReached) return error.streams;
    throw error;
  } finally {
    asar.AsarPackager.prototype.executeElectronAsar = writer;
  }
  throw new Error("electron-builder finished without reaching the archive step");
}
