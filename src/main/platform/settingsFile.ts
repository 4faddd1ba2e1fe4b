// Baton's own settings: one small JSON file in its user-data folder (the desktop app's
// `app.getPath("userData")`, web mode's $XDG_CONFIG_HOME/baton), never below ~/.claude. Fields this
// version does not know (written by a newer Baton) are kept when it writes; a damaged file reads
// as no settings, and the next save replaces it. `maxRunningSessions` (the cap on CLI processes
// running at once) is only ever written by the person; Baton reads it at start. `orchestration`
// (issue 22: presets and their sandboxes) is the toolbar's toggle; `--orchestration` wins over it.
// `conductorAnswerSeconds` (issue 24: how long the conductor has to answer a subagent's question
// or plan before the person is asked) is the person's to write; read at start. `policyCheckOnly`
// (issue 31) runs preset agents' commands without the operating system's sandbox, with the policy
// engine's reading of each line as their only protection: the person's choice, shown as a warning.
// The file is read only when it is the person's alone (trustedConfigFile.ts); otherwise every
// field reads as its default, the refusal is said once (PolicyService), and Baton does not write
// over it: the person sees what was refused and decides. Baton writes it 0600 (its folder 0700).

import { randomUUID } from "node:crypto";
import fsp from "node:fs/promises";
import path from "node:path";
import { isPlainObject } from "../../shared/apiChecks.js";
import { defaultDbPath } from "./dbPath.js";
import { ConfigRefusedError, readTrustedConfigFile, refusalMessage } from "./trustedConfigFile.js";

export const SETTINGS_FILE_NAME = "settings.json";

export interface BatonSettings {
  /** The history folder chosen in the app (absolute). */
  readonly projectsDir?: string;
}

export interface SettingsRead {
  readonly settings: BatonSettings;
  /** Why the file could not be used, when it exists but is damaged. */
  readonly problem?: string;
  /** Why Baton does not read the file at all (not the person's alone); said by PolicyService, which reads the same file. */
  readonly refused?: string;
}

/** Web mode's settings file: beside the default search index, in Baton's config folder. */
export function defaultSettingsFile(): string {
  return path.join(path.dirname(defaultDbPath()), SETTINGS_FILE_NAME);
}

export function readSettings(file: string): SettingsRead {
  const raw = readRaw(file);
  if (!raw.ok) return { settings: {}, ...(raw.problem !== undefined ? { problem: raw.problem } : {}), ...(raw.refused !== undefined ? { refused: raw.refused } : {}) };
  const { projectsDir } = raw.value;
  if (projectsDir !== undefined && (typeof projectsDir !== "string" || !path.isAbsolute(projectsDir))) {
    return { settings: {}, problem: `${file}: "projectsDir" is not an absolute path; it was ignored` };
  }
  return { settings: projectsDir !== undefined ? { projectsDir } : {} };
}

/** The fields the UI writes. */
export interface SavedSettings extends BatonSettings {
  readonly orchestration?: boolean;
  readonly policyCheckOnly?: boolean;
}

/** Whether the person chose "policy check only" (no OS sandbox for preset agents' commands); off when the file says nothing usable. */
export function readPolicyCheckOnly(file: string): { readonly policyCheckOnly: boolean; readonly problem?: string } {
  const raw = readRaw(file);
  if (!raw.ok || !Object.hasOwn(raw.value, "policyCheckOnly")) return { policyCheckOnly: false };
  const value = raw.value["policyCheckOnly"];
  if (typeof value === "boolean") return { policyCheckOnly: value };
  return { policyCheckOnly: false, problem: `${file}: "policyCheckOnly" must be true or false; it was ignored (the OS sandbox holds preset agents' commands)` };
}

export interface OrchestrationRead {
  readonly orchestration: boolean;
  /** Why the saved value was ignored. */
  readonly problem?: string;
  /** Why Baton does not read the settings file at all (every field its default). */
  readonly refused?: string;
}

