// The child process of the shell's boot test (started by shellProcess.ts with an IPC channel): maps
// `electron` to the test double electronStandIn.mjs (electronLoader.mjs), loads the BUILT
// out/main/index.js as Electron would (its argv holds the app's switches), forwards each entry the
// double records to the test, and does what the test asks: fire Electron's events, call the
// handlers the shell installed (app:// requests, navigations, permissions, IPC from a given frame).
//
// Two observers, not doubles, say when the shell's shutdown reaches the processes it owns: each
// `claude` it spawns (what it writes to the CLI's stdin, when it exits) and each worker thread (the
// store's worker ending is the index closed). They wrap Node's own spawn and Worker before the
// bundle is loaded (syncBuiltinESMExports carries the wrap to its `import { spawn }`).
import childProcess from "node:child_process";
import { register, syncBuiltinESMExports } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import workerThreads from "node:worker_threads";

register("./electronLoader.mjs", import.meta.url);
const { app, standIn, record, newEvent, WebContents } = await import("./electronStandIn.mjs");

const mainEntry = process.env["BATON_STANDIN_MAIN"];
if (!mainEntry) throw new Error("shellChild needs BATON_STANDIN_MAIN (out/main/index.js)");

/** @param {Record<string, unknown>} message */
function post(message) {
  process.send?.(message);
}

standIn.onRecord = (entry) => post({ type: "record", entry });
standIn.onSend = (contents, channel, args) => post({ type: "send", contents, channel, args });
standIn.onExit = (code) => {
  if (process.send) process.send({ type: "exit", code }, () => process.exit(code));
  else process.exit(code);
};

observeCliProcesses();
observeWorkers();

/** Each stream-json `claude` the shell starts: the control responses written to it, its stdin closed, signals sent, its exit. */
function observeCliProcesses() {
  const spawn = childProcess.spawn;
  // @ts-ignore: a wrapper with spawn's own signature
  childProcess.spawn = function observedSpawn(...args) {
    const child = spawn.apply(this, /** @type {any} */ (args));
    const argv = Array.isArray(args[1]) ? args[1] : [];
    if (argv.includes("--input-format")) observeCli(child);
    return child;
  };
  syncBuiltinESMExports();
}

/** @param {import("node:child_process").ChildProcess} child */
function observeCli(child) {
  const pid = child.pid;
  record("cli.spawned", { pid });
  const stdin = child.stdin;
  if (stdin) {
    const write = stdin.write.bind(stdin);
    // @ts-ignore: same signature as the stream's write
    stdin.write = (chunk, ...rest) => {
      for (const line of String(chunk).split("\n")) recordControlResponse(pid, line);
      return write(chunk, .../** @type {[any]} */ (rest));
    };
    stdin.once("finish", () => record("cli.stdin.closed", { pid }));
  }
  const kill = child.kill.bind(child);
  child.kill = (signal) => {
    record("cli.kill", { pid, signal: signal ?? "SIGTERM" });
    return kill(signal);
  };
  child.once("exit", (code, signal) => record("cli.exit", { pid, code, signal }));
}

/** @param {number | undefined} pid @param {string} line */
function recordControlResponse(pid, line) {
  if (!line.includes('"control_response"')) return;
  try {
    const message = JSON.parse(line);
    const response = message?.response;
    const answer = response?.response;
    record("cli.stdin.control_response", { pid, requestId: response?.request_id, behavior: answer?.behavior, message: answer?.message });
  } catch {
    record("cli.stdin.control_response", { pid, unparsed: line.slice(0, 200) });
  }
}

function observeWorkers() {
  const RealWorker = workerThreads.Worker;
  class ObservedWorker extends RealWorker {
    /** @param {string | URL} filename @param {import("node:worker_threads").WorkerOptions} [options] */
    constructor(filename, options) {
      super(filename, options);
      const name = path.basename(filename instanceof URL ? fileURLToPath(filename) : String(filename));
      record("worker.started", { name, threadId: this.threadId });
      const threadId = this.threadId;
      this.once("exit", (code) => record("worker.exit", { name, threadId, code }));
    }
  }
  // @ts-ignore: the observed class in the module's place
  workerThreads.Worker = ObservedWorker;
  syncBuiltinESMExports();
}

