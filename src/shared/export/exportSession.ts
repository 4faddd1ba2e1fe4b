// A restored session's transcript as the file an export gives: Markdown or HTML, named after the
// session's title and short id. Pure: the main side restores the transcript (every subagent's
// steps loaded) and knows the title and the home folder; the window saves what this returns.

import type { ForkLink } from "../api.js";
import type { Transcript } from "../transcript.js";
import { exportDocument } from "./exportDocument.js";
import { exportHtml } from "./htmlExport.js";
import { exportMarkdown } from "./markdownExport.js";
import { ExportMediaTypes, type ExportChoices, type ExportedFile } from "./exportTypes.js";

export interface ExportContext {
  /** The session's one title (sessionTitle.ts). */
  readonly title: string;
  /** The person's home folder, written as `~`. */
  readonly home?: string;
  /** The session is a fork Baton made (the audit trail says so): where it came from. */
  readonly forkedFrom?: ForkLink;
}

export function exportSession(transcript: Transcript, choices: ExportChoices, context: ExportContext): ExportedFile {
  const { title, home, forkedFrom } = context;
  const doc = exportDocument(transcript, { title, toolOutputs: choices.toolOutputs, thinking: choices.thinking, ...(home !== undefined ? { home } : {}), ...(forkedFrom !== undefined ? { forkedFrom } : {}) });
  const text = choices.format === "md" ? exportMarkdown(doc) : exportHtml(doc);
  return { fileName: exportFileName(doc.head.title, transcript.sessionId, choices.format), mediaType: ExportMediaTypes[choices.format], text };
}

/** "fix-the-parser-1a2b3c4d.html": the title's letters and digits, then the short id. */
export function exportFileName(title: string, sessionId: string, format: ExportChoices["format"]): string {
  const words = title
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48)
    .replace(/-+$/, "");
  const id = sessionId.replace(/[^A-Za-z0-9]/g, "").slice(0, 8).toLowerCase();
  // "(untitled) 1a2b3c4d" names the id already.
  const parts = words.endsWith(id) ? [words] : [words, id];
  return `${parts.filter((p) => p !== "").join("-") || "session"}.${format}`;
}
