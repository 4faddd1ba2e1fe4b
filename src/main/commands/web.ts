// `baton web`: the Baton UI in a browser. Serves the built renderer and the API over a WebSocket
// on 127.0.0.1, behind single-use sign-in links (see src/main/web/webAuth.ts); `--new-link` asks a
// running one for another (src/main/web/linkControl.ts). Stops on SIGINT/SIGTERM: open permission
// requests are denied, every CLI is stopped, the index is closed, within a deadline.

import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { LogEntry } from "../../shared/api.js";
import { createAppCore } from "../app/createAppCore.js";
import { batonPackageDir } from "../cli/batonPackageDir.js";
import { defaultSettingsFile } from "../platform/settingsFile.js";
import { defaultDbPath } from "../platform/dbPath.js";
import { requestNewLink, startLinkControl, type LinkControl } from "../transport/web/linkControl.js";
import { startWebServer } from "../transport/web/webServer.js";
import { ExitCode, type CommandIO } from "./commandIO.js";

const HELP = `Usage: baton web [--port N] [--projects-dir <dir>] [--db <file>] [--no-index] [--claude <path>] [--orchestration]
       baton web --new-link [--port N]

Serves Baton's UI at http://127.0.0.1:<port>/ for a browser on this machine. The printed link
signs in one browser tab: its token (after #, so it reaches no server log) works once, and only
for 5 minutes. The tab keeps a secret of its own (it survives a reload); another tab needs
another link. Needs the built UI: run \`npm run build\` first. Ctrl-C stops it (and every
Claude Code session it started).

\`baton web --new-link\` prints a fresh single-use link from the \`baton web\` already running
(give --port when several run). It asks over a socket that only your user can open.

Options:
  --port <n>              Port to listen on (default: any free port)
  --new-link              Print a new sign-in link for the running \`baton web\`
  --projects-dir <dir>    History directory (default: the one chosen in the Project panel, saved in
                          $XDG_CONFIG_HOME/baton/settings.json; else $CLAUDE_CONFIG_DIR/projects
                          or ~/.claude/projects)
  --db <file>             Search index (default: $XDG_CONFIG_HOME/baton/history.db or ~/.config/baton/history.db)
  --no-index              Do not open the search index (search is then unavailable)
  --claude <path>         The claude CLI to run (default: BATON_CLAUDE_PATH, PATH, install dirs)
  --orchestration         Orchestration mode on for this run: presets as subagents, each in its
                          sandbox (default: the toolbar's setting, off until turned on)
`;

// Baton's package folder, whether this runs as source (src/main/commands) or bundled (out/cli).
const repoRoot = batonPackageDir() ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

export interface WebRunOptions {
  /** Resolves when the server should stop (default: SIGINT or SIGTERM). */
  readonly stopSignal?: Promise<void>;
  readonly rendererDir?: string;
  /** Called once the server listens (tests). */
  readonly onListening?: (url: string) => void;
  /** Where the `--new-link` socket goes (default: beside Baton's settings, in `web/`). */
  readonly controlDir?: string;
}

/** Stopping (CLIs, index) gets this long; then Baton leaves anyway. */
const StopDeadlineMs = 10_000;
/** After stopping, a read still in flight (a huge or stuck history file) may hold the process this long. */
const LingerMs = 1_000;

