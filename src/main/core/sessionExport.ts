// A tab's session as one Markdown or HTML file (issue 34): read again from its history file with
// every subagent's steps (a live card keeps only its newest), whether the tab is restored or live
// (the CLI writes a live session's file as it goes), and written by shared/export. The page saves it.

import type { ExportChoices, ExportedFile } from "../../shared/export/exportTypes.js";
import { AppError } from "./appError.js";
import type { HistorySource } from "./historySource.js";
import type { Tab } from "./tabList.js";

export async function exportTab(tab: Tab, history: HistorySource | undefined, choices: ExportChoices): Promise<ExportedFile> {
  const sessionId = tab.session.sessionId;
  if (sessionId === undefined || sessionId === "") throw new AppError("not_found", "This session has nothing in history yet: send a prompt first");
  if (history?.exportSession === undefined) throw new AppError("history_unavailable", "No history folder is configured");
  // A restored tab names its project folder (two folders may hold one id); a live session's file is found by its id.
  const project = tab.kind === "restored" ? tab.session.project : undefined;
  return history.exportSession(sessionId, project, choices);
}
