// File rewinds from Baton's audit trail put back into a restored transcript (issue 37; applied by
// auditOverlay.ts). A rewind leaves nothing in the CLI's files, so the live tab's two traces of it
// are fed again: the `files_rewound` event right after the prompt the files went back to (the
// prompt's mark; in recorded order, so the latest rewind to a prompt is its mark, as live), and the
// notice that said when it happened ("Files rewound (N files) to just before the prompt …"), where
// it happened: before the first prompt sent after it, or at the end of the file. A rewind made
// during a turn has its notice after that turn, not among its steps (the trail has the time, and
// the file's lines are whole turns apart only at prompts).

import type { ClientEvent, FilesRewoundEvent } from "../../shared/events.js";
import { rewindNoticeText } from "../../shared/fileRewind.js";
import type { AuditTrailRewind } from "../audit/audit.js";

interface Pending {
  readonly at: number;
  readonly promptUuid: string;
  readonly files: number;
}

export class RewindMarks {
  /** By the prompt they went back to, in recorded order. */
  private readonly marks = new Map<string, FilesRewoundEvent[]>();
  /** Notices not placed yet, in recorded order. */
  private pending: Pending[];
  /** The words of each top-level prompt read so far, for its notice. */
  private readonly promptTexts = new Map<string, string>();

  constructor(rows: readonly AuditTrailRewind[]) {
    for (const row of rows) {
      const list = this.marks.get(row.promptUuid) ?? [];
      list.push({ kind: "files_rewound", promptUuid: row.promptUuid, files: row.fileCount, timestamp: row.time });
      this.marks.set(row.promptUuid, list);
    }
    // A time that does not parse goes to the end of the file.
    this.pending = rows.map((row) => ({ at: Date.parse(row.time) || Infinity, promptUuid: row.promptUuid, files: row.fileCount }));
  }

  /** Before a top-level prompt: the notices of the rewinds made before it was sent. */
  before(ev: ClientEvent): ClientEvent[] | undefined {
    if (!isTopPrompt(ev)) return undefined;
    const sent = ev.timestamp === undefined ? NaN : Date.parse(ev.timestamp);
    return Number.isFinite(sent) ? this.place((p) => p.at < sent) : undefined;
  }

  /** After a top-level prompt: the rewinds to it. */
  after(ev: ClientEvent): ClientEvent[] | undefined {
    if (!isTopPrompt(ev) || ev.uuid === undefined) return undefined;
    this.promptTexts.set(ev.uuid, ev.text);
    return this.marks.get(ev.uuid);
  }

  /** After the file's last line: the notices no later prompt placed. */
  end(): ClientEvent[] {
    return this.place(() => true) ?? [];
  }

  /** The notices of the pending rewinds `due` picks whose prompt was read (one never read has no mark to explain). */
  private place(due: (p: Pending) => boolean): ClientEvent[] | undefined {
    const placed = this.pending.filter((p) => due(p) && this.promptTexts.has(p.promptUuid));
    if (placed.length === 0) return undefined;
    this.pending = this.pending.filter((p) => !placed.includes(p));
    return placed.map((p) => ({ kind: "notice", level: "info", text: rewindNoticeText(p.files, this.promptTexts.get(p.promptUuid) ?? "") }));
  }
}

/** A prompt the person sent at the top level (not an agent's, not the CLI's own). */
export function isTopPrompt(ev: ClientEvent): ev is Extract<ClientEvent, { kind: "user_prompt" }> {
  return ev.kind === "user_prompt" && ev.parentToolUseId === null && ev.isMeta !== true;
}
