// `npm run build:cli` (part of `npm run build`, and run by `npm install`): the `baton` command line
// as plain JavaScript in out/cli, so it starts without compiling TypeScript. One ESM bundle
// sharing the app's core: an entry for the process (baton.js, from commands/batonProcess.ts), one
// per command of the dispatcher's table (each loaded by name when run: `./search.js`), and one per
// worker thread or child process a command starts (storeWorker.js, extractWorker.js,
// sandboxHost.js). Every file lands flat in out/cli, shared chunks included, so
// `new URL("./storeWorker.js", import.meta.url)` finds the worker from whichever file its caller
// ended up in. Packages stay runtime imports from node_modules (native better-sqlite3,
// web-tree-sitter and its grammar's .wasm, the sandbox runtime, ws, zod): the bundle is our code
// only. esbuild comes with tsx.
//
// out/cli/inputs.json records when the build began and the source files it read: `bin/baton.mjs`
// runs the sources instead when one of them changed since (a checkout being edited), so it never
// runs stale code (scripts/cliBundle.mjs).
import { build, type BuildOptions, type Metafile } from "esbuild";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { COMMANDS } from "../src/main/commands/baton.js";
import { cliBundlePaths, type CliBuildRecord } from "./cliBundle.mjs";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bundle = cliBundlePaths(repoRoot);
const outDir = bundle.dir;

const commandsDir = path.join(repoRoot, "src", "main", "commands");

/** Entry name → source: out/cli/<name>.js. */
function entries(): Record<string, string> {
  const points: Record<string, string> = {
    baton: path.join(commandsDir, "batonProcess.ts"),
    storeWorker: path.join(repoRoot, "src/main/store/storeWorker.ts"),
    extractWorker: path.join(repoRoot, "src/main/search/extractWorker.ts"),
    sandboxHost: path.join(repoRoot, "src/main/sandbox/sandboxHost.ts"),
  };
  for (const command of COMMANDS) {
    const stem = /^\.\/([\w-]+)\.js$/.exec(command.module)?.[1];
    if (stem === undefined) throw new Error(`buildCli: the "${command.name}" command's module ${command.module} is not ./<name>.js beside baton.ts`);
    if (stem in points) throw new Error(`buildCli: the "${command.name}" command's module ${command.module} clashes with another entry`);
    points[stem] = path.join(commandsDir, `${stem}.ts`);
  }
  return points;
}

/** The repository's files the bundle was made from, relative to the repo (the build script too). */
function sourceInputs(metafile: Metafile): string[] {
  const inputs = Object.keys(metafile.inputs).filter((file) => !file.includes("node_modules/"));
  return [...new Set([...inputs.map((file) => path.relative(repoRoot, path.resolve(repoRoot, file))), "scripts/buildCli.ts"])].sort();
}

/**
 * How Baton's Node code is bundled: ES modules in one flat folder, split into shared chunks so
 * `new URL("./storeWorker.js", import.meta.url)` finds a worker from whichever file asks, and
 * packages left as imports (better-sqlite3 is a native module). bench:peers bundles its
 * measurements the same way.
 */
export const NodeBundle = {
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  chunkNames: "[name]-[hash]",
  logLevel: "warning",
} as const satisfies BuildOptions;

export async function buildCli(): Promise<void> {
  const started = performance.now();
  const startedAt = Date.now();
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: entries(),
    outdir: outDir,
    ...NodeBundle,
    write: false,
    metafile: true,
  });
  fs.mkdirSync(outDir, { recursive: true });
  // Each file is written whole and renamed into place, and files of an earlier build are removed
  // only after: a `baton` running from out/cli meanwhile (a test, a `baton web`) keeps finding its
  // chunks (their names are content hashes) or the new ones.
  const written = new Set<string>();
  const put = (file: string, contents: Uint8Array | string): void => {
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, contents);
    fs.renameSync(temporary, file);
    written.add(path.basename(file));
  };
  for (const file of result.outputFiles) put(file.path, file.contents);
  const record: CliBuildRecord = { startedAt, inputs: sourceInputs(result.metafile) };
  put(bundle.inputs, `${JSON.stringify(record, null, 1)}\n`);
  for (const name of fs.readdirSync(outDir)) {
    if (!written.has(name) && !name.endsWith(".tmp")) fs.rmSync(path.join(outDir, name), { force: true });
  }
  const bytes = result.outputFiles.reduce((sum, file) => sum + file.contents.byteLength, 0);
  console.log(`out/cli: ${result.outputFiles.length} files, ${(bytes / 1024).toFixed(0)} KB, in ${Math.round(performance.now() - started)} ms`);
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildCli();
