// How a transcript changed since the last scan, judged from its stat, its identity (dev:ino) and
// the bytes just before the indexed offset.
import fs from "node:fs";
import type { FileRow } from "./indexStatements.js";
import { openRegularFileSync } from "../platform/regularFile.js";

export type Outcome = "skipped" | "new" | "appended" | "reindexed";

const BOUNDARY_BYTES = 16;
const HEAD_BYTES = 64 * 1024;

export function identityOf(st: fs.Stats): string {
  return `${st.dev}:${st.ino}`;
}

export function isUnchanged(row: FileRow | undefined, st: fs.Stats): boolean {
  return row !== undefined && row.size === st.size && row.mtime_ms === st.mtimeMs && row.identity === identityOf(st);
}

export function classify(filePath: string, row: FileRow | undefined, st: fs.Stats, identity: string): Outcome {
  if (!row) return "new";
  if (row.identity !== identity || st.size < row.indexed_offset) return "reindexed";
  // Same size but a new mtime: rewritten in place.
  if (st.size === row.size && st.mtimeMs !== row.mtime_ms) return "reindexed";
  // Truncated and regrown past the offset: the bytes before the offset changed.
  if (readBoundary(filePath, row.indexed_offset) !== row.boundary) return "reindexed";
  return "appended";
}

/** Hex of the bytes just before `offset`: cheap evidence that the indexed prefix is unchanged. */
export function readBoundary(filePath: string, offset: number): string {
  const len = Math.min(BOUNDARY_BYTES, offset);
  if (len === 0) return "";
  const buf = Buffer.alloc(len);
  const fd = openRegularFileSync(filePath);
  try {
    const n = fs.readSync(fd, buf, 0, len, offset - len);
    return buf.subarray(0, n).toString("hex");
  } finally {
    fs.closeSync(fd);
  }
}

/** A root-layout sidechain names its session only in its lines (CLI 2.0.x). */
export function sessionIdInside(filePath: string): string | undefined {
  const buf = Buffer.alloc(HEAD_BYTES);
  let n = 0;
  try {
    const fd = openRegularFileSync(filePath);
    try {
      n = fs.readSync(fd, buf, 0, HEAD_BYTES, 0);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const match = /"sessionId"\s*:\s*"([^"]+)"/.exec(buf.subarray(0, n).toString("utf8"));
  return match?.[1];
}
