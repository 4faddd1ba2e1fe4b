// `baton web`: the Baton UI in a browser. Serves the built renderer and the API over a WebSocket
// on 127.0.0.1, behind a per-launch token (see src/main/web/webAuth.ts). Stops on SIGINT/SIGTERM:
// open permission requests are denied, every CLI is stopped, the index is closed.

import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { LogEntry } from "../../shared/api.js";
import { createAppCore } from "../app/createAppCore.js";
import { defaultSettingsFile } from "../app/settingsFile.js";
import { defaultDbPath } from "../store/dbPath.js";
import { startWebServer } from "../web/webServer.js";
import { ExitCode, type CommandIO } from "./commandIO.js";

const HELP = `Usage: baton web [--port N] [--projects-dir <dir>] [--db <file>] [--no-index] [--claude <path>]

Serves Baton's UI at http://127.0.0.1:<port>/ for a browser on this machine. Open the printed
URL once: its token becomes a cookie and leaves the address bar. Needs the built UI: run
\`npm run build\` first. Ctrl-C stops it (and every Claude Code session it started).

Options:
  --port <n>              Port to listen on (default: any free port)
  --projects-dir <dir>    History directory (default: the one chosen in the Project panel, saved in
                          $XDG_CONFIG_HOME/baton/settings.json; else $CLAUDE_CONFIG_DIR/projects
                          or ~/.claude/projects)
  --db <file>             Search index (default: $XDG_CONFIG_HOME/baton/history.db or ~/.config/baton/history.db)
  --no-index              Do not open the search index (search is then unavailable)
  --claude <path>         The claude CLI to run (default: BATON_CLAUDE_PATH, PATH, node_modules/.bin)
`;

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

export interface WebRunOptions {
  /** Resolves when the server should stop (default: SIGINT or SIGTERM). */
  readonly stopSignal?: Promise<void>;
  readonly rendererDir?: string;
  /** Called once the server listens (tests). */
  readonly onListening?: (url: string) => void;
}

export async function run(args: readonly string[], io: CommandIO, options: WebRunOptions = {}): Promise<number> {
  let values: { port?: string; "projects-dir"?: string; db?: string; "no-index"?: boolean; claude?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        port: { type: "string" },
        "projects-dir": { type: "string" },
        db: { type: "string" },
        "no-index": { type: "boolean" },
        claude: { type: "string" },
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
    searchFrom: [process.cwd(), repoRoot],
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
  io.stdout(`Baton is at ${server.url}\nOpen it in a browser on this machine. Ctrl-C stops Baton.\n`);
  options.onListening?.(server.url);

  await (options.stopSignal ?? untilSignal());
  io.stdout("Stopping Baton…\n");
  await server.close();
  await core.close();
  stopLog();
  return ExitCode.ok;
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}
