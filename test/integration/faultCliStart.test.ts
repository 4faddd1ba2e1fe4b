// Faults survived: a CLI that cannot start. It exits at once with its own message on stderr (the
// real CLI asked to resume a conversation that is not there; the real CLI given an option it does
// not know), it is not there, it is not executable. Each time Baton shows the CLI's own words
// and what to do, leaves no process behind and no half-made tab, and the next attempt works.
import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectFolderName } from "../../src/main/platform/projectsDir.js";
import { text } from "../support/scenarios/types.js";
import { childrenRunning, theChild } from "../support/faults/cliProcesses.js";
import { noticesOf, startFaultApp, value, type FaultApp } from "../support/faults/faultApp.js";

const WhatToDo = "To see why, run claude in a terminal in this folder; baton doctor checks the install.";

describe("faults: the CLI exiting at start", () => {
  let app: FaultApp;
  let claude: string;
  let realName: string;

  /** The CLI Baton runs: a wrapper around the real one, or nothing, or a file that cannot run. */
  const install = {
    wrapper(body = 'exec "$CLAUDE" "$@"'): void {
      fs.writeFileSync(claude, `#!/bin/sh\nCLAUDE="${app.env.claudePath}"\n${body}\n`);
      fs.chmodSync(claude, 0o755);
    },
    nothing(): void {
      fs.rmSync(claude, { force: true });
    },
    notExecutable(): void {
      install.wrapper();
      fs.chmodSync(claude, 0o644);
    },
  };

  beforeAll(async () => {
    app = await startFaultApp(
      { main: [{ blocks: [text("Started fine.")] }, { blocks: [text("Answered after the failed restart.")] }, { blocks: [text("Answered after the failed restart.")] }] },
      { cwdName: "fault-start", claudePath: (env) => (claude = path.join(env.home, "bin", "claude")) },
    );
    fs.mkdirSync(path.dirname(claude), { recursive: true });
    realName = path.basename(app.env.claudePath);
  });
  afterAll(() => app?.close());

  /** Nothing left of a failed start: no tab, no CLI process. */
  function nothingLeft(): void {
    expect(app.manager.listTabs()).toEqual([]);
    expect(app.manager.runningProcessCount()).toBe(0);
    expect(childrenRunning(realName)).toEqual([]);
    expect(childrenRunning("claude")).toEqual([]);
  }

  it("exits 1 with a message (resuming a conversation that is not there): its stderr line and what to do; then a new session starts", async () => {
    install.wrapper();
    const missing = randomUUID();
    const failed = await app.service.newSession({ cwd: app.env.cwd, resumeSessionId: missing });
    expect(failed.ok).toBe(false);
    if (failed.ok) return;
    expect(failed.error.code).toBe("process_error");
    expect(failed.error.message).toContain("Claude Code CLI exited with code 1 as it started");
    expect(failed.error.message).toContain(`No conversation found with session ID: ${missing}`);
    expect(failed.error.message).toContain(WhatToDo);
    expect(app.console.some((e) => e.source === "cli-stderr" && e.message.includes(missing))).toBe(true);
    nothingLeft();

    const { tab, watch } = await app.open();
    value(await app.service.sendPrompt(tab.tabId, "hello"));
    await watch.idleWith("Started fine.");
    value(await app.service.closeTab(tab.tabId));
    nothingLeft();
  });

  it("not there, then not executable: says which path and what to do; once installed, a session starts", async () => {
    install.nothing();
    const absent = await app.service.newSession({ cwd: app.env.cwd });
    expect(absent).toMatchObject({ ok: false, error: { code: "cli_not_found" } });
    if (absent.ok) return;
    expect(absent.error.message).toContain(`"${claude}" (ENOENT)`);
    expect(absent.error.message).toContain("Install it (npm install -g @anthropic-ai/claude-code) or point Baton at it with --claude <path> or BATON_CLAUDE_PATH.");
    nothingLeft();

    install.notExecutable();
    const refused = await app.service.newSession({ cwd: app.env.cwd });
    expect(refused).toMatchObject({ ok: false, error: { code: "cli_not_found", message: expect.stringContaining(`"${claude}" (EACCES)`) } });
    nothingLeft();

    install.wrapper();
    const { tab } = await app.open();
    expect(tab.live).toBe(true);
    value(await app.service.closeTab(tab.tabId));
    nothingLeft();
  });

  it("a live tab whose CLI fails as it restarts: the tab shows the CLI's own line and what to do, and the next prompt works", async () => {
    install.wrapper();
    const { tab, watch } = await app.open();
    value(await app.service.sendPrompt(tab.tabId, "hello"));
    const { sessionId } = await watch.idleWith("Started fine.");
    // Killed once the CLI has saved the answer (it writes a moment after it streams).
    const saved = path.join(app.env.projectsDir, projectFolderName(app.env.cwd), `${sessionId}.jsonl`);
    await expect.poll(() => fs.existsSync(saved) && fs.readFileSync(saved, "utf8").includes("Started fine."), { timeout: 30_000 }).toBe(true);
    // The CLI dies; its next start fails with the real CLI's own complaint about an option.
    install.wrapper('exec "$CLAUDE" --no-such-option "$@"');
    process.kill(theChild(realName).pid, "SIGKILL");
    await watch.waitFor("the tab to say the CLI stopped", () => (watch.transcript().status === "error" ? true : undefined));

    const failed = await app.service.sendPrompt(tab.tabId, "are you there?");
    expect(failed.ok).toBe(false);
    if (failed.ok) return;
    expect(failed.error.message).toMatch(/exited with code 1 as it started: .*--no-such-option/);
    expect(failed.error.message).toContain(WhatToDo);
    const notices = await watch.waitFor("the failed start in the tab", () => {
      const found = noticesOf(watch.transcript(), "error").filter((n) => n.includes("--no-such-option"));
      return found.length > 0 ? found : undefined;
    });
    expect(notices[0]).toContain(WhatToDo);
    expect(app.manager.runningProcessCount()).toBe(0);
    expect(childrenRunning(realName)).toEqual([]);

    install.wrapper();
    value(await app.service.sendPrompt(tab.tabId, "and now?"));
    await watch.idleWith("Answered after the failed restart.");
    value(await app.service.closeTab(tab.tabId));
  });
});
