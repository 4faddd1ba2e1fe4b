import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { bufferIO } from "../../src/main/commands/commandIO.js";
import { run, type DoctorOptions } from "../../src/main/commands/doctor.js";
import { TestedCliVersions } from "../../src/shared/testedCliVersions.js";
import { tempDirs } from "../support/tempDirs.js";

const repo = path.resolve(import.meta.dirname, "../..");
/** Baton's own test copy, which npm puts first on PATH for `npx baton doctor`. */
const ownBin = path.join(repo, "node_modules", ".bin");

const tempDir = tempDirs("baton-doctor-", "all");
let root: string;
/** A stand-in `claude` in a folder of its own (a PATH entry) printing `script`'s output. */
const fakeClaude = (name: string, script: string): string => {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "claude");
  writeFileSync(file, `#!/bin/sh\n${script}\n`);
  chmodSync(file, 0o755);
  return dir;
};
const versionPrinter = (name: string, version: string) => fakeClaude(name, `echo '${version} (Claude Code)'`);

beforeAll(() => {
  root = tempDir();
  mkdirSync(path.join(root, "projects", "-home-user-code-a"), { recursive: true });
  mkdirSync(path.join(root, "projects", "-home-user-code-b"), { recursive: true });
  mkdirSync(path.join(root, "home"), { recursive: true });
  versionPrinter("v197", TestedCliVersions[0]);
  versionPrinter("v332", TestedCliVersions[1]);
  versionPrinter("old", "2.0.76");
  versionPrinter("new", "2.2.0");
  versionPrinter("mid", "2.1.250");
  fakeClaude("broken", "echo 'segfault-ish' >&2\nexit 7");
  // Hangs, and so does a child holding the output pipe: the answer must still come on time.
  // (The test's PATH holds only fake claudes, so sleep is named by its full path.)
  const sleep = ["/bin/sleep", "/usr/bin/sleep"].find((p) => existsSync(p)) ?? "sleep";
  fakeClaude("hangs", `${sleep} 30 &\n${sleep} 30`);
});

/** The doctor with a PATH of our choosing and empty install places (this machine's stay out). */
async function doctor(args: string[], PATH: string[], extra: DoctorOptions = {}) {
  const io = bufferIO();
  const home = path.join(root, "home");
  const options: DoctorOptions = {
    env: { PATH: PATH.join(path.delimiter), HOME: home },
    homeDir: home,
    installDirs: [path.join(home, ".local", "bin")],
    settingsFile: path.join(home, ".config", "baton", "settings.json"),
    ...extra,
  };
  const code = await run([...args, "--projects-dir", path.join(root, "projects")], io, options);
  return { code, out: io.out() };
}
const json = async (PATH: string[], extra: DoctorOptions = {}) => {
  const { code, out } = await doctor(["--json"], PATH, extra);
  return { code, report: JSON.parse(out) };
};

