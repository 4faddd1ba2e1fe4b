// Every recording the fuzz properties run over: both CLIs' committed sets (fixtures/recordings,
// fixtures/recordings-2.1.332) and, when it is there, the shared set beside the project
// (../shared/recordings, not committed: its absence is said, never a failure).

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { listRecordings, RECORDING_VERSIONS, sharedRecordingsAvailable, sharedRecordingsDir, type Recording } from "../recordings.js";

export interface StreamCapture {
  /** `<version>/<recording>/<file>`, for test names. */
  readonly label: string;
  /** The CLI's stdout as recorded, byte for byte. */
  readonly bytes: Buffer;
  /** The client's stdin of the same run (prompts, permission answers), when recorded. */
  readonly stdinBytes: Buffer | undefined;
}

export interface HistoryCapture {
  readonly label: string;
  /** The recording's `projects` folder. */
  readonly projectsDir: string;
  /** Main transcripts (`<project>/<session>.jsonl`), absolute. */
  readonly mainFiles: readonly string[];
  /** Every subagent transcript (`agent-*.jsonl`, any depth of folder), absolute. */
  readonly sidechainFiles: readonly string[];
}

/** Every recording of every CLI version, with the version in its label. */
export function allRecordings(): { readonly version: string; readonly recording: Recording }[] {
  return RECORDING_VERSIONS.flatMap((version) => listRecordings(version).map((recording) => ({ version, recording })));
}

/** Says once whether the shared set is part of the run (it is not committed; CI runs without it). */
export function noteSharedRecordings(suite: string): void {
  if (!sharedRecordingsAvailable()) console.warn(`[${suite}] ${sharedRecordingsDir} absent: fuzzing the committed recordings only`);
}

export function streamCaptures(): StreamCapture[] {
  return allRecordings().flatMap(({ version, recording }) =>
    recording.streamFiles.map((file) => {
      const stdinFile = file.replace(/stream(\.run\d+)?\.jsonl$/, "stdin$1.jsonl");
      return {
        label: `${version}/${recording.source === "shared" ? "shared/" : ""}${recording.name}/${path.basename(file)}`,
        bytes: readFileSync(file),
        stdinBytes: existsSync(stdinFile) ? readFileSync(stdinFile) : undefined,
      };
    }),
  );
}

export function historyCaptures(): HistoryCapture[] {
  return allRecordings().flatMap(({ version, recording }) => {
    const projectsDir = path.join(recording.dir, "projects");
    if (!existsSync(projectsDir)) return [];
    const files = jsonlFilesUnder(projectsDir);
    const mainFiles = files.filter((f) => path.dirname(path.dirname(f)) === projectsDir && !path.basename(f).startsWith("agent-"));
    if (mainFiles.length === 0) return [];
    return [
      {
        label: `${version}/${recording.source === "shared" ? "shared/" : ""}${recording.name}`,
        projectsDir,
        mainFiles,
        sidechainFiles: files.filter((f) => /^agent-.*\.jsonl$/.test(path.basename(f))),
      },
    ];
  });
}

/** Every JSONL file the recordings hold (stdout, stdin, history): the framer's and parser's input. */
export function allJsonlFiles(): { readonly label: string; readonly file: string }[] {
  return allRecordings().flatMap(({ version, recording }) =>
    jsonlFilesUnder(recording.dir).map((file) => ({ label: `${version}/${recording.name}/${path.relative(recording.dir, file)}`, file })),
  );
}

function jsonlFilesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) return jsonlFilesUnder(full);
      return name.endsWith(".jsonl") ? [full] : [];
    });
}
