// One title for a session wherever it is shown (issue 34): the custom title, else the model's,
// else the first real prompt with slash-command markup read as the command, else "(untitled)"
// with the short id. The rule itself, then every recorded and wild session: its list entry and
// its restored tab say the same, and neither shows markup.
import { cpSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tabTitle } from "../../src/main/core/tabTitle.js";
import { restoreSession } from "../../src/main/history/restore.js";
import { listSessions } from "../../src/main/history/sessionList.js";
import { eventStream } from "../../src/main/history/eventStream.js";
import { emptyExtracted, emptyFacts, extractLine, type FileFacts } from "../../src/main/search/extract.js";
import { FirstPrompt, MaxTitleChars, sessionTitle } from "../../src/shared/sessionTitle.js";
import { listRecordings, mainTranscriptFiles, RECORDING_VERSIONS, sharedDir } from "../support/recordings.js";
import { tempDirs } from "../support/tempDirs.js";

const id = "1a2b3c4d-1111-4222-8333-444444444444";
const echo = (name: string, args = "") =>
  `<command-name>/${name}</command-name>\n            <command-message>${name}</command-message>\n            <command-args>${args}</command-args>`;
// A custom command or skill: the CLI writes its message first, and sends the model its prompt.
const promptCommand = (name: string, args: string) => `<command-message>${name} is running…</command-message>\n<command-name>/${name}</command-name>\n<command-args>${args}</command-args>`;
const stdout = (text: string) => `<local-command-stdout>${text}</local-command-stdout>`;

function firstOf(lines: readonly string[]): string | undefined {
  const first = new FirstPrompt();
  for (const line of lines) first.note(line);
  return first.value;
}

describe("sessionTitle", () => {
  it("takes the custom title over the model's, over the first prompt, over an old CLI's summary", () => {
    const all = { customTitle: "Mine", aiTitle: "The model's", firstPrompt: "fix the parser", summary: "A summary" };
    expect(sessionTitle(all, id)).toEqual({ title: "Mine", source: "custom" });
    expect(sessionTitle({ ...all, customTitle: "  " }, id)).toEqual({ title: "The model's", source: "ai" });
    expect(sessionTitle({ firstPrompt: "fix the parser", summary: "A summary" }, id)).toEqual({ title: "fix the parser", source: "prompt" });
    expect(sessionTitle({ summary: "A summary" }, id)).toEqual({ title: "A summary", source: "summary" });
  });

  it("names a session with none of them \"(untitled)\" and its short id", () => {
    expect(sessionTitle({}, id)).toEqual({ title: "(untitled) 1a2b3c4d", source: "none" });
    expect(sessionTitle({ firstPrompt: " \n " }, id).title).toBe("(untitled) 1a2b3c4d");
  });

  it("is one line of at most MaxTitleChars, and reads a title cut from a command echo as the command", () => {
    const long = sessionTitle({ firstPrompt: `${"word ".repeat(40)}\nsecond line` }, id).title;
    expect(long).toHaveLength(MaxTitleChars);
    expect(long.endsWith("…")).toBe(true);
    expect(long).not.toContain("\n");
    expect(sessionTitle({ aiTitle: "<command-name>/review</command-name> <command-message>rev…" }, id).title).toBe("/review");
  });
});

describe("FirstPrompt", () => {
  it("is the first typed prompt's words, without an IDE's context", () => {
    expect(firstOf(["<ide_opened_file>The user opened the file /x/y.ts in the IDE.</ide_opened_file>\nexplain this", "later"])).toBe("explain this");
  });

  it("passes over a command the CLI ran alone (its output is the next line), and a shell command", () => {
    expect(firstOf([echo("model", "opus"), stdout("Set model to opus"), "write the parser"])).toBe("write the parser");
    expect(firstOf([echo("clear"), stdout(""), echo("login"), stdout("Login interrupted"), "review the diff"])).toBe("review the diff");
    expect(firstOf(["<bash-input>ls</bash-input>", "<bash-stdout>a b</bash-stdout><bash-stderr></bash-stderr>", "now fix it"])).toBe("now fix it");
    expect(firstOf(["<bash-input>ls</bash-input><bash-stdout>a</bash-stdout>", "now fix it"])).toBe("now fix it");
  });

  it("is a command the model was sent, read as its line", () => {
    expect(firstOf([promptCommand("orchestrator", "create TODO app by Next.js"), "Thanks! Please update CLAUDE.md"])).toBe("/orchestrator create TODO app by Next.js");
    // A second command settles the first as sent; one still unanswered counts.
    expect(firstOf([echo("review", "PR 12"), echo("model"), stdout("ok")])).toBe("/review PR 12");
    expect(firstOf([promptCommand("superpowers:brainstorm", "")])).toBe("/superpowers:brainstorm");
  });

  it("is nothing for a session of local commands only, so the session is \"(untitled)\"", () => {
    const first = firstOf([echo("login"), stdout("Login interrupted")]);
    expect(first).toBeUndefined();
    expect(sessionTitle({ firstPrompt: first }, id).title).toBe("(untitled) 1a2b3c4d");
  });

  it("starts settled from a prompt a reader found before", () => {
    const first = new FirstPrompt("kept");
    first.note("another");
    expect([first.value, first.settled]).toEqual(["kept", true]);
  });
});

