// "Rewind files to here" on a live tab's prompt (issue 37): the CLI's dry run says which files
// would change; Baton adds each file's content now and at that prompt (rewindCheckpoints.ts) for
// the window's diff. The real rewind is the CLI's; the tab's transcript then marks the prompt, and
// Baton's audit trail records the rewind (a008Rewinds.ts: the CLI's history file does not), so a
// restore marks the prompt again.

import path from "node:path";
import type { RewindFile, RewindOutcome, RewindPreview } from "../../shared/fileRewind.js";
import { rewindNoticeText } from "../../shared/fileRewind.js";
import { rewindRecord } from "../audit/audit.js";
import { cliProjectsDir } from "../platform/projectsDir.js";
import type { AuditTrail } from "../store/auditTrail.js";
import { AppError } from "./appError.js";
import type { LiveSession } from "./liveSession.js";
import { LateLinesWaitMs } from "./lateLines.js";
import { contentsAtPrompt, readBounded } from "./rewindCheckpoints.js";
import { cliSessionFile } from "./sessionFork.js";

/** What a rewind needs of the tab: its session, the CLI's environment and working directory; the trail that keeps the mark. */
export interface RewindTarget {
  readonly session: LiveSession;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Without it (no store) the rewind works and its mark lasts as long as the tab. */
  readonly audit?: AuditTrail;
}

export async function previewRewind(target: RewindTarget, promptUuid: string): Promise<RewindPreview> {
  const { session } = target;
  promptText(session, promptUuid);
  const latest = session.transcript.blocks.findLast((b) => b.kind === "user")?.id === promptUuid;
  const answer = await running(session).client.rewindFiles(promptUuid, true);
  if (!answer.canRewind) return { canRewind: false, ...(answer.error !== undefined ? { error: answer.error } : {}), files: [], insertions: 0, deletions: 0 };
  const sessionId = session.sessionId;
  const waitUntil = Date.now() + LateLinesWaitMs;
  const restored = sessionId === undefined ? new Map<string, string | null>() : await contentsAtPrompt(checkpointSource(target, sessionId), promptUuid, answer.filesChanged, latest, waitUntil);
  const files: RewindFile[] = [];
  for (const file of answer.filesChanged) {
    const current = await readBounded(file);
    const before = restored.get(file);
    files.push({ path: file, ...(current !== undefined ? { current } : {}), ...(before !== undefined ? { restored: before } : {}) });
  }
  return { canRewind: true, files, insertions: answer.insertions, deletions: answer.deletions };
}

/** Rewinds, and on success marks the transcript and records the rewind. */
export async function applyRewind(target: RewindTarget, promptUuid: string): Promise<RewindOutcome> {
  const { session } = target;
  const prompt = promptText(session, promptUuid);
  const client = running(session).client;
  // The real rewind's answer has no file list: the dry run just before it gives the count.
  const preview = await client.rewindFiles(promptUuid, true);
  if (!preview.canRewind) return { rewound: false, ...(preview.error !== undefined ? { error: preview.error } : {}), filesChanged: 0 };
  const answer = await client.rewindFiles(promptUuid, false);
  if (!answer.canRewind) return { rewound: false, ...(answer.error !== undefined ? { error: answer.error } : {}), filesChanged: 0 };
  const files = preview.filesChanged.length;
  const time = new Date().toISOString();
  session.addEvent({ kind: "files_rewound", promptUuid, files, timestamp: time });
  session.addEvent({ kind: "notice", level: "info", text: rewindNoticeText(files, prompt) });
  // A failed write is reported by the trail (the Console); the files are rewound all the same.
  const sessionId = session.sessionId;
  if (target.audit !== undefined && sessionId !== undefined) target.audit.rewind(rewindRecord(sessionId, promptUuid, preview.filesChanged, time));
  return { rewound: true, filesChanged: preview.filesChanged.length };
}

/** The prompt's text; a uuid that is not one of the tab's prompts is refused before the CLI is asked. */
function promptText(session: LiveSession, promptUuid: string): string {
  const block = session.transcript.blocks.find((b) => b.kind === "user" && b.id === promptUuid);
  if (block === undefined) throw new AppError("not_found", "No such prompt in this tab.");
  return block.text ?? "";
}

function running(session: LiveSession): LiveSession {
  if (!session.client.running) throw new AppError("not_running", "Claude Code is not running in this tab: send a prompt to start it again, then rewind.");
  return session;
}

/** Where the CLI with `env` keeps this session's history file and file backups. */
function checkpointSource(target: RewindTarget, sessionId: string): Parameters<typeof contentsAtPrompt>[0] {
  const projectsDir = cliProjectsDir(target.env);
  const configDir = path.dirname(projectsDir);
  return { historyFile: cliSessionFile(target.env, sessionId) ?? path.join(projectsDir, `${sessionId}.jsonl`), backupsDir: path.join(configDir, "file-history", sessionId), cwd: target.cwd };
}
