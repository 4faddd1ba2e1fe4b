// Web mode: the built renderer and the BatonApi over a WebSocket, on 127.0.0.1 only. The socket
// needs a tab signed in with a single-use link (see webAuth.ts). `close()` ends every socket and
// the server; the service's sessions belong to the caller.

import { readFile, stat } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";
import type { WsServerMessage } from "../../../shared/api.js";
import type { BatonService } from "../../core/batonService.js";
import { createRpcConnection } from "./rpcConnection.js";
import { resolveStatic } from "../../platform/staticFiles.js";
import type { SignInReply } from "../../../shared/webSignIn.js";
import { SocketProtocol } from "../../../shared/webSignIn.js";
import { decideHttp, decideSignIn, decideUpgrade, linkUrl, sessionCookie } from "./webAuth.js";
import { createCredentials, type WebCredentials } from "./webCredentials.js";
import { commonHeaders, contentType, webCsp } from "./webHeaders.js";

export interface WebServerOptions {
  readonly service: BatonService;
  /** The built renderer (`out/renderer`). */
  readonly rendererDir: string;
  /** 0 or absent: any free port. */
  readonly port?: number;
  /** Only loopback is allowed. */
  readonly host?: "127.0.0.1";
  /** Default: new ones (a 5-minute link lifetime). Tests pass their own clock, or keep them across a restart. */
  readonly credentials?: WebCredentials;
  readonly maxPayloadBytes?: number;
}

export interface WebServer {
  /** The first single-use sign-in link (the token is in its fragment). */
  readonly url: string;
  readonly port: number;
  /** Another single-use link, for another tab (`baton web --new-link`). */
  newLink(): string;
  close(): Promise<void>;
}

const HeartbeatMs = 30_000;
/** A sign-in body is `{"token":"…"}`; anything longer is not one. */
const MaxSignInBytes = 4096;

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const host = "127.0.0.1";
  const credentials = options.credentials ?? createCredentials();
  const sockets = new Set<Socket>();
  let port = 0;

  const server = http.createServer((req, res) => {
    void handleHttp(req, res, port, credentials, options.rendererDir);
  });
  // Deltas are JSON that compresses ~10×. The browser reads a socket in small pieces, each a task
  // on the page's main thread (a busy session's 35 KB deltas arrived as ~40 tasks each), so the
  // page does less work for fewer bytes; inflating happens in the browser's network process.
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxPayloadBytes ?? 64 * 1024 * 1024,
    perMessageDeflate: { threshold: 1024 },
    // The browser fails a handshake whose answer names none of the offered protocols; answer with
    // the plain one, never echoing the secret.
    handleProtocols: (offered) => (offered.has(SocketProtocol) ? SocketProtocol : false),
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.on("upgrade", (req, socket, head) => {
    const decision = decideUpgrade(
      {
        url: req.url ?? "/",
        host: req.headers.host,
        origin: req.headers.origin,
        cookie: req.headers.cookie,
        protocols: req.headers["sec-websocket-protocol"],
      },
      port,
      credentials,
    );
    if (decision.kind === "deny") {
      socket.end(`HTTP/1.1 ${decision.status} ${http.STATUS_CODES[decision.status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serveSocket(ws, options.service));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;

  let closing: Promise<void> | undefined;
  return {
    url: linkUrl(port, credentials.mintLink()),
    port,
    newLink: () => linkUrl(port, credentials.mintLink()),
    close() {
      closing ??= (async () => {
        for (const client of wss.clients) client.terminate();
        await new Promise<void>((resolve) => wss.close(() => resolve()));
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const socket of sockets) socket.destroy();
        await closed;
      })();
      return closing;
    },
  };
}

function serveSocket(ws: WebSocket, service: BatonService): void {
  const release = service.manager.acquirePresence();
  const send = (message: WsServerMessage) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };
  const rpc = createRpcConnection(service, send);
  let alive = true;
  const heartbeat = setInterval(() => {
    // A peer that vanished without a close frame must not count as a connected window forever.
    if (!alive) return ws.terminate();
    alive = false;
    ws.ping();
  }, HeartbeatMs);
  ws.on("pong", () => (alive = true));
  ws.on("message", (data, isBinary) => {
    if (isBinary) return send({ type: "error", error: { code: "bad_message", message: "text frames only" } });
    rpc.handle(data.toString());
  });
  ws.on("close", () => {
    clearInterval(heartbeat);
    rpc.close();
    release();
  });
  ws.on("error", () => ws.terminate());
}

async function handleHttp(req: http.IncomingMessage, res: http.ServerResponse, port: number, credentials: WebCredentials, rendererDir: string): Promise<void> {
  const base = commonHeaders();
  const decision = decideHttp({ method: req.method ?? "GET", url: req.url ?? "/", host: req.headers.host }, port);
  if (decision.kind === "deny") {
    res.writeHead(decision.status, { ...base, "Content-Type": "text/plain; charset=utf-8" }).end(`${decision.message}\n`);
    return;
  }
  if (decision.kind === "sign-in") return signIn(req, res, port, credentials);
  const file = resolveStatic(decision.pathname, rendererDir);
  const body = file === undefined ? undefined : await readIfFile(file);
  if (file === undefined || body === undefined) {
    res.writeHead(404, { ...base, "Content-Type": "text/plain; charset=utf-8" }).end("Not found\n");
    return;
  }
  const type = contentType(file);
  const headers: Record<string, string> = { ...base, "Content-Type": type, "Content-Length": String(body.length) };
  if (type.startsWith("text/html")) headers["Content-Security-Policy"] = webCsp(port);
  res.writeHead(200, headers);
  res.end(req.method === "HEAD" ? undefined : body);
}

async function readIfFile(file: string): Promise<Buffer | undefined> {
  try {
    if (!(await stat(file)).isFile()) return undefined;
    return await readFile(file);
  } catch {
    return undefined;
  }
}

async function signIn(req: http.IncomingMessage, res: http.ServerResponse, port: number, credentials: WebCredentials): Promise<void> {
  const base = { ...commonHeaders(), "Content-Type": "application/json; charset=utf-8" };
  const body = await readBody(req, MaxSignInBytes);
  if (body === undefined) {
    res.writeHead(413, { ...base, Connection: "close" }).end(JSON.stringify({ error: "Request too large" } satisfies SignInReply));
    return;
  }
  const decision = decideSignIn(
    { host: req.headers.host, origin: req.headers.origin, contentType: req.headers["content-type"], body },
    port,
    credentials,
    credentials.now(),
  );
  if (decision.kind === "deny") {
    res.writeHead(decision.status, base).end(JSON.stringify({ error: decision.message } satisfies SignInReply));
    return;
  }
  const secret = credentials.redeem(decision.token);
  res.writeHead(200, { ...base, "Set-Cookie": sessionCookie(port, credentials) }).end(JSON.stringify({ secret } satisfies SignInReply));
}

/** The body as text, or undefined past `max` bytes. */
function readBody(req: http.IncomingMessage, max: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        resolve(undefined);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", () => resolve(undefined));
  });
}
