// A past session's file exported as Markdown or HTML (issue 34): restored with every subagent's
// transcript loaded (the same model `baton export --json` prints), titled as the list and its tab
// title it, and written by the pure exporter (shared/export). The command line and the window's
// Export dialog both come here.

import { exportSession } from "../../shared/export/exportSession.js";
import type { ExportChoices, ExportedFile } from "../../shared/export/exportTypes.js";
import { sessionTitle } from "../../shared/sessionTitle.js";
import { forkLinkOf, type SessionAudit } from "../audit/audit.js";
import { fullTranscript } from "./fullTranscript.js";
import type { HistoryProblem } from "./problems.js";
import { restoreSession } from "./restore.js";

export interface ExportFileOptions {
  readonly projectsDir?: string;
  /** Baton's audit trail for the session: its decisions show as they did in the app. */
  readonly audit?: SessionAudit;
  /** The person's home folder, written as `~`. */
  readonly home?: string;
}

export interface SessionExport {
  readonly file: ExportedFile;
  /** What the history held that the export cannot show as written (bad lines, …). */
  readonly problems: readonly HistoryProblem[];
}

/** `file`: a session's main transcript, already found (and checked) by the caller. */
export async function exportSessionFile(file: string, choices: ExportChoices, options: ExportFileOptions = {}): Promise<SessionExport> {
  const restored = await restoreSession(file, {
    loadSidechains: true,
    ...(options.audit !== undefined ? { audit: options.audit } : {}),
    ...(options.projectsDir !== undefined ? { projectsDir: options.projectsDir } : {}),
  });
  const transcript = fullTranscript(restored.session);
  // As a restored tab is titled (core/tabTitle.ts): the hub's title, else what the reader found.
  const facts = restored.session.stream.mapper.facts;
  const { title } = sessionTitle({ customTitle: transcript.title, firstPrompt: facts.firstPrompt, summary: facts.summary }, transcript.sessionId || facts.sessionId);
  const fork = options.audit?.forkedFrom;
  const exported = exportSession(transcript, choices, {
    title,
    ...(options.home !== undefined ? { home: options.home } : {}),
    ...(fork !== undefined ? { forkedFrom: forkLinkOf(fork) } : {}),
  });
  return { file: exported, problems: restored.problems };
}
