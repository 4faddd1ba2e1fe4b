// `baton sandbox` (issue 31): a command runs exactly as the preset's Bash call would, with real
// bubblewrap: the policy's refusal exits 126 with its reason, what the policy cannot see the
// kernel still holds, the command's output and exit code come through; "policy check only" runs
// it without the sandbox and says so.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { bufferIO } from "../../src/main/commands/commandIO.js";
import { run } from "../../src/main/commands/sandbox.js";
import { tempDirs } from "../support/tempDirs.js";

describe("baton sandbox", () => {
  const tempDir = tempDirs("baton-sandbox-command-", "all");
  let base: string;
  let workspace: string;
  let outside: string;
  let settings: string;

  beforeAll(() => {
    base = tempDir();
    workspace = path.join(base, "project");
    outside = path.join(base, "outside");
    fs.mkdirSync(workspace);
    fs.mkdirSync(outside);
    settings = path.join(base, "config", "settings.json");
    fs.mkdirSync(path.dirname(settings), { mode: 0o700 });
    // What `npm test` runs is what no reader of the line sees.
    fs.writeFileSync(path.join(workspace, "package.json"), JSON.stringify({ name: "p", version: "1.0.0", scripts: { test: `echo escaped > ${outside}/npm.txt; echo in > inside.txt; echo script-ran` } }));
  });

  const sandbox = async (...args: string[]) => {
    const io = bufferIO();
    const code = await run(["--settings", settings, ...args], io);
    return { code, out: io.out(), err: io.err() };
  };

  it("runs what the preset may run inside its sandbox, and passes the command's output and exit code through", async () => {
    const made = await sandbox("coder", "--cwd", workspace, "--", "echo", "made", ">", "made.txt;", "echo", "done");
    expect(made).toMatchObject({ code: 0, out: "done\n" });
    expect(fs.readFileSync(path.join(workspace, "made.txt"), "utf8")).toBe("made\n");
    expect((await sandbox("coder", "--cwd", workspace, "--", "exit 7")).code).toBe(7);
  });

  it("exits 126 with the policy's reason when the preset may not run the command", async () => {
    const refused = await sandbox("coder", "--cwd", workspace, "--", "npm install left-pad");
    expect(refused.code).toBe(126);
    expect(refused.err).toContain("refused by Baton's policy (preset:coder/exec)");
    expect(refused.err).toContain("npm");
    expect(fs.existsSync(path.join(workspace, "node_modules"))).toBe(false);
  });

  it("lets the kernel hold what the policy cannot see: npm test's script writes inside, not outside", async () => {
    const ran = await sandbox("coder", "--cwd", workspace, "--", "npm test");
    expect(ran.out).toContain("script-ran");
    expect(ran.err).toMatch(/npm\.txt: Read-only file system/);
    expect(fs.existsSync(path.join(outside, "npm.txt"))).toBe(false);
    expect(fs.readFileSync(path.join(workspace, "inside.txt"), "utf8")).toBe("in\n");
  });

  it("refuses an unknown preset and a missing command as usage errors", async () => {
    expect((await sandbox("nobody", "--", "true")).code).toBe(2);
    expect((await sandbox("coder")).code).toBe(2);
  });

  it("with policy check only, runs the command without the OS sandbox and says so", async () => {
    fs.writeFileSync(settings, JSON.stringify({ policyCheckOnly: true }), { mode: 0o600 });
    try {
      const ran = await sandbox("coder", "--cwd", workspace, "--", "npm test");
      expect(ran.err).toContain("policy check only is on");
      expect(fs.readFileSync(path.join(outside, "npm.txt"), "utf8")).toBe("escaped\n");
    } finally {
      fs.rmSync(settings);
      fs.rmSync(path.join(outside, "npm.txt"), { force: true });
    }
  });
});
