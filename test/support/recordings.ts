// Finds the recorded CLI runs tests are built on: `../shared/recordings/*` (beside the project,
// not committed) and `fixtures/recordings/*` (committed). Either may be absent; tests that need
// them skip with a visible message instead of passing silently.

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const sharedDir = path.resolve(repoRoot, "../shared");
export const sharedRecordingsDir = path.join(sharedDir, "recordings");
export const fixtureRecordingsDir = path.join(repoRoot, "fixtures/recordings");

export interface Recording {
  /** Folder name, e.g. `a-subagent`. */
  readonly name: string;
  readonly dir: string;
  readonly source: "shared" | "fixtures";
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

/** Every recording folder from both places, shared first, sorted by name. */
export function listRecordings(): Recording[] {
  return [...recordingsIn(sharedRecordingsDir, "shared"), ...recordingsIn(fixtureRecordingsDir, "fixtures")];
}

/** One recording by folder name (shared preferred), or undefined when absent. */
export function findRecording(name: string): Recording | undefined {
  return listRecordings().find((r) => r.name === name);
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
export function warnIfNoRecordings(suite: string): boolean {
  const missing = listRecordings().length === 0;
  if (missing) {
    console.warn(`[${suite}] skipped: no recordings in ${sharedRecordingsDir} or ${fixtureRecordingsDir}`);
  }
  return missing;
}

function recordingsIn(root: string, source: Recording["source"]): Recording[] {
  if (!isDirectory(root)) return [];
  return readdirSync(root)
    .sort()
    .map((name) => path.join(root, name))
    .filter(isDirectory)
    .map((dir) => {
      const files = readdirSync(dir).sort();
      const pick = (stem: string) =>
        files.filter((f) => f === `${stem}.jsonl` || (f.startsWith(`${stem}.run`) && f.endsWith(".jsonl"))).map((f) => path.join(dir, f));
      return { name: path.basename(dir), dir, source, streamFiles: pick("stream"), stdinFiles: pick("stdin") };
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
export function needRecording(name: string): Recording {
  const r = findRecording(name);
  if (r === undefined) throw new Error(`recording ${name} missing`);
  return r;
}