export async function run(args: readonly string[], io: CommandIO, options: WebRunOptions = {}): Promise<number> {
  let values: { port?: string; "new-link"?: boolean; "projects-dir"?: string; db?: string; "no-index"?: boolean; claude?: string; orchestration?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        port: { type: "string" },
        "new-link": { type: "boolean" },
        "projects-dir": { type: "string" },
        db: { type: "string" },
        "no-index": { type: "boolean" },
        claude: { type: "string" },
        orchestration: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    io.stderr(`baton web: ${error instanceof Error ? error.message : String(error)}\n\n${HELP}`);
    return ExitCode.usage;
  }
  if (values.help === true) {
    io.stdout(HELP);
    return ExitCode.ok;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    io.stderr(`baton web: --port takes a port number (0-65535)\n\n${HELP}`);
    return ExitCode.usage;
  }
  const controlDir = options.controlDir ?? path.join(path.dirname(defaultSettingsFile()), "web");
  if (values["new-link"] === true) {
    const reply = await requestNewLink(controlDir, port === 0 ? undefined : port);
    if (!reply.ok) {
      io.stderr(`baton web: ${reply.message}\n`);
      return ExitCode.failure;
    }
    io.stdout(`${linkNotice(reply.url)}\n`);
    return ExitCode.ok;
  }
  const rendererDir = options.rendererDir ?? path.join(repoRoot, "out", "renderer");
  if (!existsSync(path.join(rendererDir, "index.html"))) {
    io.stderr(`baton web: the UI is not built (no ${path.join(rendererDir, "index.html")}). Run \`npm run build\` first.\n`);
    return ExitCode.failure;
  }

  // The app core checks the index's place against the history folder it settles on (the switch,
  // or the saved setting): a database that may not go there leaves search off, with a warning.
  const core = await createAppCore({
    // The switch wins over the setting; without it the setting, $CLAUDE_CONFIG_DIR or ~/.claude decide.
    ...(values["projects-dir"] !== undefined ? { projectsDir: values["projects-dir"] } : {}),
    settingsFile: defaultSettingsFile(),
    ...(values["no-index"] === true ? {} : { dbPath: values.db ?? defaultDbPath() }),
    ...(values.claude !== undefined ? { claudePath: values.claude } : {}),
    ...(values.orchestration === true ? { orchestration: true } : {}),
    terminalHooks: true,
  });
  const show = (entry: LogEntry): void => {
    if (entry.level !== "error" && (entry.level !== "warning" || entry.source !== "baton")) return;
    const why = entry.fields?.["error"];
    io.stderr(`baton web: ${entry.message}${typeof why === "string" ? ` (${why})` : ""}\n`);
  };
  // What starting the core found (no CLI, no index) is already in the log.
  for (const entry of core.log.entries()) show(entry);
  const stopLog = core.log.subscribe(show);
  let server;
  try {
    server = await startWebServer({ service: core.service, rendererDir, port });
  } catch (error) {
    stopLog();
    await core.close();
    io.stderr(`baton web: could not listen on 127.0.0.1:${port}: ${error instanceof Error ? error.message : String(error)}\n`);
    return ExitCode.failure;
  }
  const web = server;
  let control: LinkControl | undefined;
  try {
    control = await startLinkControl(controlDir, web.port, () => web.newLink());
  } catch (error) {
    io.stderr(`baton web: --new-link will not work for this server (${error instanceof Error ? error.message : String(error)})\n`);
  }
  // Listening for Ctrl-C before saying it stops Baton: one pressed at once still stops it cleanly.
  const stopRequested = options.stopSignal ?? untilSignal();
  io.stdout(`${linkNotice(web.url)} Ctrl-C stops Baton.\n`);
  options.onListening?.(web.url);

  const signal = await stopRequested;
  io.stdout("Stopping Baton…\n");
  const stopped = await withinDeadline(
    (async () => {
      await control?.close();
      await web.close();
      await core.close();
    })(),
    StopDeadlineMs,
  );
  stopLog();
  if (!stopped) io.stderr(`baton web: stopping took longer than ${StopDeadlineMs / 1000} s; leaving anyway\n`);
  // Signalled (not a test): whatever still runs (a read of a huge or stuck file) may not keep the
  // process alive. Re-raising the signal with its default action ends it even when a thread is
  // blocked in the kernel, where process.exit() would wait for that thread.
  if (typeof signal === "string") leaveSoon(signal);
  return stopped ? ExitCode.ok : ExitCode.failure;
}

function linkNotice(url: string): string {
  return `Baton is at ${url}\nOpen it in a browser on this machine, within 5 minutes: the link signs in one tab, once.`;
}

function withinDeadline(work: Promise<void>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([work.then(() => true, () => true), late]).finally(() => clearTimeout(timer));
}

function leaveSoon(signal: NodeJS.Signals): void {
  // Unref'd: a process with nothing left to do exits normally (code 0) before this fires.
  setTimeout(() => {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }, LingerMs).unref();
}

function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve(signal);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}
