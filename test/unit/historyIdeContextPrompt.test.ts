// A session started from an IDE extension: its first prompt's text blocks begin with what the IDE
// had open (`<ide_opened_file>…`, `<ide_selection>…`). The session is named by the person's words
// (session list, tab, search results) and the transcript shows the IDE context as a small note.
import fs from "node:fs";
import path from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { tabTitle } from "../../src/main/core/tabTitle.js";
import { restoreSession } from "../../src/main/history/restore.js";
import { listSessions } from "../../src/main/history/sessionList.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { BlockView } from "../../src/renderer/transcript/BlockView.js";
import { tempDirs } from "../support/tempDirs.js";

const sessionId = "1de1de1d-1111-4222-8333-444444444444";
const cwd = "/home/user/code/ide";
const opened = "<ide_opened_file>The user opened the file /home/user/code/ide/src/parser.ts in the IDE. This may or may not be related to the current task.</ide_opened_file>";
const selected =
  "<ide_selection>The user selected the lines 62 to 71 from /home/user/code/ide/src/lexer.ts:\n    const token = next();\n\nThis may or may not be related to the current task.</ide_selection>";
const words = "make the walrus parser accept trailing commas";

// The shape the VS Code extension writes (a wild 2.0.74 transcript): one text block per IDE note, then the prompt.
const lines = [
  { parentUuid: null, isSidechain: false, userType: "external", cwd, sessionId, version: "2.0.74", gitBranch: "main", type: "user", message: { role: "user", content: [{ type: "text", text: opened }, { type: "text", text: selected }, { type: "text", text: words }] }, uuid: "u1", timestamp: "2026-11-30T02:00:01.000Z" },
  { parentUuid: "u1", isSidechain: false, userType: "external", cwd, sessionId, version: "2.0.74", gitBranch: "main", type: "assistant", message: { id: "m1", type: "message", role: "assistant", model: "claude-opus-4-8", content: [{ type: "text", text: "Looking at the parser." }] }, uuid: "a1", timestamp: "2026-11-30T02:00:02.000Z" },
];

const tempDir = tempDirs("baton-ide-", "all");
let tmp: string;
let file: string;
beforeAll(() => {
  tmp = tempDir();
  const project = path.join(tmp, "projects", "-home-user-code-ide");
  fs.mkdirSync(project, { recursive: true });
  file = path.join(project, `${sessionId}.jsonl`);
  fs.writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
});

describe("a first prompt sent from an IDE", () => {
  it("names the session in the list by the person's words", async () => {
    const [summary] = await listSessions(path.join(tmp, "projects"));
    expect(summary).toMatchObject({ title: words, titleSource: "prompt" });
  });

  it("names the tab by the person's words and shows the IDE context as a note on the prompt", async () => {
    const { transcript } = await restoreSession(file);
    expect(tabTitle(transcript)).toBe(words);
    const prompt = transcript.blocks.find((b) => b.kind === "user")!;
    const html = renderToStaticMarkup(createElement(BlockView, { tabId: "t", block: prompt, nested: false }));
    expect(html).toContain("Opened in IDE: /home/user/code/ide/src/parser.ts");
    expect(html).toContain("Selected in IDE: lines 62–71 of /home/user/code/ide/src/lexer.ts");
    expect(html).toContain(`<div class="user-text">${words}</div>`);
    expect(html).not.toContain("ide_opened_file");
  });

  it("titles the session's search results by the person's words", async () => {
    const store = new StoreService({ dbPath: path.join(tmp, "cfg", "history.db") });
    try {
      await store.index(path.join(tmp, "projects"));
      const hits = store.search("walrus");
      expect(hits.map((h) => h.sessionTitle)).toEqual([words]);
    } finally {
      store.close();
    }
  });
});
