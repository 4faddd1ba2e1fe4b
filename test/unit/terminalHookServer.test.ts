// The terminal hooks' socket (src/main/terminal): a private folder and socket, the per-launch
// secret in hook-<pid>.json, one line in and one verdict out, "ask" for everything short of a valid
// request answered in time, and nothing left behind once stopped. Real sockets in temp folders.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LogBus } from "../../src/main/platform/logBus.js";
import { readEndpoint } from "../../src/main/terminal/hookEndpoint.js";
import { askBaton } from "../../src/main/terminal/hookClient.js";
import { startHookServer, type HookHandler, type HookServer, type HookServerOptions } from "../../src/main/terminal/hookServer.js";
import { ensureRunFolder, folderProblem, runFolderPath } from "../../src/main/terminal/runFolder.js";
import type { HookInput } from "../../src/shared/terminalHooks.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-hook-");
const running: HookServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
});

const Input: HookInput = {
  session_id: "s-1",
  transcript_path: "/home/user/.claude/projects/x/s-1.jsonl",
  cwd: "/home/user/code/x",
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command: "touch made.txt" },
  tool_use_id: "toolu_1",
};

async function start(handler: HookHandler, extra: Partial<HookServerOptions> = {}): Promise<{ server: HookServer; folder: string; log: LogBus; seen: HookInput[] }> {
  const folder = path.join(tempDir(), "run");
  const log = new LogBus();
  const seen: HookInput[] = [];
  const result = await startHookServer({ folder, log, handler: (input, gaveUp) => (seen.push(input), handler(input, gaveUp)), ...extra });
  if (!result.ok) throw new Error(result.error);
  running.push(result.server);
  return { server: result.server, folder, log, seen };
}

/** Sends raw text on the socket and returns the answer line. */
function rawAsk(socket: string, text: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = "";
    const c = net.createConnection(socket, () => c.write(text));
    c.setEncoding("utf8");
    c.on("data", (d: string) => (answer += d));
    c.on("end", () => resolve(answer));
    c.on("error", reject);
  });
}

const mode = (file: string): number => fs.statSync(file).mode & 0o777;

