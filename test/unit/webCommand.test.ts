// `baton web`: refuses to start without the built UI (and says to run the build), otherwise
// prints a loopback URL with a token, serves the page through it, and stops cleanly on request.

import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bufferIO } from "../../src/main/commands/commandIO.js";
import { run } from "../../src/main/commands/web.js";

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
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "baton-webcmd-"));
    await writeFile(path.join(dir, "index.html"), "<!doctype html><title>Baton UI</title>");
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

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

  it("prints a tokened loopback URL, serves through it, and stops when told", async () => {
    const io = bufferIO();
    let stop!: () => void;
    const stopSignal = new Promise<void>((resolve) => (stop = resolve));
    let url = "";
    let listened!: () => void;
    const listening = new Promise<void>((resolve) => (listened = resolve));
    const exited = run(["--no-index", "--projects-dir", path.join(dir, "projects"), "--claude", "/nonexistent/claude"], io, {
      rendererDir: dir,
      stopSignal,
      onListening: (u) => {
        url = u;
        listened();
      },
    });
    await listening;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/);
    expect(io.out()).toContain(url);
    // What starting found is said, though it was logged before the command listened.
    expect(io.err()).toContain("baton web: Claude Code CLI not found");
    const exchange = await fetchStatus(url);
    expect(exchange.status).toBe(303);
    const page = await fetchStatus(new URL("/", url).href, exchange.cookie);
    expect(page.body).toContain("Baton UI");
    stop();
    expect(await exited).toBe(0);
    await expect(fetchStatus(new URL("/", url).href, exchange.cookie)).rejects.toThrow();
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
