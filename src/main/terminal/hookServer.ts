// Baton's end of a terminal session's hooks: a Unix domain socket in the person's private run
// folder (runFolder.ts), never TCP. Each connection carries one request line (a HookEnvelope:
// the launch's secret and the CLI's hook input) and gets one answer line (a HookVerdict). The
// secret is made per launch and written with the socket's path to hook-<pid>.json (hookEndpoint.ts)
// for `baton hook`. Everything short of a valid request with the right secret, and a handler that
// fails or takes too long, gets "ask": the terminal then shows its own prompt. Nothing is ever
// allowed here; only the handler (the core's policy and the person) can say "allow".
import { randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { AskVerdict, HookInputSchema, isHookDecision, type HookInput, type HookLaunch, type HookVerdict, type TerminalHookHandler } from "../../shared/terminalHooks.js";
import type { LogBus } from "../platform/logBus.js";
import { removeEndpoint, removeStaleEndpoints, writeEndpoint } from "./hookEndpoint.js";
import { ServerAnswerMs } from "./hookTiming.js";
import { ensureRunFolder } from "./runFolder.js";

/** The core's handler; its `gaveUp` aborts when the hook's connection closes or the time runs out first. */
export type HookHandler = TerminalHookHandler;

export interface HookServerOptions {
  readonly handler: HookHandler;
  /** The private folder (default: runFolderPath()); created 0700 when missing, refused when foreign. */
  readonly folder: string;
  readonly log?: Pick<LogBus, "baton">;
  /** A request line longer than this is answered "ask" unread (a Write's content rides in it). */
  readonly maxLineBytes?: number;
  /** Connections open at once; more are answered "ask" and closed. */
  readonly maxConnections?: number;
  /** The handler's time before the answer is "ask" (default: ServerAnswerMs, inside the hook's timeout). */
  readonly answerWithinMs?: number;
}

export interface HookServer {
  readonly socket: string;
  readonly folder: string;
  /** Stops listening, ends open connections with "ask", removes the socket and the endpoint file. */
  stop(): Promise<void>;
}

export type StartHookServerResult = { readonly ok: true; readonly server: HookServer } | { readonly ok: false; readonly error: string };

const DefaultMaxLineBytes = 4 * 1024 * 1024;
const DefaultMaxConnections = 64;

/** Starts listening; the result says why not (a foreign folder, a socket that cannot be made). */
export async function startHookServer(options: HookServerOptions): Promise<StartHookServerResult> {
  // A named pipe's rules are set by how it is created, which Node's net cannot (windowsPipe.ts).
  if (process.platform === "win32") return { ok: false, error: "terminal sessions' hooks are not served on Windows yet (the pipe's rules: windowsPipe.ts)" };
  const folder = ensureRunFolder(options.folder);
  if (!folder.ok) return folder;
  const socket = path.join(folder.folder, `hook-${process.pid}.sock`);
  const secret = randomBytes(32).toString("hex");
  const connections = new Set<net.Socket>();
  // Half-open: a client that ends its side after the request still gets the answer.
  const server = net.createServer({ allowHalfOpen: true }, (connection) => {
    const busy = connections.size >= (options.maxConnections ?? DefaultMaxConnections);
    connections.add(connection);
    connection.on("close", () => connections.delete(connection));
    if (busy) {
      options.log?.baton("warning", "Terminal hook refused: too many connections at once", { open: connections.size - 1 });
      connection.on("error", () => connection.destroy());
      // Read on to the client's end, so the connection closes when it does.
      connection.resume();
      connection.end(answerLine({ decision: "ask", reason: "Baton is busy; the terminal asks instead" }));
      return;
    }
    serveConnection(connection, secret, options);
  });
  try {
    // What crashed launches left, and a socket of this pid's (listen would fail on it).
    removeStaleEndpoints(folder.folder);
    removeStaleSocket(socket);
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(socket, () => {
        server.off("error", reject);
        resolve();
      });
    });
    fs.chmodSync(socket, 0o600);
    writeEndpoint(folder.folder, { socket, secret, pid: process.pid });
  } catch (error) {
    server.close();
    fs.rmSync(socket, { force: true });
    return { ok: false, error: `cannot listen on ${socket}: ${(error as Error).message}` };
  }
  server.on("error", (error) => options.log?.baton("error", "Terminal hook socket failed", { error: error.message }));
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopped ??= new Promise<void>((resolve) => {
      removeEndpoint(folder.folder, socket);
      server.close(() => resolve());
      for (const connection of connections) connection.destroy();
    }).then(() => fs.rmSync(socket, { force: true })));
  return { ok: true, server: { socket, folder: folder.folder, stop } };
}

