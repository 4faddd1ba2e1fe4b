// `/btw` side questions (issue 21): the CLI answers them in a forked request whose transcript,
// `agent-aside_question-<hex>.jsonl`, holds a copy of the conversation (or, newer, a
// `fork-context-ref` line naming where it forked) plus the question and its answer. It is not a
// subagent (sideConversations.ts); the restore shows the question and the answer as a side note at
// the main line it was asked after, or at the end when that line is not in the main file.

import type { ClientEvent } from "../../shared/events.js";
import { str } from "../../shared/jsonFields.js";
import { eventStream } from "./eventStream.js";
import type { LineInsert } from "./lineInserts.js";
import { readJsonl } from "./jsonlReader.js";
import type { HistoryProblem } from "./problems.js";
import { notRegularAt } from "../platform/regularFile.js";
import { insideProject, readMeta, subagentsFolder } from "./subagentFolder.js";
import { isSideQuestion } from "./sideConversations.js";

/** Heading of a side note: it is not part of the conversation the model saw. */
export const SideNoteHeading = "Side question (/btw), not part of the conversation";
/** A side note shows at most this much of the question and of the answer. */
const MaxChars = 16 * 1024;
const Reminder = /^\s*<system-reminder>[\s\S]*?<\/system-reminder>\s*/;

interface SideQuestion {
  readonly after: string | undefined;
  readonly question: string;
  readonly answer: string;
  readonly timestamp?: string;
}

export async function findSideQuestions(projectDir: string, sessionId: string, problems?: HistoryProblem[]): Promise<LineInsert[]> {
  const { where, names } = await subagentsFolder(projectDir, sessionId);
  const found: SideQuestion[] = [];
  for (const name of names) {
    const agentId = /^agent-(.+)\.jsonl$/.exec(name)?.[1];
    if (agentId === undefined || !isSideQuestion(agentId)) continue;
    // A `/subtask` fork that happens to be named like a side question is a subagent (forkCards.ts).
    if (names.includes(`agent-${agentId}.meta.json`)) {
      const metaPath = await insideProject(projectDir, [...where, `agent-${agentId}.meta.json`], "a subagent's meta.json");
      if (metaPath !== undefined && (await readMeta(metaPath))?.isFork === true) continue;
    }
    const file = await insideProject(projectDir, [...where, name], "a side question's transcript", problems);
    if (file === undefined || (await notRegularAt(file)) !== undefined) continue;
    const question = await readSideQuestion(file);
    if (question !== undefined) found.push(question);
  }
  found.sort((a, b) => (a.timestamp ?? "").localeCompare(b.timestamp ?? ""));
  return found.map((q) => ({ after: q.after, events: [sideNote(q)] }));
}

/** The last question in the file and the answer after it; undefined when it holds no answer. */
async function readSideQuestion(file: string): Promise<SideQuestion | undefined> {
  let forkedAt: string | undefined;
  let question: { text: string; parentUuid?: string; timestamp?: string } | undefined;
  let answer: string[] = [];
  // A copy of the conversation, read for its last question only: each line alone.
  const lines = eventStream({ kind: "lines" });
  try {
    await readJsonl(file, {
      final: true,
      onRecord: ({ value }) => {
        const type = str(value, "type");
        if (type === "fork-context-ref") forkedAt ??= str(value, "parentLastUuid");
        if (type !== "user" && type !== "assistant") return;
        for (const event of lines.line(value)) {
          if (event.kind === "user_prompt" && event.isMeta !== true) {
            const parentUuid = str(value, "parentUuid");
            const timestamp = str(value, "timestamp");
            question = { text: event.text.replace(Reminder, "").trim(), ...(parentUuid !== undefined ? { parentUuid } : {}), ...(timestamp !== undefined ? { timestamp } : {}) };
            answer = [];
          } else if (event.kind === "assistant_block" && event.block.type === "text" && question !== undefined) {
            answer.push(event.block.text);
          }
        }
      },
    });
  } catch {
    return undefined;
  }
  const text = answer.join("\n\n").trim();
  if (question === undefined || text === "") return undefined;
  const asked = question as { text: string; parentUuid?: string; timestamp?: string };
  return {
    after: forkedAt ?? asked.parentUuid,
    question: cut(asked.text),
    answer: cut(text),
    ...(asked.timestamp !== undefined ? { timestamp: asked.timestamp } : {}),
  };
}

function cut(text: string): string {
  return text.length <= MaxChars ? text : `${text.slice(0, MaxChars)}…`;
}

function sideNote(q: SideQuestion): ClientEvent {
  return { kind: "notice", level: "info", text: `${SideNoteHeading}\nQ: ${q.question}\nA: ${q.answer}` };
}
