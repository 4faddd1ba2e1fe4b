// Finds the recorded CLI runs tests are built on, one set per CLI version. 2.1.197 (the default):
// `../shared/recordings/*` (beside the project, not committed) and `fixtures/recordings/*`
// (committed). Any other version: `fixtures/recordings-<version>/*` only. `BATON_RECORDINGS=2.1.332`
// points every loader-based test at that set. A set may be absent; tests that need it skip with
// a visible message instead of passing silently.

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const sharedDir = path.resolve(repoRoot, "../shared");
export const sharedRecordingsDir = path.join(sharedDir, "recordings");
export const fixtureRecordingsDir = path.join(repoRoot, "fixtures/recordings");

/** CLI versions with a recording set; the first is the default. */
export const RECORDING_VERSIONS = ["2.1.197", "2.1.332"] as const;
export type RecordingVersion = (typeof RECORDING_VERSIONS)[number];
export const DEFAULT_RECORDING_VERSION: RecordingVersion = "2.1.197";

/**
 * Scenarios (test/support/scenarios) with no recording for a version, and why; named in
 * needRecording's error. None so far: every scenario recorded on 2.1.332 too.
 */
export const NOT_RECORDED: Readonly<Record<RecordingVersion, Readonly<Record<string, string>>>> = {
  "2.1.197": {},
  "2.1.332": {},
};

export function isRecordingVersion(value: string): value is RecordingVersion {
  return (RECORDING_VERSIONS as readonly string[]).includes(value);
}

/** The set the tests read: `BATON_RECORDINGS`, else the default. An unknown value is an error, not a silent default. */
export function selectedRecordingVersion(env: NodeJS.ProcessEnv = process.env): RecordingVersion {
  const wanted = env["BATON_RECORDINGS"];
  if (wanted === undefined || wanted === "") return DEFAULT_RECORDING_VERSION;
  if (!isRecordingVersion(wanted)) throw new Error(`BATON_RECORDINGS=${wanted}: not one of ${RECORDING_VERSIONS.join(", ")}`);
  return wanted;
}

/** Where `npm run record` writes (and tests read) the committed recordings of `version`. */
export function fixtureRecordingsDirFor(version: RecordingVersion): string {
  return version === DEFAULT_RECORDING_VERSION ? fixtureRecordingsDir : path.join(repoRoot, `fixtures/recordings-${version}`);
}

export interface Recording {
  /** Folder name, e.g. `a-subagent`. */
  readonly name: string;
  readonly dir: string;
  readonly source: "shared" | "fixtures";
  /** The CLI version of the set it belongs to. */
  readonly cliVersion: RecordingVersion;
  /** `stream.jsonl` and any `stream.runN.jsonl` (stdout), absolute paths. */
  readonly streamFiles: readonly string[];
  /** `stdin.jsonl` and any `stdin.runN.jsonl`, absolute paths. */
  readonly stdinFiles: readonly string[];
}

export interface JsonlLine {
  readonly lineNumber: number;
  readonly text: string;
}

export function sharedRecordingsAvailable(): boolean {
  return isDirectory(sharedRecordingsDir);
}

/** Every recording folder of a version's set, shared first (2.1.197 only), each place sorted by name. */
export function listRecordings(version: RecordingVersion = selectedRecordingVersion()): Recording[] {
  const shared = version === DEFAULT_RECORDING_VERSION ? recordingsIn(sharedRecordingsDir, "shared", version) : [];
  return [...shared, ...recordingsIn(fixtureRecordingsDirFor(version), "fixtures", version)];
}

/** One recording by folder name (shared preferred), or undefined when absent. */
export function findRecording(name: string, version: RecordingVersion = selectedRecordingVersion()): Recording | undefined {
  return listRecordings(version).find((r) => r.name === name);
}

/** A JSONL file's non-blank lines with their 1-based line numbers. */
export function readJsonlLines(file: string): JsonlLine[] {
  const lines: JsonlLine[] = [];
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((text, i) => {
      if (text.trim() !== "") lines.push({ lineNumber: i + 1, text });
    });
  return lines;
}

/** Says why recording-based tests are skipped; call it where `describe.skipIf` is decided. */
export function warnIfNoRecordings(suite: string, version: RecordingVersion = selectedRecordingVersion()): boolean {
  const missing = listRecordings(version).length === 0;
  if (missing) {
    const places = version === DEFAULT_RECORDING_VERSION ? `${sharedRecordingsDir} or ${fixtureRecordingsDir}` : fixtureRecordingsDirFor(version);
    console.warn(`[${suite}] skipped: no ${version} recordings in ${places}`);
  }
  return missing;
}

function recordingsIn(root: string, source: Recording["source"], cliVersion: RecordingVersion): Recording[] {
  if (!isDirectory(root)) return [];
  return readdirSync(root)
    .sort()
    .map((name) => path.join(root, name))
    .filter(isDirectory)
    .map((dir) => {
      const files = readdirSync(dir).sort();
      const pick = (stem: string) =>
        files.filter((f) => f === `${stem}.jsonl` || (f.startsWith(`${stem}.run`) && f.endsWith(".jsonl"))).map((f) => path.join(dir, f));
      return { name: path.basename(dir), dir, source, cliVersion, streamFiles: pick("stream"), stdinFiles: pick("stdin") };
    })
    .filter((r) => r.streamFiles.length > 0);
}

function isDirectory(p: string): boolean {
  return existsSync(p) && statSync(p).isDirectory();
}

/** Main transcripts of a recording's history: `projects/<P>/<session>.jsonl`. */
export function mainTranscriptFiles(r: Recording): string[] {
  const root = path.join(r.dir, "projects");
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((p) =>
    readdirSync(path.join(root, p))
      .filter((f) => f.endsWith(".jsonl") && !f.startsWith("agent-"))
      .map((f) => path.join(root, p, f)),
  );
}

/** A recording a test cannot do without (the suite is skipped when recordings are absent). */
export function needRecording(name: string, version: RecordingVersion = selectedRecordingVersion()): Recording {
  const r = findRecording(name, version);
  if (r === undefined) {
    const why = NOT_RECORDED[version][name];
    throw new Error(`recording ${name} (${version}) missing${why === undefined ? "" : `: ${why}`}`);
  }
  return r;
}