describe("baton doctor", () => {
  it("reports the claude path, how it was found, its version, the projects dir and node", async () => {
    const io = bufferIO();
    const code = await run(["--claude", path.join(root, "v197", "claude"), "--projects-dir", path.join(root, "projects"), "--json"], io);
    const report = JSON.parse(io.out());
    expect(code).toBe(0);
    expect(report.claude).toMatchObject({ found: true, path: path.join(root, "v197", "claude"), source: "option", version: "2.1.197", tested: "tested" });
    expect(report.projects).toMatchObject({ dir: path.join(root, "projects"), exists: true, projectCount: 2 });
    expect(report.node.version).toBe(process.versions.node);
  });

  it("skips Baton's own node_modules/.bin first on PATH and runs the person's claude, naming the PATH entry", async () => {
    const mine = path.join(root, "v332");
    const { code, out } = await doctor([], [ownBin, path.join(root, "nothing-here"), mine]);
    expect(code).toBe(0);
    expect(out).toContain(`claude:    ${path.join(mine, "claude")} (found via PATH entry 3, ${mine})`);
    expect(out).toContain("version:   2.1.332 (tested)");
    expect(out).toContain(`note: skipped ${path.join(ownBin, "claude")}: Baton's own copy of claude`);

    const { report } = await json([ownBin, mine]);
    expect(report.claude).toMatchObject({
      found: true,
      path: path.join(mine, "claude"),
      source: "path",
      pathEntry: mine,
      pathIndex: 2,
      version: "2.1.332",
      tested: "tested",
      testedVersions: ["2.1.197", "2.1.332"],
      skipped: [path.join(ownBin, "claude")],
    });
  });

  it("with only Baton's own copy on PATH, says claude is not found rather than using it", async () => {
    const { code, out } = await doctor([], [ownBin]);
    expect(code).toBe(1);
    expect(out).toContain("NOT FOUND");
    expect(out).toContain("problem: claude CLI not found on PATH or in the usual install places");
    expect(out).toMatch(/node_modules\/\.bin\/claude \(PATH entry 1, .*\): skipped, Baton's own copy for its tests/);
  });

  it("says plainly when the version is older, newer or between the tested ones (a note, not a failure)", async () => {
    const older = await doctor([], [path.join(root, "old")]);
    expect(older.code).toBe(0);
    expect(older.out).toContain("version:   2.0.76 (OLDER than tested)");
    expect(older.out).toContain("note: claude 2.0.76 is older than any version Baton is tested with (2.1.197–2.1.332): things may look wrong.");

    const newer = await doctor([], [path.join(root, "new")]);
    expect(newer.out).toContain("note: claude 2.2.0 is newer than any version Baton is tested with (2.1.197–2.1.332): things may look wrong.");

    expect((await json([path.join(root, "old")])).report.claude.tested).toBe("older");
    expect((await json([path.join(root, "new")])).report.claude.tested).toBe("newer");
    expect((await json([path.join(root, "mid")])).report.claude.tested).toBe("between");
    expect((await json([path.join(root, "v197")])).report.claude.tested).toBe("tested");
  });

  it("reports a claude that hangs on --version within the timeout, with the rest of the report", async () => {
    const started = Date.now();
    const { code, out } = await doctor([], [path.join(root, "hangs")], { versionTimeoutMs: 500 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(code).toBe(1);
    expect(out).toContain(`claude:    ${path.join(root, "hangs", "claude")} (found via PATH entry 1`);
    expect(out).toContain("version:   unknown (no answer within 500 ms)");
    expect(out).toContain("projects:  ");
  });

  it("exits 1 and says what is wrong when claude is missing", async () => {
    const io = bufferIO();
    const code = await run(["--claude", path.join(root, "missing"), "--projects-dir", path.join(root, "nowhere")], io);
    expect(code).toBe(1);
    expect(io.out()).toContain("NOT FOUND");
    expect(io.out()).toMatch(/problem: claude not usable at .*missing \(missing\), set by --claude/);
    expect(io.out()).toMatch(/nowhere.*does not exist/);
  });

  it("exits 1 when claude crashes on --version, and shows what it said", async () => {
    const { code, out } = await doctor([], [path.join(root, "broken")]);
    expect(code).toBe(1);
    expect(out).toContain("segfault-ish");
    expect(out).toContain("exit code 7");
  });

  it("says when the presets file is broken and the built-ins are in force (a note), and whether orchestration is on", async () => {
    const settingsFile = path.join(root, "doctor-config", "settings.json");
    mkdirSync(path.dirname(settingsFile), { recursive: true });
    writeFileSync(settingsFile, JSON.stringify({ orchestration: true }));
    writeFileSync(path.join(path.dirname(settingsFile), "presets.json"), JSON.stringify({ version: 1, presets: [{ name: "coder" }], refused: [] }));
    const { code, out } = await doctor([], [path.join(root, "v332")], { settingsFile });
    expect(code).toBe(0);
    expect(out).toContain("presets:   built-in (the file is not used: built-ins in force); orchestration on");
    expect(out).toMatch(/note: .*presets\.json: preset "coder"/);
    const { report } = await json([path.join(root, "v332")], { settingsFile });
    expect(report.policy).toMatchObject({ orchestration: true, presets: "built-in", presetsProblem: expect.stringContaining("presets.json") });
  });

  it("says what holds preset agents' commands: the OS sandbox, what to install for it, or policy check only", async () => {
    // bubblewrap, socat and ripgrep where this machine has them (.ci/run installs them).
    const sandboxDirs = [...new Set(["bwrap", "socat", "rg"].flatMap((p) => (process.env["PATH"] ?? "").split(path.delimiter).filter((d) => existsSync(path.join(d, p)))))];
    const withSandbox = await doctor([], [path.join(root, "v332"), ...sandboxDirs]);
    expect(withSandbox.out).toContain("sandbox:   OS sandbox: bubblewrap");
    const without = await json([path.join(root, "v332")]);
    expect(without.report.sandbox).toMatchObject({ state: "unavailable", missing: ["bubblewrap", "socat", "ripgrep"] });
    const text = await doctor([], [path.join(root, "v332")]);
    expect(text.out).toContain("sandbox:   none (install bubblewrap, socat, ripgrep)");
    expect(text.out).toMatch(/note: No OS sandbox: install bubblewrap, socat and ripgrep .*orchestration mode refuses preset agents' Bash/);
    const settingsFile = path.join(root, "doctor-check-only", "settings.json");
    mkdirSync(path.dirname(settingsFile), { recursive: true, mode: 0o700 });
    writeFileSync(settingsFile, JSON.stringify({ policyCheckOnly: true }), { mode: 0o600 });
    const checkOnly = await doctor([], [path.join(root, "v332"), ...sandboxDirs], { settingsFile });
    expect(checkOnly.out).toContain("sandbox:   policy check only (no OS sandbox)");
  });

  it("names a config file it refuses (writable by others, a link to another user's file) with the problem, in text and --json", async () => {
    const settingsFile = path.join(root, "doctor-untrusted", "settings.json");
    mkdirSync(path.dirname(settingsFile), { recursive: true });
    writeFileSync(settingsFile, JSON.stringify({ orchestration: true }));
    chmodSync(settingsFile, 0o666);
    const rules = path.join(path.dirname(settingsFile), "rules.json");
    writeFileSync(rules, JSON.stringify({ version: 1, rules: [] }));
    chmodSync(rules, 0o664);
    const { code, out } = await doctor([], [path.join(root, "v332")], { settingsFile });
    expect(code).toBe(0);
    expect(out).toContain(`note: ${settingsFile} is writable by others (mode 0666): Baton does not read it (Baton's settings are at their defaults); run chmod 600 ${settingsFile}`);
    expect(out).toContain(`note: ${rules} is writable by its group (mode 0664): Baton does not read it (none of its rules are in force); run chmod 600 ${rules}`);
    expect(out).toContain("orchestration off");
    const { report } = await json([path.join(root, "v332")], { settingsFile });
    expect(report.policy).toMatchObject({
      orchestration: false,
      settingsProblem: expect.stringContaining(`${settingsFile} is writable by others`),
      rulesProblem: expect.stringContaining(`${rules} is writable by its group`),
    });
    expect(report.policy.presetsProblem).toBeUndefined();
  });

  it("says apart what works without claude (history, search, web) from live sessions, whose start the exit code tells", async () => {
    const withClaude = await doctor([], [path.join(root, "v332")]);
    expect(withClaude.code).toBe(0);
    expect(withClaude.out).toContain("History, search, web: work.\nLive sessions: can start.\n");
    const withJson = await json([path.join(root, "v332")]);
    expect(withJson.code).toBe(0);
    expect(withJson.report).toMatchObject({ ok: true, browse: { ok: true, search: true }, live: { ok: true } });

    const without = await doctor([], [path.join(root, "nothing-here")]);
    expect(without.code).toBe(1);
    expect(without.out).toContain("History, search, web: work.\nLive sessions: need `claude`, see the problem above (exit code 1).\n");
    expect(without.out).not.toContain("Baton cannot run");
    const withoutJson = await json([path.join(root, "nothing-here")]);
    expect(withoutJson.code).toBe(1);
    expect(withoutJson.report).toMatchObject({ ok: false, browse: { ok: true, search: true }, live: { ok: false, problem: expect.stringContaining("claude CLI not found") } });

    // Found but unusable: the same exit code, said as a claude to fix rather than to install.
    const broken = await doctor([], [path.join(root, "broken")]);
    expect(broken.code).toBe(1);
    expect(broken.out).toContain("History, search, web: work.\nLive sessions: cannot start until the problem above is fixed (exit code 1).\n");
  });

  it("rejects unknown options with usage (exit 2)", async () => {
    const io = bufferIO();
    expect(await run(["--bogus"], io)).toBe(2);
    expect(io.err()).toContain("Usage: baton doctor");
  });
});
