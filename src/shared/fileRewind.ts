// Rewinding a live session's files to a prompt (issue 37): what the CLI's `rewind_files` dry run
// says would change, with each file's content now and at that prompt so the window can show the
// diff before the person applies it (docs/protocol-notes.md, "Rewind files").

import { oneLine } from "./sessionTitle.js";

/** One file a rewind would change. */
export interface RewindFile {
  /** Absolute, as the CLI names it. */
  readonly path: string;
  /** Its content now; null: the file does not exist now. Absent: Baton could not read it (too large, unreadable). */
  readonly current?: string | null;
  /** Its content just before the prompt, which a rewind restores; null: it did not exist then (a rewind deletes it). Absent: not found in the CLI's checkpoints. */
  readonly restored?: string | null;
}

/** The dry run's answer, or the CLI's reason for refusing (`canRewind` false). */
export interface RewindPreview {
  readonly canRewind: boolean;
  /** The CLI's own words when it refuses ("No file checkpoint found for this message."). */
  readonly error?: string;
  readonly files: readonly RewindFile[];
  /** The CLI's counts over every file: lines a rewind adds back and lines it removes. */
  readonly insertions: number;
  readonly deletions: number;
}

/** The real rewind's answer: how many files were restored, or the CLI's reason for refusing. */
export interface RewindOutcome {
  readonly rewound: boolean;
  readonly error?: string;
  readonly filesChanged: number;
}

/** "1 file", "2 files". */
export function fileCount(files: number): string {
  return files === 1 ? "1 file" : `${files} files`;
}

/** The mark under the prompt the files were rewound to. */
export function rewoundMarkText(files: number): string {
  return `Files rewound to here: ${fileCount(files)}`;
}

/** The notice at the end of the transcript, when the rewind happened. */
export function rewindNoticeText(files: number, prompt: string): string {
  return `Files rewound (${fileCount(files)}) to just before the prompt “${oneLine(prompt, 60)}”.`;
}
