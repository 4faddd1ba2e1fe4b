// `baton web`: refuses to start without the built UI (and says to run the build), otherwise
// prints a single-use loopback link, signs a tab in through it, hands out another link to
// `baton web --new-link` over its private socket, and stops cleanly on request.

import { existsSync, statSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { bufferIO } from "../../src/main/commands/commandIO.js";
import { run } from "../../src/main/commands/web.js";
import { LinkUsedMessage } from "../../src/shared/webSignIn.js";
import { openSocket, postSignIn, signIn, socketOutcome } from "../support/webSignIn.js";
import { tempDirs } from "../support/tempDirs.js";

function fetchStatus(url: string, cookie?: string): Promise<{ status: number; cookie?: string; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: cookie ? { cookie } : {} }, (res) => {
        let body = "";
        res.on("data", (c: Buffer) => (body += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, ...(res.headers["set-cookie"] ? { cookie: res.headers["set-cookie"][0]!.split(";")[0]! } : {}) }));
      })
      .on("error", reject);
  });
}

describe("baton web", () => {
  const tempDir = tempDirs("baton-webcmd-", "all");
  let dir: string;

  /** `baton web` with no index and no CLI, serving the test's renderer folder, once it listens. */
  async function startWeb(controlDir: string): Promise<{ io: ReturnType<typeof bufferIO>; url: string; stop: () => void; exited: Promise<number> }> {
    const io = bufferIO();
    let stop!: () => void;
    const stopSignal = new Promise<void>((resolve) => (stop = resolve));
    let listened!: (url: string) => void;
    const listening = new Promise<string>((resolve) => (listened = resolve));
    const exited = run(["--no-index", "--projects-dir", path.join(dir, "projects"), "--claude", "/nonexistent/claude"], io, {
      rendererDir: dir,
      controlDir,
      stopSignal,
      onListening: (u) => listened(u),
    });
    return { io, url: await listening, stop, exited };
  }
  beforeAll(async () => {
    dir = tempDir();
    await writeFile(path.join(dir, "index.html"), "<!doctype html><title>Baton UI</title>");
    // The terminal hooks' socket goes in the test's run folder, not the machine's home.
    vi.stubEnv("XDG_RUNTIME_DIR", path.join(dir, "runtime"));
  });
  afterAll(() => {
    vi.unstubAllEnvs();
  });

  it("asks for `npm run build` when the UI is not built", async () => {
    const io = bufferIO();
    const code = await run(["--no-index"], io, { rendererDir: path.join(dir, "missing"), stopSignal: Promise.resolve() });
    expect(code).toBe(1);
    expect(io.err()).toContain("npm run build");
  });

  it("rejects a bad port with usage", async () => {
    const io = bufferIO();
    expect(await run(["--port", "99999"], io, { rendererDir: dir, stopSignal: Promise.resolve() })).toBe(2);
  });

  it("prints a single-use loopback link, signs in through it, and stops when told", async () => {
    const { io, url, stop, exited } = await startWeb(path.join(dir, "control"));
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]{20,}$/);
    expect(io.out()).toContain(url);
    // What starting found is said, though it was logged before the command listened.
    expect(io.err()).toContain("baton web: Claude Code CLI not found");
    const page = await fetchStatus(new URL("/", url).href);
    expect(page.body).toContain("Baton UI");
    const who = await signIn(url);
    expect(await socketOutcome(openSocket(Number(new URL(url).port), who))).toBe("open");
    stop();
    expect(await exited).toBe(0);
    await expect(fetchStatus(new URL("/", url).href)).rejects.toThrow();
  });

  it("--new-link mints a fresh single-use link from the running server over a private socket", async () => {
    const controlDir = path.join(dir, "links");
    const none = bufferIO();
    expect(await run(["--new-link"], none, { controlDir })).toBe(1);
    expect(none.err()).toContain("no running `baton web` found");

    const { url, stop, exited } = await startWeb(controlDir);
    const port = new URL(url).port;
    // Only this user may enter the folder or open the socket.
    expect(statSync(controlDir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(controlDir, `${port}.sock`)).mode & 0o777).toBe(0o600);
    await signIn(url);
    expect((await postSignIn(url)).reply.error).toBe(LinkUsedMessage);

    const asked = bufferIO();
    expect(await run(["--new-link", "--port", port], asked, { controlDir })).toBe(0);
    const fresh = /Baton is at (\S+)/.exec(asked.out())?.[1] ?? "";
    expect(fresh).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/#token=[\\w-]{20,}$`));
    expect(fresh).not.toBe(url);
    const who = await signIn(fresh);
    expect(await socketOutcome(openSocket(Number(port), who))).toBe("open");
    expect((await postSignIn(fresh)).reply.error).toBe(LinkUsedMessage);
    // Without --port it finds the only one running.
    const again = bufferIO();
    expect(await run(["--new-link"], again, { controlDir })).toBe(0);
    expect(again.out()).toMatch(/#token=/);

    stop();
    expect(await exited).toBe(0);
    expect(existsSync(path.join(controlDir, `${port}.sock`))).toBe(false);
    const after = bufferIO();
    expect(await run(["--new-link", "--port", port], after, { controlDir })).toBe(1);
    expect(after.err()).toContain(`no \`baton web\` is running on port ${port}`);
  });

  it("documents the single-use link and --new-link in its help", async () => {
    const io = bufferIO();
    expect(await run(["--help"], io)).toBe(0);
    expect(io.out()).toContain("--new-link");
    expect(io.out()).toMatch(/works once, and only\s+for 5 minutes/);
  });

  it("serves without search, saying why, when the index would go inside the history folder", async () => {
    const io = bufferIO();
    let stop!: () => void;
    const stopSignal = new Promise<void>((resolve) => (stop = resolve));
    let listened!: () => void;
    const listening = new Promise<void>((resolve) => (listened = resolve));
    const projects = path.join(dir, "projects");
    const exited = run(["--projects-dir", projects, "--db", path.join(projects, "history.db"), "--claude", "/nonexistent/claude"], io, {
      rendererDir: dir,
      controlDir: path.join(dir, "control"),
      stopSignal,
      onListening: () => listened(),
    });
    await listening;
    expect(io.err()).toMatch(/history index unavailable; search is off \(.*refusing to put Baton's database inside the Claude Code history folder/);
    stop();
    expect(await exited).toBe(0);
    expect(existsSync(path.join(projects, "history.db"))).toBe(false);
  });
});
