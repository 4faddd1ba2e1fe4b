// `npm run dist` (and dist:linux, dist:mac, dist:win): after electron-vite's build, makes Baton's
// installers with electron-builder (electron-builder.yml) into dist/, for this system unless
// flags name others (`--linux`, `--mac`, `--win`; other electron-builder flags pass through).
// Nothing is uploaded (`--publish never`): .github/workflows/release.yml drafts the GitHub release.
// electron-builder rebuilds the native packages for Electron's ABI inside node_modules
// (npmRebuild): this puts their Node builds back afterwards, worked or not, since the tests and
// `npx baton` load better-sqlite3's. Its output goes to dist/electron-builder.log with its progress lines shown; when it fails,
// one paragraph says why and what to do (scripts/distFailure.mjs) instead of its stack.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describeDistFailure, recogniseDistFailure } from "./distFailure.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Enough of the output to recognise a failure; all of it is in the log. */
const KEEP_OUTPUT = 256 * 1024;

/** The packages with native code, which electron-builder's rebuild compiles again for Electron. */
function nativePackages() {
  const dir = path.join(root, "node_modules");
  const names = fs.readdirSync(dir).flatMap((name) => (name.startsWith("@") ? fs.readdirSync(path.join(dir, name)).map((n) => `${name}/${n}`) : [name]));
  return names.map((name) => path.join(dir, name)).filter((pkg) => fs.existsSync(path.join(pkg, "binding.gyp")));
}

/**
 * A copy of each native package's Node binaries (build/Release/*.node) and its list of entries,
 * and how to put them back: binaries by rename (never half a file), and whatever the rebuild
 * added beside them (a build/ folder tree-sitter-bash never had) removed.
 */
function keepNativeBuilds() {
  const kept = fs.mkdtempSync(path.join(os.tmpdir(), "baton-dist-"));
  const packages = nativePackages().map((pkg, i) => {
    const release = path.join(pkg, "build", "Release");
    const binaries = fs.existsSync(release) ? fs.readdirSync(release).filter((f) => f.endsWith(".node")) : [];
    for (const file of binaries) fs.copyFileSync(path.join(release, file), path.join(kept, `${i}-${file}`));
    return { pkg, i, release, binaries, entries: new Set(fs.readdirSync(pkg)) };
  });
  return () => {
    for (const { pkg, i, release, binaries, entries } of packages) {
      for (const entry of fs.readdirSync(pkg)) if (!entries.has(entry)) fs.rmSync(path.join(pkg, entry), { recursive: true, force: true });
      for (const file of binaries) {
        const partial = path.join(release, `${file}.partial-${process.pid}`);
        fs.copyFileSync(path.join(kept, `${i}-${file}`), partial);
        fs.renameSync(partial, path.join(release, file));
      }
    }
    fs.rmSync(kept, { recursive: true, force: true });
  };
}

function runBuilder(args, log) {
  return new Promise((resolve) => {
    const cli = path.join(root, "node_modules", "electron-builder", "cli.js");
    const child = spawn(process.execPath, [cli, "--publish", "never", ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    let pending = "";
    const take = (chunk) => {
      const text = chunk.toString("utf8");
      log.write(text);
      output = (output + text).slice(-KEEP_OUTPUT);
      const lines = (pending + text).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) if (line.trimStart().startsWith("•")) process.stdout.write(`${line}\n`);
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.on("error", (error) => resolve({ exitCode: 1, signal: null, output: `${output}${error.message}\n` }));
    child.on("close", (code, signal) => resolve({ exitCode: code ?? 1, signal, output }));
  });
}

async function main(args) {
  let interrupted = false;
  process.on("SIGINT", () => (interrupted = true));
  const logFile = path.join(root, "dist", "electron-builder.log");
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.createWriteStream(logFile);
  const restore = keepNativeBuilds();
  let run;
  try {
    run = await runBuilder(args, log);
  } finally {
    restore();
    await new Promise((resolve) => log.end(resolve));
  }
  if (interrupted || run.signal !== null) return 130;
  const failure = recogniseDistFailure(run);
  if (failure === undefined) {
    console.log(`baton: installers are in ${path.join(root, "dist")}`);
    return 0;
  }
  process.stderr.write(`\n${describeDistFailure(failure, { log: path.relative(process.cwd(), logFile) || logFile })}\n\n`);
  return 1;
}

process.exitCode = await main(process.argv.slice(2));
