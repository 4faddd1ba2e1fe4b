// The OS sandbox itself (issue 31), with real bubblewrap and socat: what each preset's command may
// write and reach is held by the kernel, whatever the command line does; the files that run code
// later are protected even inside the write root, also before they exist; and the placeholders
// bubblewrap makes for those stay until no sandboxed command of any host runs.

import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Preset } from "../../src/shared/policy.js";
import { builtinPresetSet } from "../../src/main/policy/presets/builtinPresets.js";
import { sandboxPlan } from "../../src/main/sandbox/sandboxPlan.js";
import { SandboxService, SandboxUnavailableError, type SandboxLease } from "../../src/main/sandbox/sandboxService.js";
import { tempDirs } from "../support/tempDirs.js";

const presets = builtinPresetSet().presets;
const preset = (name: string): Preset => presets.find((p) => p.name === name)!;

interface Ran {
  readonly code: number | null;
  readonly output: string;
}

/** Runs a wrapped command as the CLI's shell would, in `cwd`. */
function run(command: string, cwd: string): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", command], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("the OS sandbox (bubblewrap)", () => {
  const tempDir = tempDirs("baton-sandbox-test-", "all");
  let base: string;
  let workspace: string;
  let home: string;
  let outside: string;
  let service: SandboxService;

  beforeAll(() => {
    base = tempDir();
    home = path.join(base, "home", "user");
    workspace = path.join(home, "code", "project");
    outside = path.join(base, "outside");
    fs.mkdirSync(path.join(workspace, ".git", "hooks"), { recursive: true });
    fs.writeFileSync(path.join(workspace, ".git", "config"), "[core]\n\tbare = false\n");
    fs.mkdirSync(outside, { recursive: true });
    service = new SandboxService();
  });

  afterAll(async () => {
    await service?.close();
  });

  async function wrapped(name: string, command: string, extra: { worktree?: string } = {}): Promise<SandboxLease> {
    const plan = sandboxPlan({ preset: preset(name), workspace, home, ...extra });
    return service.wrap(plan, command, plan.writeRoots[0] ?? workspace);
  }

  it("lets a coder write inside its workspace and its temporary folder, and nowhere else", async () => {
    const lease = await wrapped("coder", `echo made > inside.txt && echo tmp > "$TMPDIR/t" && cat "$TMPDIR/t"; echo escaped > ${outside}/direct.txt; echo escaped > ../../escaped.txt; echo $?`);
    const ran = await run(lease.command, workspace);
    lease.release();
    expect(fs.readFileSync(path.join(workspace, "inside.txt"), "utf8")).toBe("made\n");
    expect(ran.output).toContain("tmp\n");
    expect(ran.output).toMatch(/Read-only file system/);
    expect(fs.existsSync(path.join(outside, "direct.txt"))).toBe(false);
    expect(fs.existsSync(path.join(home, "escaped.txt"))).toBe(false);
  });

  it("holds against what no reader of the line sees: arithmetic evaluation, eval of built text, a symlink out, toolchain options", async () => {
    fs.symlinkSync(outside, path.join(workspace, "link-out"));
    const tricks = [
      `x='a[$(echo tricked > ${outside}/arith.txt)]'; echo $((x))`,
      `test -v 'b[$(echo tricked > ${outside}/testv.txt)]'`,
      `eval "$(printf 'echo tricked > %s' ${outside}/eval.txt)"`,
      `echo tricked > link-out/link.txt`,
      `cargo new --vcs none ${outside}/crate`,
    ];
    const lease = await wrapped("coder", tricks.join("; "));
    await run(lease.command, workspace);
    lease.release();
    for (const file of ["arith.txt", "testv.txt", "eval.txt", "link.txt", "crate"]) expect(fs.existsSync(path.join(outside, file)), file).toBe(false);
  });

  it("protects git's config and hooks, Claude Code's settings and .mcp.json inside the root, also before they exist, and cleans up its placeholders", async () => {
    const lease = await wrapped(
      "coder",
      ["echo '[core] fsmonitor = evil' >> .git/config", "echo evil > .git/hooks/pre-commit", "mkdir -p .claude && echo '{}' > .claude/settings.json", "echo '{}' > .mcp.json", "echo ok > allowed.txt"].join("; "),
    );
    await run(lease.command, workspace);
    expect(fs.readFileSync(path.join(workspace, ".git", "config"), "utf8")).not.toContain("evil");
    expect(fs.existsSync(path.join(workspace, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(fs.readFileSync(path.join(workspace, "allowed.txt"), "utf8")).toBe("ok\n");
    lease.release();
    // Nothing was written there, and what bubblewrap made to mount over is gone once the command ended.
    await expect.poll(() => fs.existsSync(path.join(workspace, ".mcp.json"))).toBe(false);
    await expect.poll(() => fs.existsSync(path.join(workspace, ".claude", "settings.json"))).toBe(false);
  });

  it("keeps a placeholder while another host's command still runs, so its protection holds to the end", async () => {
    // A coder (no network) and a worker (the registries' host) at once; the coder ends first.
    const marker = path.join(base, "worker-may-go");
    const worker = await wrapped("worker", `while [ ! -e ${marker} ]; do sleep 0.05; done; echo '{}' > .mcp.json; echo worker-done`);
    const coder = await wrapped("coder", "true");
    const workerRun = run(worker.command, workspace);
    await run(coder.command, workspace);
    coder.release();
    fs.writeFileSync(marker, "");
    const ran = await workerRun;
    worker.release();
    expect(ran.output).toContain("worker-done");
    await expect.poll(() => fs.existsSync(path.join(workspace, ".mcp.json"))).toBe(false);
  });

  it("lets a scout write nothing at all and reach no host; an analyst only its temporary folder, and any host", async () => {
    // The proxy marks what it refuses; a host it lets through answers however the network allows.
    const probe = (url: string) => `curl -sS -m 20 -D - -o /dev/null ${url} 2>&1 | grep -i '^x-proxy-error' || echo not-refused`;
    const scout = await wrapped("scout", `echo x > scout.txt; echo x > "\${TMPDIR:-/tmp}/scout"; ${probe("http://example.com")}`);
    const ranScout = await run(scout.command, workspace);
    scout.release();
    expect(fs.existsSync(path.join(workspace, "scout.txt"))).toBe(false);
    expect(ranScout.output).toMatch(/X-Proxy-Error: blocked/i);
    const analyst = await wrapped("analyst", `echo x > analyst.txt; echo t > "$TMPDIR/a" && echo temp-ok; ${probe("http://example.com")}`);
    const ranAnalyst = await run(analyst.command, workspace);
    analyst.release();
    expect(fs.existsSync(path.join(workspace, "analyst.txt"))).toBe(false);
    expect(ranAnalyst.output).toContain("temp-ok");
    expect(ranAnalyst.output).toContain("not-refused");
  });

  it("lets a worker reach its package registries and nothing else", async () => {
    const worker = await wrapped("worker", `${["http://example.com", "https://registry.npmjs.org/"].map((url) => `echo ${url}; curl -sS -m 20 -D - -o /dev/null ${url} 2>&1 | grep -i '^x-proxy-error' || echo not-refused`).join("; ")}`);
    const ran = await run(worker.command, workspace);
    worker.release();
    expect(ran.output).toMatch(/example\.com\nX-Proxy-Error: blocked/i);
    expect(ran.output).toMatch(/registry\.npmjs\.org\/\nnot-refused/);
  });

  it("writes only the agent's own worktree when it has one, and keeps its .git pointer", async () => {
    const worktree = path.join(workspace, ".claude", "worktrees", "agent-abc");
    fs.mkdirSync(worktree, { recursive: true });
    fs.writeFileSync(path.join(worktree, ".git"), `gitdir: ${workspace}/.git/worktrees/agent-abc\n`);
    const lease = await wrapped("coder", `echo w > in-worktree.txt; echo m > ${workspace}/main.txt; echo 'gitdir: /elsewhere' > .git`, { worktree });
    await run(lease.command, worktree);
    lease.release();
    expect(fs.existsSync(path.join(worktree, "in-worktree.txt"))).toBe(true);
    expect(fs.existsSync(path.join(workspace, "main.txt"))).toBe(false);
    expect(fs.readFileSync(path.join(worktree, ".git"), "utf8")).toContain("agent-abc");
  });

  it("says what to install where no sandbox can run, and refuses to wrap", async () => {
    const none = new SandboxService({ probe: async () => ({ ok: false, missing: ["bubblewrap"], message: "No OS sandbox: install bubblewrap" }) });
    const plan = sandboxPlan({ preset: preset("coder"), workspace, home });
    await expect(none.wrap(plan, "true", workspace)).rejects.toBeInstanceOf(SandboxUnavailableError);
    await none.close();
  });
});