/** The index's facts of a main file's lines, read in runs as the index resumes a file: each run a fresh stream, the facts carried over. */
function indexFacts(runs: readonly (readonly string[])[]): FileFacts {
  let facts = emptyFacts();
  let n = 0;
  for (const run of runs) {
    const lines = eventStream({ kind: "lines" });
    facts = { ...facts };
    for (const text of run) {
      const line = { type: "user", uuid: `u${++n}`, sessionId: id, message: { role: "user", content: text } };
      extractLine(lines, line, n, n * 100, true, facts, emptyExtracted());
    }
  }
  return facts;
}

describe("the index's first prompt", () => {
  it("follows the same rule as the list and the restore", () => {
    expect(indexFacts([[echo("model", "opus"), stdout("Set model to opus"), "write the parser"]]).firstPrompt).toBe("write the parser");
    expect(indexFacts([[promptCommand("orchestrator", "create TODO app"), "thanks"]]).firstPrompt).toBe("/orchestrator create TODO app");
    expect(indexFacts([[echo("login"), stdout("Login interrupted")]]).firstPrompt).toBeNull();
  });

  it("keeps what an earlier run settled on when it resumes a file", () => {
    expect(indexFacts([["first words"], ["later words"]]).firstPrompt).toBe("first words");
    // A command read last before the stop stays the title (the line after it comes in the next run).
    expect(indexFacts([[promptCommand("review", "PR 12")], ["thanks"]]).firstPrompt).toBe("/review PR 12");
  });
});

const tempDir = tempDirs("baton-titles-", "all");

/** Every recorded main transcript of both sets, and the wild ones, each in a projects folder of its own. */
function sessionFiles(): { name: string; file: string }[] {
  const out: { name: string; file: string }[] = [];
  for (const version of RECORDING_VERSIONS) {
    for (const r of listRecordings(version)) for (const file of mainTranscriptFiles(r)) out.push({ name: `${version}/${r.name}/${path.basename(file)}`, file });
  }
  const wild = path.join(sharedDir, "wild");
  if (existsSync(wild)) {
    for (const repo of readdirSync(wild)) {
      if (repo.endsWith(".md")) continue;
      for (const name of readdirSync(path.join(wild, repo))) {
        // `__` stands for a folder; a subagent's file is no session.
        if (name.endsWith(".jsonl") && !name.includes("__subagents__") && !/(^|__)agent-[^_]*\.jsonl$/.test(name)) out.push({ name: `wild/${repo}/${name}`, file: path.join(wild, repo, name) });
      }
    }
  }
  return out;
}

describe("one title in the list and on the tab", () => {
  const files = sessionFiles();
  it("covers both recording sets", () => {
    expect(files.filter((f) => f.name.startsWith("2.1.197/")).length).toBeGreaterThan(10);
    expect(files.filter((f) => f.name.startsWith("2.1.332/")).length).toBeGreaterThan(10);
  });

  const titles = new Map<string, string>();
  it.each(files.map((f) => [f.name, f.file] as const))("%s", async (name, source) => {
    const projects = tempDir();
    const sessionName = path.basename(source).split("__").at(-1)!;
    const file = path.join(projects, "-home-user-code-titles", sessionName.endsWith(".jsonl") ? sessionName : `${sessionName}.jsonl`);
    mkdirSync(path.dirname(file), { recursive: true });
    cpSync(source, file);
    const [listed] = await listSessions(projects);
    const { transcript, session } = await restoreSession(file);
    expect(listed).toBeDefined();
    const restoredTab = tabTitle(transcript, session.stream.mapper.facts);
    if (listed!.titleMayChange !== true) expect(restoredTab).toBe(listed!.title);
    // A live tab has no reader's facts: the transcript's prompts give the same (no CLI writes a summary now).
    if (session.stream.mapper.facts.summary === undefined) expect(tabTitle(transcript)).toBe(restoredTab);
    titles.set(name, restoredTab);
    for (const title of [listed!.title, restoredTab]) {
      expect(title).not.toMatch(/<\/?(command|local-command|bash)-/);
      expect(title.trim()).not.toBe("");
    }
  });

  // Sessions of the wild set that start with commands: one the model was sent, one the CLI ran alone.
  it.skipIf(!existsSync(path.join(sharedDir, "wild")))("names the wild sessions that start with commands by the command the model was sent, or \"(untitled)\"", () => {
    const title = (fragment: string) => [...titles].find(([name]) => name.includes(fragment))?.[1];
    expect(title("fe5e1c67-53e7-4862-81ae-d0e013e3270b")).toBe("/orchestrator create TODO app by Next.js");
    expect(title("Molten-Labs__Arcadia/claude-session")).toBe("(untitled) claude-s");
    expect(title("60__fd31fcf44f")).toMatch(/^❯ This branch represents a PR against main\./);
  });
});
