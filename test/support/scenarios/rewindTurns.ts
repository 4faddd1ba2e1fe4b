// The rewind tests' first two turns (issue 37): an answer that changes nothing, then a turn that
// edits a.txt (read first: 2.1.197's Edit and Write need it) and writes sub/b.txt. A test writes
// OriginalText to a.txt before the session starts and appends its own later turns.
import type { ScriptTurn } from "../modelServer.js";
import { text } from "./types.js";

/** a.txt as the session finds it. */
export const OriginalText = "line one\nline two\nline three\n";

export const toolUse = (name: string, input: Record<string, unknown>) => ({ type: "tool_use" as const, name, input });

/** The turns "first" and "second: change two files" are answered with; `file` names a file in the session's folder. */
export function changeTwoFiles(file: (name: string) => string): ScriptTurn[] {
  return [
    { blocks: [text("Nothing changed yet.")] },
    { blocks: () => [toolUse("Read", { file_path: file("a.txt") })] },
    { blocks: () => [toolUse("Edit", { file_path: file("a.txt"), old_string: "line two", new_string: "line 2 edited" })] },
    { blocks: () => [toolUse("Write", { file_path: file("sub/b.txt"), content: "a new file\n" })] },
    { blocks: [text("Changed two files.")] },
  ];
}
