// Which folder the app lists past sessions from, and the setting that changes it while the app
// runs. Order: the `--projects-dir` switch, the folder saved in Baton's settings file,
// $CLAUDE_CONFIG_DIR/projects, ~/.claude/projects (chooseProjectsDir). A new folder is checked
// before it is saved: it must exist, and Baton's own settings file must not lie inside it, as
// written or once links are followed (Baton only ever reads below the history folder).

import type { Stats } from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { HistoryFolder } from "../../shared/api.js";
import { mayBeInsideDir } from "../platform/containedPath.js";
import { chooseProjectsDir, expandHome, type ProjectsDirChoice } from "../platform/projectsDir.js";
import { AppError } from "./appError.js";
import { readSettings, updateSettings, type SettingsRead } from "../platform/settingsFile.js";

export interface HistoryFolderOptions {
  /** The `--projects-dir` switch: wins over the setting for as long as this process runs. */
  readonly commandLine?: string;
  /** Baton's settings file; without one the folder cannot be changed from the app. */
  readonly settingsFile?: string;
  /** Baton's other files (the index database): a folder holding one is refused, as one holding the settings file is. */
  readonly ownFiles?: readonly string[];
  /** For $CLAUDE_CONFIG_DIR (the CLI's environment). */
  readonly env?: NodeJS.ProcessEnv;
  readonly homeDir?: string;
}

export class HistoryFolderSetting {
  private saved: string | undefined;
  private choice: ProjectsDirChoice;
  private readonly listeners = new Set<(choice: ProjectsDirChoice) => void>();
  /** Why the settings file was not used at start, if it was damaged. */
  readonly problem: string | undefined;

  constructor(private readonly options: HistoryFolderOptions) {
    const read: SettingsRead = options.settingsFile !== undefined ? readSettings(options.settingsFile) : { settings: {} };
    this.saved = read.settings.projectsDir;
    this.problem = read.problem;
    this.choice = this.choose();
  }

  /** The folder in use now. */
  get current(): ProjectsDirChoice {
    return this.choice;
  }

  async info(): Promise<HistoryFolder> {
    const { projectsDir, source } = this.choice;
    return {
      projectsDir,
      source,
      exists: (await statOf(projectsDir))?.isDirectory() === true,
      ...(this.saved !== undefined ? { saved: this.saved } : {}),
      ...(this.options.settingsFile !== undefined ? { settingsFile: this.options.settingsFile } : {}),
    };
  }

  /** Checks, saves and applies a new folder (null: forget the saved one). Throws AppError; nothing changes then. */
  async change(dir: string | null): Promise<HistoryFolder> {
    const file = this.options.settingsFile;
    if (file === undefined) throw new AppError("settings_unavailable", "This Baton keeps no settings file, so the history folder cannot be changed here; use --projects-dir");
    const saved = dir === null ? undefined : await this.checked(dir, file);
    try {
      await updateSettings(file, { projectsDir: saved });
    } catch (error) {
      throw new AppError("settings_unwritable", `Could not save ${file}: ${(error as Error).message}`);
    }
    this.saved = saved;
    const before = this.choice;
    this.choice = this.choose();
    if (this.choice.projectsDir !== before.projectsDir) for (const listener of [...this.listeners]) listener(this.choice);
    return this.info();
  }

  /** Called after the folder in use changed (not when a saved folder stays overridden by the switch). */
  onChange(listener: (choice: ProjectsDirChoice) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private choose(): ProjectsDirChoice {
    return chooseProjectsDir({
      ...(this.options.commandLine !== undefined ? { override: this.options.commandLine } : {}),
      setting: this.saved,
      ...(this.options.env !== undefined ? { env: this.options.env } : {}),
      homeDir: this.home(),
    });
  }

  private home(): string {
    return this.options.homeDir ?? os.homedir();
  }

  private async checked(dir: string, settingsFile: string): Promise<string> {
    const resolved = path.resolve(expandHome(dir, this.home()));
    const stat = await statOf(resolved);
    if (stat === undefined) throw new AppError("not_found", `The folder ${resolved} does not exist`);
    if (!stat.isDirectory()) throw new AppError("not_a_directory", `${resolved} is a file, not a folder`);
    for (const own of [settingsFile, ...(this.options.ownFiles ?? [])]) {
      // Compared as written and as real paths: a link to Baton's folder, or /proc/self/root/…, is that folder.
      if (mayBeInsideDir(path.resolve(own), resolved)) {
        throw new AppError("forbidden_path", `${resolved} holds Baton's own files (${own}); Baton never writes inside the history folder`);
      }
    }
    return resolved;
  }
}

async function statOf(p: string): Promise<Stats | undefined> {
  try {
    return await fsp.stat(p);
  } catch {
    return undefined;
  }
}