/** Whether orchestration mode was left on; off when the file says nothing (or nothing usable). */
export function readOrchestration(file: string): OrchestrationRead {
  const raw = readRaw(file);
  if (!raw.ok && raw.refused !== undefined) return { orchestration: false, refused: raw.refused };
  if (!raw.ok || !Object.hasOwn(raw.value, "orchestration")) return { orchestration: false };
  const value = raw.value["orchestration"];
  if (typeof value === "boolean") return { orchestration: value };
  return { orchestration: false, problem: `${file}: "orchestration" must be true or false; it was ignored (off)` };
}

/** The `conductorAnswerSeconds` field's bounds. */
export const ConductorAnswerSecondsRange = { min: 5, max: 3600 } as const;

/** How long the conductor has to answer before the person is asked, if the settings file sets a usable value. Read once at start. */
export function readConductorAnswerSeconds(file: string): { readonly seconds?: number; readonly problem?: string } {
  const raw = readRaw(file);
  if (!raw.ok || !Object.hasOwn(raw.value, "conductorAnswerSeconds")) return {};
  const value = raw.value["conductorAnswerSeconds"];
  const { min, max } = ConductorAnswerSecondsRange;
  if (typeof value === "number" && Number.isFinite(value) && value >= min && value <= max) return { seconds: value };
  return { problem: `${file}: "conductorAnswerSeconds" must be a number of seconds from ${min} to ${max}; it was ignored` };
}

/** The `maxRunningSessions` field's bounds: at least one CLI, and not so many that the machine drowns. */
export const MaxRunningSessionsRange = { min: 1, max: 64 } as const;

export interface SessionLimitRead {
  /** The saved cap on running CLI processes; undefined: none saved (or not usable). */
  readonly maxRunningSessions?: number;
  /** Why the saved value was ignored. A damaged file is reported by readSettings, not here. */
  readonly problem?: string;
}

/** The cap on concurrently running CLI processes, if the settings file sets a usable one. Read once at start. */
export function readSessionLimit(file: string): SessionLimitRead {
  const raw = readRaw(file);
  if (!raw.ok || !Object.hasOwn(raw.value, "maxRunningSessions")) return {};
  const value = raw.value["maxRunningSessions"];
  const { min, max } = MaxRunningSessionsRange;
  if (typeof value === "number" && Number.isInteger(value) && value >= min && value <= max) return { maxRunningSessions: value };
  return { problem: `${file}: "maxRunningSessions" must be a whole number from ${min} to ${max}; it was ignored` };
}

/**
 * Sets (or, with undefined, removes) fields and writes the file whole: a crash leaves the old or the
 * new file, never half of one. A file Baton refused to read is left as it is (ConfigRefusedError).
 */
export async function updateSettings(file: string, change: { readonly [K in keyof Required<SavedSettings>]?: Required<SavedSettings>[K] | undefined }): Promise<void> {
  const current = readRaw(file);
  if (!current.ok && current.refused !== undefined) throw new ConfigRefusedError(current.refused);
  const next: Record<string, unknown> = current.ok ? { ...current.value } : {};
  for (const [key, value] of Object.entries(change)) {
    if (value === undefined) delete next[key];
    else next[key] = value;
  }
  const dir = path.dirname(file);
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomUUID()}.tmp`);
  try {
    await fsp.writeFile(temp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600, flag: "wx" });
    await fsp.rename(temp, file);
  } catch (error) {
    await fsp.rm(temp, { force: true });
    throw error;
  }
}

type RawRead = { ok: true; value: Record<string, unknown> } | { ok: false; problem?: string; refused?: string };

function readRaw(file: string): RawRead {
  const read = readTrustedConfigFile(file);
  if (read.kind === "missing") return { ok: true, value: {} };
  if (read.kind === "refused") return { ok: false, refused: refusalMessage(read.refusal, "Baton's settings are at their defaults") };
  if (read.kind === "unreadable") return { ok: false, problem: `${file} could not be read: ${read.error}` };
  try {
    const value: unknown = JSON.parse(read.text);
    if (isPlainObject(value)) return { ok: true, value };
  } catch {
    // reported below
  }
  return { ok: false, problem: `${file} is not a settings file (not a JSON object); it was ignored` };
}
