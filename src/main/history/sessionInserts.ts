// The events a restore adds between the main file's lines: the cards of a session's `/subtask`
// forks and its `/btw` side notes, read from its subagents folder and placed by LineInserts.

import { findForkCards } from "./forkCards.js";
import { LineInserts } from "./lineInserts.js";
import type { HistoryProblem } from "./problems.js";
import { findSideQuestions } from "./sideQuestions.js";

/** The fork cards and side notes of `sessionId`, read from its subagents folder. */
export async function findLineInserts(projectDir: string, sessionId: string, problems?: HistoryProblem[]): Promise<LineInserts> {
  const inserts = new LineInserts();
  const [forks, questions] = await Promise.all([findForkCards(projectDir, sessionId, problems), findSideQuestions(projectDir, sessionId, problems)]);
  for (const insert of [...forks, ...questions]) inserts.add(insert.after, insert.events, insert.taskId);
  return inserts;
}
