// What the client does when `claude` is missing or dies: typed errors with the facts a caller
// needs (path tried; exit code/signal and stderr tail), a process_exit event, and a restart that
// continues the same session.
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClaudeClient } from "../../src/main/cli/claudeClient.js";
import { ClaudeNotFoundError, ClaudeProcessError } from "../../src/main/cli/errors.js";
import { projectFolderName } from "../../src/main/platform/projectsDir.js";
import { openSession, type Session } from "../support/scenarios/harness.js";

describe("client: missing or crashing claude", () => {
  let session: Session;

  beforeAll(async () => {
    session = await openSession(
      {
        main: [
          { blocks: [{ type: "text", text: "before the crash" }] },
          // Turn 1 hangs long enough to be killed mid-turn.
          { delayMs: 30_000, blocks: [{ type: "text", text: "too late" }] },
        ],
      },
      { cwdName: "client-crash" },
    );
  });
  afterAll(() => session?.close());

  it("rejects start() with ClaudeNotFoundError naming the path when claude does not exist", async () => {
    const missing = path.join(session.env.home, "no-such-dir", "claude");
    const client = new ClaudeClient({ claudePath: missing, cwd: session.env.cwd, env: session.env.env });
    const exits: unknown[] = [];
    client.on((e) => e.kind === "process_exit" && exits.push(e));
    const error = await client.start().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClaudeNotFoundError);
    expect(error).toMatchObject({ path: missing, osCode: "ENOENT" });
    expect((error as Error).message).toContain(missing);
    expect(client.running).toBe(false);
    expect(exits).toHaveLength(1);
  });

  it("rejects start() with ClaudeProcessError carrying exit code and stderr when claude dies at once", async () => {
    const fake = path.join(session.env.home, "crashing-claude");
    writeFileSync(fake, "#!/bin/sh\nread line\necho 'fatal: config is corrupt' >&2\nexit 3\n");
    chmodSync(fake, 0o755);
    const client = new ClaudeClient({ claudePath: fake, cwd: session.env.cwd, env: session.env.env });
    const error = await client.start().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClaudeProcessError);
    expect(error).toMatchObject({ exitCode: 3, signal: null });
    expect((error as ClaudeProcessError).stderrTail).toContain("fatal: config is corrupt");
    expect(client.exitInfo).toMatchObject({ code: 3, requested: false });
  });

  it("reports a crash mid-turn as a typed error and restarts on the same session id", async () => {
    const { client, log, server } = session;
    await client.start();
    expect((await session.turn("hello")).result).toBe("before the crash");
    const sessionId = client.sessionId;
    // The restart resumes from the transcript on disk: the crash comes after the CLI wrote the
    // finished turn there (it writes a moment after the result line).
    const transcript = path.join(session.env.projectsDir, projectFolderName(session.env.cwd), `${sessionId}.jsonl`);
    await expect.poll(() => existsSync(transcript) && readFileSync(transcript, "utf8").includes("before the crash"), { timeout: 10_000 }).toBe(true);

    const from = log.mark;
    client.send("this turn will crash");
    await server.waitForRequest((r) => r.kind === "agent" && r.turn === 1);
    const pendingInterrupt = client.interrupt().catch((e: unknown) => e);
    process.kill(client.pid!, "SIGKILL");

    const exit = await log.waitFor("process_exit", () => true, { from });
    expect(exit).toMatchObject({ signal: "SIGKILL" });
    expect(exit.error).toMatch(/killed by SIGKILL/);
    expect(client.exitInfo?.error).toBeInstanceOf(ClaudeProcessError);
    expect(client.exitInfo).toMatchObject({ signal: "SIGKILL", requested: false });
    // Whatever was still waiting for an answer is rejected with the same typed error; an interrupt
    // the CLI answered before the kill resolved with its receipt (`{}` on 2.1.197).
    const interruptOutcome = await pendingInterrupt;
    if (interruptOutcome instanceof Error) expect(interruptOutcome).toBeInstanceOf(ClaudeProcessError);
    else expect(interruptOutcome).toEqual(expect.objectContaining({}));
    expect(() => client.send("nobody is listening")).toThrow(/not running/);

    // The next turn in the restarted process: serve the main agent's next turn at once.
    server.setScript({
      main: [
        { blocks: [{ type: "text", text: "before the crash" }] },
        { blocks: [{ type: "text", text: "after the restart" }] },
        { blocks: [{ type: "text", text: "after the restart" }] },
      ],
    });
    await client.restart();
    const result = await session.turn("are you back?");
    expect(result).toMatchObject({ subtype: "success", result: "after the restart" });
    expect(client.sessionId).toBe(sessionId);
    expect(log.of("session_init").at(-1)?.sessionId).toBe(sessionId);
  });
});
