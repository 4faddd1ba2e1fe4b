// bin/baton.mjs chooses what runs: the bundle in out/cli while no source it was built from has
// changed (scripts/cliBundle.mjs), else the sources through tsx after a one-line note, else (no
// tsx) a clear error. Each case in a package folder of its own holding the real bin/baton.mjs and
// scripts/cliBundle.mjs, with a stub bundle and a stub source entry that say which one ran.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { cliBundleState } from "../../scripts/cliBundle.mjs";
import { tempDirs } from "../support/tempDirs.js";

const repoRoot = path.resolve(import.meta.dirname, "../..");
const tempDir = tempDirs("baton-bin-");
const exec = promisify(execFile);

const SourceEntry = "src/main/commands/batonProcess.ts";
const Source = "src/main/shared.ts";

function write(root: string, file: string, text: string, mtime?: Date): void {
  const full = path.join(root, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
  if (mtime) fs.utimesSync(full, mtime, mtime);
}

/** A package folder with the real bin and freshness check; the bundle built at `builtAt` from two sources written before it. */
function packageFolder(options: { bundle: boolean; sources: boolean; tsx: boolean }): { root: string; builtAt: Date } {
  const root = tempDir();
  const builtAt = new Date(Date.now() - 60_000);
  const before = new Date(builtAt.getTime() - 60_000);
  fs.mkdirSync(path.join(root, "bin"));
  fs.mkdirSync(path.join(root, "scripts"));
  fs.copyFileSync(path.join(repoRoot, "bin", "baton.mjs"), path.join(root, "bin", "baton.mjs"));
  fs.copyFileSync(path.join(repoRoot, "scripts", "cliBundle.mjs"), path.join(root, "scripts", "cliBundle.mjs"));
  write(root, "package.json", JSON.stringify({ name: "baton", version: "0.0.0", type: "module" }));
  if (options.bundle) {
    write(root, "out/cli/baton.js", 'process.stdout.write(`bundle ${process.argv.slice(2).join(" ")}`);\nprocess.exitCode = 3;\n');
    write(root, "out/cli/inputs.json", JSON.stringify({ startedAt: builtAt.getTime(), inputs: [SourceEntry, Source] }));
  }
  if (options.sources) {
    const typed = 'const code: number = 4;\nprocess.stdout.write(`sources ${process.argv.slice(2).join(" ")}`);\nprocess.exitCode = code;\n';
    write(root, SourceEntry, typed, before);
    write(root, Source, "export const x = 1;\n", before);
  }
  if (options.tsx) {
    fs.mkdirSync(path.join(root, "node_modules"));
    fs.symlinkSync(path.join(repoRoot, "node_modules", "tsx"), path.join(root, "node_modules", "tsx"));
  }
  return { root, builtAt };
}

async function runBin(root: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return exec(process.execPath, [path.join(root, "bin", "baton.mjs"), ...args], { cwd: root }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

describe("cliBundleState", () => {
  it("is fresh while no source the bundle was made from changed since its build began", () => {
    const { root } = packageFolder({ bundle: true, sources: true, tsx: false });
    expect(cliBundleState(root)).toEqual({ fresh: true });
  });

  it("names the first source changed since, and counts a source gone as changed", () => {
    const { root, builtAt } = packageFolder({ bundle: true, sources: true, tsx: false });
    const after = new Date(builtAt.getTime() + 1000);
    fs.utimesSync(path.join(root, Source), after, after);
    expect(cliBundleState(root)).toEqual({ fresh: false, why: `${Source} changed since out/cli was built` });
    fs.rmSync(path.join(root, Source));
    expect(cliBundleState(root)).toEqual({ fresh: false, why: `${Source} changed since out/cli was built` });
  });

  it("is not built without the bundle or a readable build record", () => {
    const { root } = packageFolder({ bundle: false, sources: true, tsx: false });
    expect(cliBundleState(root)).toEqual({ fresh: false, why: "out/cli is not built" });
    write(root, "out/cli/inputs.json", "{not json");
    write(root, "out/cli/baton.js", "");
    expect(cliBundleState(root)).toEqual({ fresh: false, why: "out/cli is not built" });
  });

  it("is fresh in a copy without the sources: nothing newer could run", () => {
    const { root } = packageFolder({ bundle: true, sources: false, tsx: false });
    expect(cliBundleState(root)).toEqual({ fresh: true });
  });
});

describe("bin/baton.mjs", () => {
  it("runs the bundle when it is fresh: its output and exit code, nothing on stderr", async () => {
    const { root } = packageFolder({ bundle: true, sources: true, tsx: true });
    expect(await runBin(root, "search", "word")).toEqual({ code: 3, stdout: "bundle search word", stderr: "" });
  });

  it("runs the sources through tsx when a source changed, after one line saying why and what to run", async () => {
    const { root, builtAt } = packageFolder({ bundle: true, sources: true, tsx: true });
    const after = new Date(builtAt.getTime() + 1000);
    fs.utimesSync(path.join(root, SourceEntry), after, after);
    const ran = await runBin(root, "search", "word");
    expect(ran).toMatchObject({ code: 4, stdout: "sources search word" });
    expect(ran.stderr).toBe(
      `baton: ${SourceEntry} changed since out/cli was built; running the sources through tsx (slow to start): \`npm run build:cli\` brings out/cli up to date\n`,
    );
  }, 30_000);

  it("runs the sources when the bundle was never built", async () => {
    const { root } = packageFolder({ bundle: false, sources: true, tsx: true });
    const ran = await runBin(root, "--version");
    expect(ran).toMatchObject({ code: 4, stdout: "sources --version" });
    expect(ran.stderr).toMatch(/^baton: out\/cli is not built; running the sources through tsx/);
  }, 30_000);

  it("without a bundle or tsx, says what to run and exits 1", async () => {
    const { root } = packageFolder({ bundle: false, sources: true, tsx: false });
    expect(await runBin(root, "--version")).toEqual({
      code: 1,
      stdout: "",
      stderr: `baton: out/cli is not built, and tsx is not installed to run the sources: run \`npm install\` in ${root}\n`,
    });
  });
});
