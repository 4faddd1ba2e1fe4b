import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { COMMANDS, lazyCommand, main, type CommandSpec } from "../../src/main/commands/baton.js";
import { bufferIO, type CommandIO } from "../../src/main/commands/commandIO.js";
import { ensureCliBuilt } from "../support/cliBundle.js";

const repoRoot = path.resolve(import.meta.dirname, "../..");
const pkgVersion = (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string }).version;

function fake(name: string, run: (args: readonly string[], io: CommandIO) => Promise<number>): CommandSpec {
  return { name, module: `./${name}.js`, synopsis: "<x>", summary: `the ${name} command`, load: async () => ({ run }) };
}

async function dispatch(argv: readonly string[], commands: readonly CommandSpec[] = COMMANDS) {
  const io = bufferIO();
  const code = await main(argv, io, commands);
  return { code, out: io.out(), err: io.err() };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

describe("baton help", () => {
  for (const argv of [[], ["help"], ["--help"], ["-h"]]) {
    it(`\`baton ${argv.join(" ")}\` prints usage with every registered command's summary`, async () => {
      const { code, out, err } = await dispatch(argv);
      expect(code).toBe(0);
      expect(err).toBe("");
      expect(out).toMatch(/^Usage: baton <command>/);
      for (const spec of COMMANDS) expect(out).toMatch(new RegExp(`^  ${spec.name} +${escapeRegExp(spec.summary)}$`, "m"));
    });
  }

  it("lists only commands whose module exists and exports run()", async () => {
    expect(COMMANDS.map((c) => c.name)).toEqual(
      expect.arrayContaining(["doctor", "replay", "sessions", "export", "index", "search", "web"]),
    );
    for (const spec of COMMANDS) {
      const module = (await spec.load()) as { run?: unknown };
      expect(typeof module.run, spec.name).toBe("function");
    }
  });

  it("`baton help <command>` runs the command with --help", async () => {
    const seen: (readonly string[])[] = [];
    const spec = fake("alpha", async (args, io) => {
      seen.push(args);
      io.stdout("alpha help\n");
      return 0;
    });
    const { code, out } = await dispatch(["help", "alpha"], [spec]);
    expect(code).toBe(0);
    expect(out).toBe("alpha help\n");
    expect(seen).toEqual([["--help"]]);
  });
});

describe("baton dispatch", () => {
  it("prints the package version for --version and -v", async () => {
    for (const flag of ["--version", "-v"]) {
      const { code, out } = await dispatch([flag]);
      expect(code).toBe(0);
      expect(out).toBe(`baton ${pkgVersion}\n`);
    }
  });

  it("passes the remaining arguments and the IO to the command and returns its exit code", async () => {
    const spec = fake("alpha", async (args, io) => {
      io.stdout(`got ${args.join(",")}\n`);
      io.stderr("warn\n");
      return 3;
    });
    const { code, out, err } = await dispatch(["alpha", "a", "--b"], [spec, fake("beta", async () => 0)]);
    expect(code).toBe(3);
    expect(out).toBe("got a,--b\n");
    expect(err).toBe("warn\n");
  });

  it("rejects an unknown command with a clear error, the usage and exit code 2", async () => {
    const { code, out, err } = await dispatch(["frobnicate"]);
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err).toMatch(/^baton: unknown command "frobnicate"\n/);
    expect(err).toContain("Usage: baton <command>");
  });

  it("rejects an unknown option and help for an unknown command with exit code 2", async () => {
    expect((await dispatch(["--frob"])).err).toMatch(/^baton: unknown option "--frob"/);
    const help = await dispatch(["help", "frobnicate"]);
    expect(help.code).toBe(2);
    expect(help.err).toContain('unknown command "frobnicate"');
  });

  it("turns a command that throws into a one-line error and exit code 1", async () => {
    const spec = fake("alpha", async () => {
      throw new Error("disk on fire\nstack details");
    });
    const { code, err } = await dispatch(["alpha"], [spec]);
    expect(code).toBe(1);
    expect(err).toBe("baton alpha: disk on fire\n");
  });

  it("says clearly when a command's module is missing, without breaking help", async () => {
    const missing = lazyCommand("ghost", "./ghostCommandThatDoesNotExist.js", "", "never written");
    const { code, err } = await dispatch(["ghost"], [missing]);
    expect(code).toBe(1);
    expect(err).toMatch(/^baton: the "ghost" command is not available: its module is missing \(\.\/ghostCommandThatDoesNotExist\.js\)/);
    expect((await dispatch(["--help"], [missing])).out).toContain("ghost  never written");
  });

  it("reports a module without a run export as broken", async () => {
    const spec: CommandSpec = { ...fake("alpha", async () => 0), load: async () => ({ notRun: 1 }) };
    const { code, err } = await dispatch(["alpha"], [spec]);
    expect(code).toBe(1);
    expect(err).toContain("does not export run(args, io)");
  });
});

describe("npx baton (real process)", () => {
  const run = promisify(execFile);
  // What npx runs: the bundle in out/cli (a stale one would run the sources, with a note on stderr).
  beforeAll(() => void ensureCliBuilt(), 60_000);

  it("`npx baton --help` prints usage and exits 0", async () => {
    const { stdout, stderr } = await run("npx", ["--no-install", "baton", "--help"], { cwd: repoRoot });
    expect(stdout).toMatch(/^Usage: baton <command>/);
    expect(stdout).toContain("replay");
    expect(stderr).toBe("");
  }, 60_000); // a real npx start-up

  it("exits 2 on an unknown command", async () => {
    const failure = await run(process.execPath, [path.join(repoRoot, "bin/baton.mjs"), "frobnicate"], { cwd: repoRoot }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain('unknown command "frobnicate"');
  }, 60_000);
});
