// `baton claude` as a process, with a stand-in `claude` (a shell script named by BATON_CLAUDE_PATH)
// that reports what it was given: the person's arguments after Baton's --settings, the hook
// command an absolute node and bin, stdio the terminal's, the exit code and the signal passed
// through, nothing written to HOME. The real CLI under these settings: test/integration/terminalHooks.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureCliBuilt } from "../support/cliBundle.js";
import { tempDirs } from "../support/tempDirs.js";

const repoRoot = path.resolve(import.meta.dirname, "../..");
const tempDir = tempDirs("baton-claude-cmd-");
beforeAll(() => void ensureCliBuilt(), 60_000);

/**
 * A stand-in claude: writes its arguments (one per line) to $ARGS_FILE, reads a line, then does
 * what $THEN says (an exit code, kill itself, or wait). Waiting, it says what it read only once it
 * is the process that waits (node, exec'ed): a SIGTERM sent on seeing that line then always finds
 * the waiting process, never the shell on its way to exec (seen: the shell lived on as a sleep
 * holding the test's pipe).
 */
function fakeClaude(dir: string): string {
  const file = path.join(dir, "claude");
  const waiter = `exec "${process.execPath}" -e 'console.log("claude read: " + process.argv[1]); setInterval(() => {}, 1000)' "$line"`;
  fs.writeFileSync(
    file,
    ['#!/bin/sh', 'for a in "$@"; do printf "%s\\n" "$a"; done > "$ARGS_FILE"', 'echo $$ > "$ARGS_FILE.pid"', "read line", 'case "$THEN" in', `  wait) ${waiter} ;;`, "esac", 'echo "claude read: $line"', 'case "$THEN" in', '  kill) kill -TERM $$ ;;', '  *) exit "$THEN" ;;', "esac", ""].join("\n"),
    { mode: 0o755 },
  );
  return file;
}

function batonClaude(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  stdin: string,
  started?: (child: ReturnType<typeof spawn>) => void,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(repoRoot, "bin/baton.mjs"), "claude", ...args], { env, stdio: ["pipe", "pipe", "inherit"] });
    started?.(child);
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.on("close", (code, signal) => resolve({ code, signal, stdout }));
    child.stdin.end(stdin);
  });
}

describe("baton claude (process)", () => {
  it("runs claude with Baton's --settings first, then every argument as given, on the terminal's stdio", async () => {
    const dir = tempDir();
    const home = path.join(dir, "home");
    fs.mkdirSync(home);
    const argsFile = path.join(dir, "args.txt");
    const env = { ...process.env, HOME: home, BATON_CLAUDE_PATH: fakeClaude(dir), ARGS_FILE: argsFile, THEN: "0" };
    const run = await batonClaude(["--resume", "abc-123", "a prompt with 'quotes' and $dollars"], env, "typed into the terminal\n");
    expect(run).toEqual({ code: 0, signal: null, stdout: "claude read: typed into the terminal\n" });
    const [flag, settings, ...rest] = fs.readFileSync(argsFile, "utf8").split("\n").slice(0, -1);
    expect(flag).toBe("--settings");
    expect(rest).toEqual(["--resume", "abc-123", "a prompt with 'quotes' and $dollars"]);
    const command = (JSON.parse(settings!) as { hooks: { PreToolUse: { hooks: { command: string }[] }[] } }).hooks.PreToolUse[0]!.hooks[0]!.command;
    expect(command).toBe(`${process.execPath} ${path.join(repoRoot, "bin", "baton.mjs")} hook`);
    expect(fs.readdirSync(home)).toEqual([]);
  }, 30_000);

  it("takes a first --orchestration as its own: the hook says it, claude never sees it", async () => {
    const dir = tempDir();
    const argsFile = path.join(dir, "args.txt");
    const env = { ...process.env, BATON_CLAUDE_PATH: fakeClaude(dir), ARGS_FILE: argsFile, THEN: "0" };
    await batonClaude(["--orchestration", "-c"], env, "x\n");
    const [, settings, ...rest] = fs.readFileSync(argsFile, "utf8").split("\n").slice(0, -1);
    expect(rest).toEqual(["-c"]);
    expect(JSON.parse(settings!).hooks.Stop[0].hooks[0].command).toMatch(/ hook --orchestration$/);
  }, 30_000);

  it("exits with claude's exit code", async () => {
    const dir = tempDir();
    const env = { ...process.env, BATON_CLAUDE_PATH: fakeClaude(dir), ARGS_FILE: path.join(dir, "args.txt"), THEN: "7" };
    await expect(batonClaude([], env, "x\n")).resolves.toMatchObject({ code: 7, signal: null });
  }, 30_000);

  it("ends by the signal that ended claude", async () => {
    const dir = tempDir();
    const env = { ...process.env, BATON_CLAUDE_PATH: fakeClaude(dir), ARGS_FILE: path.join(dir, "args.txt"), THEN: "kill" };
    await expect(batonClaude([], env, "x\n")).resolves.toMatchObject({ code: null, signal: "SIGTERM" });
  }, 30_000);

  it("passes a SIGTERM sent to Baton on to claude, and ends as claude did", async () => {
    const dir = tempDir();
    const env = { ...process.env, BATON_CLAUDE_PATH: fakeClaude(dir), ARGS_FILE: path.join(dir, "args.txt"), THEN: "wait" };
    const run = await batonClaude([], env, "x\n", (child) => {
      // Once claude has read its line it sleeps; then Baton alone is sent SIGTERM.
      child.stdout!.on("data", () => child.kill("SIGTERM"));
    });
    expect(run).toMatchObject({ code: null, signal: "SIGTERM", stdout: "claude read: x\n" });
    // Baton waited for claude to end: its process is gone, not left running.
    const claudePid = Number(fs.readFileSync(path.join(dir, "args.txt.pid"), "utf8"));
    expect(() => process.kill(claudePid, 0)).toThrow();
  }, 30_000);

  it("says where it looked when there is no claude, and exits 1", async () => {
    const env = { ...process.env, BATON_CLAUDE_PATH: path.join(tempDir(), "no-claude-here") };
    const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [path.join(repoRoot, "bin/baton.mjs"), "claude"], { env, stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
      child.on("close", (code) => resolve({ code, stderr }));
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("claude was not found");
    expect(run.stderr).toContain("no-claude-here (BATON_CLAUDE_PATH): missing");
  }, 30_000);
});