function removeStaleSocket(socket: string): void {
  try {
    if (fs.lstatSync(socket).isSocket()) fs.rmSync(socket);
  } catch {
    // Nothing there.
  }
}

function answerLine(verdict: HookVerdict): string {
  return `${JSON.stringify(verdict)}\n`;
}

/** Reads one line (bounded), answers it once, closes. Reading goes on meanwhile (and drops), so the client's leaving is seen. */
function serveConnection(connection: net.Socket, secret: string, options: HookServerOptions): void {
  const maxLine = options.maxLineBytes ?? DefaultMaxLineBytes;
  const chunks: Buffer[] = [];
  let length = 0;
  let answered = false;
  let deciding = false;
  const gaveUp = new AbortController();
  const start = (): void => {
    deciding = true;
    void decide(Buffer.concat(chunks).toString("utf8"), secret, options, gaveUp).then(answer);
  };
  const answer = (verdict: HookVerdict): void => {
    if (answered) return;
    answered = true;
    connection.end(answerLine(verdict));
    // Read (and drop) the rest, so the client's end is seen and the connection closes.
    connection.resume();
  };
  connection.on("error", () => connection.destroy());
  // The hook stopped waiting (killed by the CLI, the session ended): a request it left is withdrawn.
  connection.on("close", () => {
    if (!answered) gaveUp.abort();
  });
  connection.on("data", (chunk: Buffer) => {
    if (answered || deciding) return;
    const newline = chunk.indexOf(0x0a);
    const take = newline === -1 ? chunk : chunk.subarray(0, newline);
    length += take.length;
    if (length > maxLine) {
      options.log?.baton("warning", "Terminal hook request refused: longer than the limit", { limitBytes: maxLine });
      answer({ decision: "ask", reason: "the hook's request was too long; the terminal asks instead" });
      return;
    }
    chunks.push(take);
    if (newline !== -1) start();
  });
  connection.on("end", () => {
    if (answered) return;
    // `baton hook` keeps its side open until the answer: its end while Baton decides means it is gone.
    if (deciding) gaveUp.abort();
    else if (length > 0) start();
    else answer(AskVerdict);
  });
}

/** The verdict for one request line: "ask" unless it is well formed, carries the secret, and the handler decides in time. */
async function decide(line: string, secret: string, options: HookServerOptions, gaveUp: AbortController): Promise<HookVerdict> {
  let envelope: unknown;
  try {
    envelope = JSON.parse(line);
  } catch {
    options.log?.baton("warning", "Terminal hook request is not JSON; answered ask");
    return AskVerdict;
  }
  const given = (envelope as { secret?: unknown } | null)?.secret;
  if (typeof given !== "string" || !sameSecret(given, secret)) {
    options.log?.baton("warning", "Terminal hook request refused: wrong secret (not from this Baton's `baton hook`)");
    return { decision: "ask", reason: "refused: wrong secret" };
  }
  const input = HookInputSchema.safeParse((envelope as { input?: unknown }).input);
  if (!input.success) {
    options.log?.baton("warning", "Terminal hook input is malformed; answered ask", { issue: input.error.issues[0]?.message ?? "" });
    return AskVerdict;
  }
  const launch: HookLaunch = { orchestration: (envelope as { orchestration?: unknown }).orchestration === true };
  return withinTime(options.handler, input.data, launch, options.answerWithinMs ?? ServerAnswerMs, options.log, gaveUp);
}

function sameSecret(given: string, secret: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function withinTime(handler: HookHandler, input: HookInput, launch: HookLaunch, ms: number, log: HookServerOptions["log"], gaveUp: AbortController): Promise<HookVerdict> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<HookVerdict>((resolve) => {
    timer = setTimeout(() => {
      gaveUp.abort();
      log?.baton("warning", "Terminal hook not answered in time; the terminal asks", { session: input.session_id, tool: input.tool_name ?? "" });
      resolve({ decision: "ask", reason: "Baton did not answer in time; the terminal asks instead" });
    }, ms);
  });
  try {
    return await Promise.race([handler(input, gaveUp.signal, launch).then(checkedVerdict), late]);
  } catch (error) {
    log?.baton("error", "Terminal hook handler failed; answered ask", { error: (error as Error).message });
    return AskVerdict;
  } finally {
    clearTimeout(timer);
  }
}

/** A handler's verdict as sent: anything but allow/deny/ask becomes "ask". */
function checkedVerdict(verdict: HookVerdict): HookVerdict {
  const decision = verdict?.decision;
  if (!isHookDecision(decision)) return AskVerdict;
  return typeof verdict.reason === "string" ? { decision, reason: verdict.reason } : { decision };
}
