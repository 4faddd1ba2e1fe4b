// `baton web --new-link`: a running `baton web` answers on a Unix socket with a fresh single-use
// sign-in link. The socket lives in a folder only this user can enter (0700, owned by us, not a
// symlink), and is itself 0600: the file system decides who may ask, as it decides who may read
// Baton's config. One request per connection: the line `new-link`, answered with one JSON line.

import { lstat, mkdir, readdir, chmod, rm } from "node:fs/promises";
import net from "node:net";
import path from "node:path";

const Request = "new-link";
const MaxLineBytes = 4096;
const IdleMs = 5_000;

export interface LinkControl {
  readonly socketPath: string;
  close(): Promise<void>;
}

export type LinkReply = { readonly ok: true; readonly url: string } | { readonly ok: false; readonly message: string };

export function controlSocketPath(dir: string, port: number): string {
  return path.join(dir, `${port}.sock`);
}

/** Creates `dir` private to this user, or refuses one that another user could enter. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const info = await lstat(dir);
  if (!info.isDirectory()) throw new Error(`${dir} is not a folder`);
  if (typeof process.getuid === "function" && info.uid !== process.getuid()) throw new Error(`${dir} belongs to another user`);
  if ((info.mode & 0o077) !== 0) await chmod(dir, 0o700);
}

export async function startLinkControl(dir: string, port: number, mint: () => string): Promise<LinkControl> {
  await ensurePrivateDir(dir);
  const socketPath = controlSocketPath(dir, port);
  // We hold the TCP port, so a socket file for it is left over from a run that crashed.
  await rm(socketPath, { force: true });
  const server = net.createServer((socket) => {
    socket.setTimeout(IdleMs, () => socket.destroy());
    socket.on("error", () => socket.destroy());
    readLine(socket, (line) => {
      const reply: LinkReply = line === Request ? { ok: true, url: mint() } : { ok: false, message: "unknown request" };
      socket.end(`${JSON.stringify(reply)}\n`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => {
      server.off("error", reject);
      resolve();
    });
  });
  await chmod(socketPath, 0o600);
  let closing: Promise<void> | undefined;
  return {
    socketPath,
    close() {
      closing ??= new Promise<void>((resolve) => server.close(() => resolve())).then(() => rm(socketPath, { force: true }));
      return closing;
    },
  };
}

/** Asks the `baton web` on `port` (or the only one running) for a new link. */
export async function requestNewLink(dir: string, port?: number): Promise<LinkReply> {
  const ports = port !== undefined ? [port] : await listedPorts(dir);
  if (ports.length === 0) return { ok: false, message: `no running \`baton web\` found (looked in ${dir}); start one with \`baton web\`` };
  const replies = await Promise.all(ports.map(async (p) => ({ port: p, reply: await ask(controlSocketPath(dir, p)) })));
  const answered = replies.filter((r) => r.reply !== undefined);
  if (answered.length === 0) {
    return { ok: false, message: port !== undefined ? `no \`baton web\` is running on port ${port}` : `no running \`baton web\` found (looked in ${dir})` };
  }
  if (answered.length > 1) {
    return { ok: false, message: `several \`baton web\` are running (ports ${answered.map((r) => r.port).join(", ")}); choose one with --port N` };
  }
  return answered[0]!.reply!;
}

async function listedPorts(dir: string): Promise<number[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  return names.flatMap((n) => {
    const match = /^(\d{1,5})\.sock$/.exec(n);
    return match ? [Number(match[1])] : [];
  });
}

/** The reply, or undefined when nobody answers there (no socket, or a stale one). */
function ask(socketPath: string): Promise<LinkReply | undefined> {
  return new Promise((resolve) => {
    const socket = net.createConnection(socketPath);
    socket.setTimeout(IdleMs, () => socket.destroy());
    socket.on("error", () => resolve(undefined));
    socket.on("close", () => resolve(undefined));
    socket.on("connect", () => socket.write(`${Request}\n`));
    readLine(socket, (line) => {
      socket.end();
      resolve(parseReply(line));
    });
  });
}

function parseReply(line: string): LinkReply {
  try {
    const value = JSON.parse(line) as { ok?: unknown; url?: unknown; message?: unknown };
    if (value.ok === true && typeof value.url === "string") return { ok: true, url: value.url };
    return { ok: false, message: typeof value.message === "string" ? value.message : "the server refused" };
  } catch {
    return { ok: false, message: "the server's answer was not understood" };
  }
}

function readLine(socket: net.Socket, onLine: (line: string) => void): void {
  let buffer = "";
  const onData = (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
    const end = buffer.indexOf("\n");
    if (end !== -1) {
      socket.off("data", onData);
      onLine(buffer.slice(0, end));
    } else if (buffer.length > MaxLineBytes) socket.destroy();
  };
  socket.on("data", onData);
}