/** The inodes of the sockets this process holds open (Linux: /proc/self/fd links `socket:[N]`). */
function socketInodes(): Set<string> {
  const inodes = new Set<string>();
  for (const fd of fs.readdirSync("/proc/self/fd")) {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/self/fd/${fd}`))?.[1];
      if (inode !== undefined) inodes.add(inode);
    } catch {
      // Closed meanwhile.
    }
  }
  return inodes;
}

/** One column of a /proc/net table (whitespace-separated, header skipped). */
function procTable(file: string, column: number): string[] {
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, "utf8").split("\n").slice(1).map((line) => line.trim().split(/\s+/)[column] ?? "").filter((v) => v !== "");
}

describe("the run folder", () => {
  it("is $XDG_RUNTIME_DIR/baton when there is one, else ~/.baton/run", () => {
    expect(runFolderPath({ XDG_RUNTIME_DIR: "/run/user/1000" }, "/home/user")).toBe("/run/user/1000/baton");
    expect(runFolderPath({}, "/home/user")).toBe("/home/user/.baton/run");
    expect(runFolderPath({ XDG_RUNTIME_DIR: "relative/dir" }, "/home/user")).toBe("/home/user/.baton/run");
  });

  it("is created 0700, and an existing one open to others, a symlink, a file or a foreign one is refused", () => {
    const root = tempDir();
    const made = ensureRunFolder(path.join(root, "a", "run"));
    expect(made).toEqual({ ok: true, folder: path.join(root, "a", "run") });
    expect(mode(path.join(root, "a", "run"))).toBe(0o700);

    fs.mkdirSync(path.join(root, "open"), { mode: 0o755 });
    fs.chmodSync(path.join(root, "open"), 0o755);
    expect(ensureRunFolder(path.join(root, "open"))).toEqual({ ok: false, error: expect.stringContaining("open to others (mode 755") });

    fs.mkdirSync(path.join(root, "target"), { mode: 0o700 });
    fs.symlinkSync(path.join(root, "target"), path.join(root, "link"));
    expect(ensureRunFolder(path.join(root, "link"))).toEqual({ ok: false, error: expect.stringContaining("symbolic link") });

    fs.writeFileSync(path.join(root, "file"), "");
    expect(ensureRunFolder(path.join(root, "file")).ok).toBe(false);

    expect(folderProblem(path.join(root, "target"), (process.getuid?.() ?? 0) + 1)).toMatch(/belongs to user \d+, not to you/);
    expect(folderProblem(path.join(root, "target"))).toBeUndefined();
  });
});

/** The pid of a process that has ended. */
function endedPid(): number {
  return spawnSync(process.execPath, ["-e", ""]).pid!;
}

describe("the endpoint files", () => {
  it("name the newest launch still running; an ended launch's file is passed over, and removed when a server starts", async () => {
    const folder = path.join(tempDir(), "run");
    const result = await startHookServer({ folder, handler: async () => ({ decision: "allow" }) });
    if (!result.ok) throw new Error(result.error);
    running.push(result.server);
    const dead = endedPid();
    const ghost = path.join(folder, `hook-${dead}.json`);
    fs.writeFileSync(ghost, JSON.stringify({ socket: path.join(folder, `hook-${dead}.sock`), secret: "f".repeat(64), pid: dead }), { mode: 0o600 });
    fs.utimesSync(ghost, new Date(Date.now() + 60_000), new Date(Date.now() + 60_000));
    expect(readEndpoint(folder)?.pid).toBe(process.pid);
    await result.server.stop();
    running.length = 0;
    expect(readEndpoint(folder)).toBeUndefined();
    const again = await startHookServer({ folder, handler: async () => ({ decision: "allow" }) });
    if (!again.ok) throw new Error(again.error);
    running.push(again.server);
    expect(fs.existsSync(ghost)).toBe(false);
  });

  it("are not trusted when open to others or not the person's", async () => {
    const { folder } = await start(async () => ({ decision: "allow" }));
    const file = path.join(folder, `hook-${process.pid}.json`);
    expect(readEndpoint(folder, (process.getuid?.() ?? 0) + 1)).toBeUndefined();
    fs.chmodSync(file, 0o644);
    expect(readEndpoint(folder)).toBeUndefined();
  });
});

describe("the hook server", () => {
  it("listens on a 0600 socket in a 0700 folder and writes its secret to a 0600 hook-<pid>.json", async () => {
    const { server, folder } = await start(async () => ({ decision: "allow" }));
    expect(mode(folder)).toBe(0o700);
    expect(fs.statSync(server.socket).isSocket()).toBe(true);
    expect(mode(server.socket)).toBe(0o600);
    expect(mode(path.join(folder, `hook-${process.pid}.json`))).toBe(0o600);
    const endpoint = readEndpoint(folder);
    expect(endpoint?.socket).toBe(server.socket);
    expect(endpoint?.secret).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses to start in a folder open to others", async () => {
    const folder = path.join(tempDir(), "open");
    fs.mkdirSync(folder);
    fs.chmodSync(folder, 0o777);
    const result = await startHookServer({ folder, handler: async () => ({ decision: "allow" }) });
    expect(result).toEqual({ ok: false, error: expect.stringContaining("open to others") });
    expect(fs.readdirSync(folder)).toEqual([]);
  });

  it("gives the handler the CLI's input and sends its verdict back", async () => {
    const { folder, seen } = await start(async (input) => (input.tool_name === "Bash" ? { decision: "deny", reason: "no shell here" } : { decision: "allow" }));
    const endpoint = readEndpoint(folder)!;
    await expect(askBaton(endpoint.socket, { secret: endpoint.secret, input: Input }, 5000)).resolves.toEqual({ decision: "deny", reason: "no shell here" });
    await expect(askBaton(endpoint.socket, { secret: endpoint.secret, input: { ...Input, tool_name: "Read" } }, 5000)).resolves.toEqual({ decision: "allow" });
    expect(seen.map((i) => i.tool_name)).toEqual(["Bash", "Read"]);
  });

  it("tells the handler whether the session was started with --orchestration (only a literal true counts)", async () => {
    const launches: unknown[] = [];
    const result = await startHookServer({ folder: path.join(tempDir(), "run"), handler: async (_input, _gaveUp, launch) => (launches.push(launch), { decision: "allow" }) });
    if (!result.ok) throw new Error(result.error);
    running.push(result.server);
    const endpoint = readEndpoint(result.server.folder)!;
    await askBaton(endpoint.socket, { secret: endpoint.secret, input: Input, orchestration: true }, 5000);
    await askBaton(endpoint.socket, { secret: endpoint.secret, input: Input }, 5000);
    await rawAsk(endpoint.socket, `${JSON.stringify({ secret: endpoint.secret, input: Input, orchestration: "yes" })}\n`);
    expect(launches).toEqual([{ orchestration: true }, { orchestration: false }, { orchestration: false }]);
  });

  it("refuses a wrong secret without asking the handler, and logs it", async () => {
    const { folder, seen, log } = await start(async () => ({ decision: "allow" }));
    const endpoint = readEndpoint(folder)!;
    const wrong = endpoint.secret.replace(/^./, (c) => (c === "0" ? "1" : "0"));
    await expect(askBaton(endpoint.socket, { secret: wrong, input: Input }, 5000)).resolves.toEqual({ decision: "ask", reason: "refused: wrong secret" });
    await expect(askBaton(endpoint.socket, { secret: "", input: Input }, 5000)).resolves.toMatchObject({ decision: "ask" });
    expect(seen).toEqual([]);
    expect(log.entries().filter((e) => e.message.includes("wrong secret"))).toHaveLength(2);
  });

  it("answers ask to a line that is not JSON, an envelope without valid input, and an empty request", async () => {
    const { folder, seen } = await start(async () => ({ decision: "allow" }));
    const endpoint = readEndpoint(folder)!;
    const ask = (line: string) => rawAsk(endpoint.socket, line).then((a) => JSON.parse(a) as unknown);
    await expect(ask("{not json\n")).resolves.toMatchObject({ decision: "ask" });
    await expect(ask(`${JSON.stringify({ secret: endpoint.secret, input: { ...Input, session_id: 7 } })}\n`)).resolves.toMatchObject({ decision: "ask" });
    await expect(ask(`${JSON.stringify({ secret: endpoint.secret })}\n`)).resolves.toMatchObject({ decision: "ask" });
    const empty = await new Promise<string>((resolve) => {
      let a = "";
      const c = net.createConnection(endpoint.socket, () => c.end());
      c.on("data", (d) => (a += d.toString()));
      c.on("close", () => resolve(a));
    });
    expect(JSON.parse(empty)).toMatchObject({ decision: "ask" });
    expect(seen).toEqual([]);
  });

  it("answers ask to a line over the size limit without reading the rest", async () => {
    const { folder, seen } = await start(async () => ({ decision: "allow" }), { maxLineBytes: 1024 });
    const endpoint = readEndpoint(folder)!;
    const big = `${JSON.stringify({ secret: endpoint.secret, input: { ...Input, tool_input: { command: "x".repeat(5000) } } })}\n`;
    expect(JSON.parse(await rawAsk(endpoint.socket, big))).toMatchObject({ decision: "ask", reason: expect.stringContaining("too long") });
    await expect(askBaton(endpoint.socket, { secret: endpoint.secret, input: Input }, 5000)).resolves.toEqual({ decision: "allow" });
    expect(seen).toHaveLength(1);
  });

  it("answers ask when the handler takes longer than its time, or fails, or returns nonsense", async () => {
    let mode: "slow" | "throw" | "junk" = "slow";
    const { folder, log } = await start(
      (): Promise<never> | Promise<{ decision: "allow" }> => {
        if (mode === "slow") return new Promise(() => undefined);
        if (mode === "throw") return Promise.reject(new Error("core fell over"));
        return Promise.resolve({ decision: "yes" } as unknown as { decision: "allow" });
      },
      { answerWithinMs: 200 },
    );
    const endpoint = readEndpoint(folder)!;
    const asked = (): Promise<unknown> => askBaton(endpoint.socket, { secret: endpoint.secret, input: Input }, 5000);
    await expect(asked()).resolves.toMatchObject({ decision: "ask", reason: expect.stringContaining("in time") });
    mode = "throw";
    await expect(asked()).resolves.toMatchObject({ decision: "ask" });
    expect(log.entries().some((e) => e.message.includes("handler failed"))).toBe(true);
    mode = "junk";
    await expect(asked()).resolves.toMatchObject({ decision: "ask" });
  });

  it("tells the handler when the hook gave up: its connection closed, or the time ran out", async () => {
    const signals: AbortSignal[] = [];
    const { folder } = await start((_input, gaveUp) => (signals.push(gaveUp!), new Promise(() => undefined)), { answerWithinMs: 300 });
    const endpoint = readEndpoint(folder)!;
    const closed = new Promise<void>((resolve) => {
      const c = net.createConnection(endpoint.socket, () => c.write(`${JSON.stringify({ secret: endpoint.secret, input: Input })}\n`));
      const poll = setInterval(() => {
        if (signals.length === 0) return;
        clearInterval(poll);
        expect(signals[0]!.aborted).toBe(false);
        c.destroy();
        signals[0]!.addEventListener("abort", () => resolve());
      }, 5);
    });
    await closed;
    expect(signals[0]!.aborted).toBe(true);
    await expect(askBaton(endpoint.socket, { secret: endpoint.secret, input: Input }, 5000)).resolves.toMatchObject({ decision: "ask" });
    expect(signals[1]!.aborted).toBe(true);
  });

  it("answers ask beyond the connection limit", async () => {
    const { folder } = await start(() => new Promise(() => undefined), { maxConnections: 1, answerWithinMs: 60_000 });
    const endpoint = readEndpoint(folder)!;
    const held = net.createConnection(endpoint.socket);
    await new Promise((resolve) => held.on("connect", resolve));
    held.write(`${JSON.stringify({ secret: endpoint.secret, input: Input })}\n`);
    await expect(askBaton(endpoint.socket, { secret: endpoint.secret, input: Input }, 5000)).resolves.toMatchObject({ decision: "ask", reason: expect.stringContaining("busy") });
    held.destroy();
  });

  it("once stopped, has removed its socket and endpoint file, and a client gets ask", async () => {
    const { server, folder } = await start(async () => ({ decision: "allow" }));
    const endpoint = readEndpoint(folder)!;
    await server.stop();
    expect(fs.existsSync(server.socket)).toBe(false);
    expect(fs.readdirSync(folder)).toEqual([]);
    await expect(askBaton(endpoint.socket, { secret: endpoint.secret, input: Input }, 5000)).resolves.toMatchObject({ decision: "ask" });
  });

  it.runIf(process.platform === "linux")("opens no TCP socket: the one socket it adds is the Unix socket at its path", async () => {
    const before = socketInodes();
    const { server } = await start(async () => ({ decision: "allow" }));
    const added = [...socketInodes()].filter((inode) => !before.has(inode));
    const tcp = ["/proc/net/tcp", "/proc/net/tcp6"].flatMap((file) => procTable(file, 9));
    const unix = fs.readFileSync("/proc/net/unix", "utf8").split("\n").slice(1).map((line) => line.trim().split(/\s+/));
    expect(added).toHaveLength(1);
    expect(tcp).not.toContain(added[0]);
    expect(unix.find((row) => row[6] === added[0])?.[7]).toBe(server.socket);
  });
});
