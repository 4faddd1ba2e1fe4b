import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { claudeVersion } from "../../src/main/cli/claudeVersion.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-version-", "all");
let root: string;
const script = (name: string, body: string) => {
  const file = path.join(root, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
};
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    // A killed process stays a zombie until it is reaped; it no longer runs.
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return false;
  }
};
const sleep = ["/bin/sleep", "/usr/bin/sleep"].find((p) => existsSync(p)) ?? "sleep";

beforeAll(() => {
  root = tempDir();
});

describe("claudeVersion", () => {
  it("reads the version from the CLI's banner", async () => {
    expect(await claudeVersion(script("ok", "echo '2.1.332 (Claude Code)'"), 5000)).toEqual({ ok: true, version: "2.1.332", raw: "2.1.332 (Claude Code)" });
  });

  it("answers on time when the binary hangs, and leaves no child of it running", async () => {
    const pidFile = path.join(root, "child.pid");
    const started = Date.now();
    const result = await claudeVersion(script("hangs", `${sleep} 30 &\necho $! > '${pidFile}'\n${sleep} 30`), 300);
    expect(result).toEqual({ ok: false, reason: "no answer within 300 ms" });
    expect(Date.now() - started).toBeLessThan(5000);
    // The binary's own child (which held the output pipe) is stopped too, not left for 30 s.
    const child = Number(readFileSync(pidFile, "utf8"));
    await vi.waitFor(() => expect(alive(child)).toBe(false), { timeout: 5000, interval: 50 });
  });

  it("reports a crash with what the binary said, and output that is no version", async () => {
    expect(await claudeVersion(script("crash", "echo 'boom' >&2; exit 3"), 5000)).toEqual({ ok: false, reason: "exit code 3: boom" });
    expect(await claudeVersion(script("odd", "echo 'hello'"), 5000)).toEqual({ ok: false, reason: "unexpected output: hello" });
    expect(await claudeVersion(path.join(root, "absent"), 5000)).toMatchObject({ ok: false, reason: expect.stringContaining("ENOENT") });
  });
});