/** The IPC event Electron gives a handler, for a call from `from`. */
function invokeEvent(from) {
  const window = standIn.windows[0];
  if (window === undefined) throw new Error("no window: an IPC call needs the window's page");
  const contents = window.webContents;
  switch (from) {
    case "app":
      return { event: { sender: contents, senderFrame: contents.mainFrame, processId: 1, frameId: 1 }, restore: () => undefined };
    case "subframe":
      // An iframe of the app's own origin inside the window's page.
      return { event: { sender: contents, senderFrame: { url: contents.mainFrame.url, parent: contents.mainFrame, routingId: 2 }, processId: 1, frameId: 2 }, restore: () => undefined };
    case "foreign-origin": {
      // The window's main frame after it was navigated to another site.
      const before = contents.mainFrame.url;
      contents.mainFrame.url = "https://evil.example/";
      return { event: { sender: contents, senderFrame: contents.mainFrame, processId: 1, frameId: 1 }, restore: () => (contents.mainFrame.url = before) };
    }
    case "other-contents": {
      // Another web contents (a devtools or webview page) showing the app's own URL.
      const other = new WebContents(contents.mainFrame.url);
      return { event: { sender: other, senderFrame: other.mainFrame, processId: 2, frameId: 1 }, restore: () => undefined };
    }
    default:
      throw new Error(`unknown sender ${from}`);
  }
}

/** @param {Record<string, any>} command */
async function run(command) {
  switch (command.op) {
    case "ready":
      standIn.fireReady();
      return undefined;
    case "appEvent":
      app.emit(command.name, newEvent(), ...(command.args ?? []));
      return undefined;
    case "quit":
      app.quit();
      return undefined;
    case "newContents": {
      // Another web contents coming to life (a devtools page, a webview's guest): Electron's web-contents-created.
      const contents = new WebContents(command.url ?? "");
      app.emit("web-contents-created", newEvent(), contents);
      return contents.id;
    }
    case "closeWindow":
      standIn.windows[0]?.close();
      return undefined;
    case "minimize":
      standIn.windows[0]?.minimize();
      return undefined;
    case "invoke": {
      const handler = standIn.ipcHandlers.get(command.channel);
      if (handler === undefined) throw new Error(`no handler for ${command.channel}`);
      const { event, restore } = invokeEvent(command.from);
      let answer;
      try {
        answer = handler(event, ...command.args);
      } finally {
        restore();
      }
      return await answer;
    }
    case "protocol": {
      const scheme = new URL(command.url).protocol.slice(0, -1);
      const handler = standIn.protocolHandlers.get(scheme);
      if (handler === undefined) throw new Error(`no protocol handler for ${scheme}:`);
      const response = await handler(new Request(command.url));
      return { status: response.status, headers: [...response.headers], body: new Uint8Array(await response.arrayBuffer()) };
    }
    case "contentsEvent": {
      const window = standIn.windows[0];
      if (window === undefined) throw new Error("no window");
      const event = newEvent(command.url === undefined ? {} : { url: command.url, isMainFrame: true });
      window.webContents.emit(command.name, event, ...(command.args ?? []));
      return { prevented: event.defaultPrevented };
    }
    case "windowOpen": {
      const handler = standIn.windows[0]?.webContents.windowOpenHandler;
      if (handler === undefined) throw new Error("no window open handler");
      return handler({ url: command.url, frameName: "", features: "", disposition: "foreground-tab", referrer: { url: "", policy: "default" } });
    }
    case "permissionRequest": {
      const handler = standIn.permissionRequestHandler;
      if (handler === undefined) throw new Error("no permission request handler");
      const contents = standIn.windows[0]?.webContents;
      return await new Promise((resolve) => handler(contents, command.permission, resolve, { requestingUrl: command.requestingUrl, isMainFrame: true }));
    }
    case "permissionCheck": {
      const handler = standIn.permissionCheckHandler;
      if (handler === undefined) throw new Error("no permission check handler");
      return handler(standIn.windows[0]?.webContents ?? null, command.permission, command.origin, { requestingUrl: command.origin, isMainFrame: true });
    }
    case "headersReceived": {
      const handler = standIn.headersReceivedHandler;
      if (handler === undefined) throw new Error("no onHeadersReceived handler");
      return await new Promise((resolve) => handler({ url: command.url, resourceType: "mainFrame", responseHeaders: command.responseHeaders }, resolve));
    }
    default:
      throw new Error(`unknown command ${command.op}`);
  }
}

process.on("message", (/** @type {Record<string, any>} */ command) => {
  run(command).then(
    (value) => post({ type: "reply", id: command.id, ok: true, value }),
    (error) => post({ type: "reply", id: command.id, ok: false, error: String(error?.stack ?? error) }),
  );
});
process.on("uncaughtException", (error) => {
  record("process.uncaughtException", { error: String(error?.stack ?? error) });
  console.error(error);
});

try {
  await import(pathToFileURL(mainEntry).href);
  record("main.loaded");
} catch (error) {
  record("main.failed", { error: String(/** @type {Error} */ (error)?.stack ?? error) });
}
