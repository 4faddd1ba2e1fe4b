// The built Electron shell started for a test, as a person's first run would find it, but isolated:
// the real `claude` CLI against the scripted model server (cliEnv.ts), a temporary HOME with the
// given recordings copied into its history folder (passed with `--projects-dir`, as
// `npm start -- --projects-dir D` would), Electron's userData, config and run folders inside that
// HOME, and the `electron` module replaced by the test double (shellProcess.ts). Never the
// person's own ~/.claude.
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { createCliEnv, type CliEnv } from "../cliEnv.js";
import { startModelServer, type ModelServer, type Script } from "../modelServer.js";
import { ensureMainBuilt, ensureRendererBuilt, repoRoot } from "../ui/buildRenderer.js";
import { ShellProcess } from "./shellProcess.js";

export interface ShellApp {
  readonly shell: ShellProcess;
  readonly model: ModelServer;
  readonly env: CliEnv;
  /** The built files the shell loads. */
  readonly mainOut: string;
  readonly rendererOut: string;
  /** Stops the shell (SIGTERM, which it answers with app.quit), the model server, and removes the HOME. */
  close(): Promise<void>;
}

export interface ShellAppOptions {
  readonly script?: Script;
  readonly cwdName?: string;
  /** Recordings (folders under fixtures/recordings) whose history is copied into the history folder. */
  readonly recordings?: readonly string[];
  readonly lockHeld?: boolean;
  readonly dark?: boolean;
  /** Run as `npm start` does, the page from this dev server (ELECTRON_RENDERER_URL). */
  readonly devServerUrl?: string;
  /** app.isPackaged: an installed app. */
  readonly packaged?: boolean;
}

export async function startShellApp(options: ShellAppOptions = {}): Promise<ShellApp> {
  const rendererOut = ensureRendererBuilt();
  const mainOut = ensureMainBuilt();
  const model = await startModelServer(options.script ?? {});
  const env = await createCliEnv({ baseUrl: model.url, cwdName: options.cwdName ?? "electron-shell" });
  model.setProjectsDir(env.projectsDir);
  for (const name of options.recordings ?? []) {
    fs.cpSync(path.join(repoRoot, "fixtures", "recordings", name, "projects"), env.projectsDir, { recursive: true });
  }
  const userData = path.join(env.home, ".config", "Baton");
  const runDir = path.join(env.home, ".run");
  await fsp.mkdir(userData, { recursive: true });
  await fsp.mkdir(runDir, { recursive: true, mode: 0o700 });
  const shell = new ShellProcess({
    mainEntry: path.join(mainOut, "index.js"),
    env: {
      ...env.env,
      // The CLI the person installed; the shell never picks Baton's own test copy from node_modules.
      BATON_CLAUDE_PATH: env.claudePath,
      XDG_CONFIG_HOME: path.join(env.home, ".config"),
      XDG_RUNTIME_DIR: runDir,
    },
    args: ["--projects-dir", env.projectsDir],
    userData,
    ...(options.lockHeld !== undefined ? { lockHeld: options.lockHeld } : {}),
    ...(options.dark !== undefined ? { dark: options.dark } : {}),
    ...(options.devServerUrl !== undefined ? { devServerUrl: options.devServerUrl } : {}),
    ...(options.packaged !== undefined ? { packaged: options.packaged } : {}),
  });
  return {
    shell,
    model,
    env,
    mainOut,
    rendererOut,
    async close() {
      await shell.stop();
      await model.close();
      await env.cleanup();
    },
  };
}
