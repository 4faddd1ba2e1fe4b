// Facts a test needs of one recording, read from its own files (stdin, meta.json, the history it
// left), so the same assertion means the same thing on every recording set: ids, prompts and
// titles differ from one CLI version's recording to the next.

import fs from "node:fs";
import path from "node:path";
import { mainTranscriptFiles, readJsonlLines, type Recording } from "./recordings.js";

export type JsonRecord = Readonly<Record<string, unknown>>;

/** The parsed lines of a JSONL file that are JSON objects, in file order. */
export function jsonObjects(file: string): JsonRecord[] {
  return readJsonlLines(file).flatMap(({ text }) => {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? [value as JsonRecord] : [];
  });
}

/** Every stdin line of the recording's runs, in order. */
export function stdinLines(r: Recording): JsonRecord[] {
  return r.stdinFiles.flatMap(jsonObjects);
}

/** The prompts Baton's side typed into the CLI (stdin `user` messages with text content). */
export function sentPrompts(r: Recording): string[] {
  return stdinLines(r).flatMap((line) => {
    const message = line["type"] === "user" ? (line["message"] as JsonRecord | undefined) : undefined;
    return typeof message?.["content"] === "string" ? [message["content"]] : [];
  });
}

/** The `initialize` request the recording opened with (its title, agents, hooks…), if any. */
export function initializeRequest(r: Recording): JsonRecord | undefined {
  for (const line of stdinLines(r)) {
    const request = line["type"] === "control_request" ? (line["request"] as JsonRecord | undefined) : undefined;
    if (request?.["subtype"] === "initialize") return request;
  }
  return undefined;
}

/** The recording's meta.json: the CLI version, cwd and runs it was recorded with. */
export function recordingMeta(r: Recording): { readonly cliVersion: string; readonly cwd: string } & JsonRecord {
  return JSON.parse(fs.readFileSync(path.join(r.dir, "meta.json"), "utf8")) as { cliVersion: string; cwd: string } & JsonRecord;
}

export interface RecordedSession {
  readonly sessionId: string;
  /** The project folder's name under `projects/`. */
  readonly project: string;
  /** The main transcript, inside the recording. */
  readonly file: string;
}

/** The recording's one main session; a recording with more (or none) is an error, not a guess. */
export function recordedSession(r: Recording): RecordedSession {
  const files = mainTranscriptFiles(r);
  if (files.length !== 1) throw new Error(`recording ${r.name} (${r.cliVersion}) has ${files.length} main transcripts, not one`);
  const file = files[0]!;
  return { sessionId: path.basename(file, ".jsonl"), project: path.basename(path.dirname(file)), file };
}

/** The agent ids of a session's `subagents/agent-<id>.jsonl` files, sorted. */
export function sidechainIds(sessionDir: string): string[] {
  return fs
    .readdirSync(path.join(sessionDir, "subagents"))
    .flatMap((name) => /^agent-(.+)\.jsonl$/.exec(name)?.[1] ?? [])
    .sort();
}

/** The text of the last assistant text block of a transcript: a subagent's report, for a sidechain. */
export function lastAssistantText(file: string): string {
  let last: string | undefined;
  for (const line of jsonObjects(file)) {
    const content = line["type"] === "assistant" ? (line["message"] as JsonRecord | undefined)?.["content"] : undefined;
    if (!Array.isArray(content)) continue;
    for (const block of content as JsonRecord[]) if (block["type"] === "text" && typeof block["text"] === "string") last = block["text"];
  }
  if (last === undefined) throw new Error(`${file}: no assistant text`);
  return last;
}

/** The single item a recording has of something (its one run, one sidechain, one prompt); any other count is an error, not a guess. */
export function theOne<T>(items: readonly T[], what: string): T {
  if (items.length !== 1) throw new Error(`expected one ${what}, found ${items.length}`);
  return items[0]!;
}
