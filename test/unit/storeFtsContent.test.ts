// What full-text search covers inside one turn: the assistant's text and its thinking, and a tool's
// output whole (it was cut at 4 KB until issue 33: a word just past the old cut is found too).
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StoreService } from "../../src/main/store/storeService.js";
import { tempDirs } from "../support/tempDirs.js";

const sessionId = "5e5e5e5e-1111-4222-8333-444444444444";
const cwd = "/home/user/code/fts";

// Each word below occurs in exactly one place in the transcript.
/** Where tool outputs were cut before issue 33. */
const OLD_CUT = 4096;
const inText = "quetzal";
const inThinking = "pangolin";
const justInside = "narwhal";
const beyond = "okapi";

/** A tool output whose word `justInside` ends exactly at the old cut and whose word `beyond` starts right after it. */
function longOutput(): string {
  const head = "lorem ipsum ".repeat(OLD_CUT).slice(0, OLD_CUT - justInside.length - 1);
  const text = `${head} ${justInside} ${beyond} and more after it`;
  expect(text.indexOf(justInside) + justInside.length).toBe(OLD_CUT);
  return text;
}

let n = 0;
function line(type: "user" | "assistant", message: object): string {
  n++;
  return JSON.stringify({
    parentUuid: n === 1 ? null : `uuid-${n - 1}`,
    isSidechain: false,
    type,
    message,
    uuid: `uuid-${n}`,
    timestamp: `2026-11-30T02:00:${String(n).padStart(2, "0")}.000Z`,
    userType: "external",
    entrypoint: "sdk-cli",
    cwd,
    sessionId,
    version: "2.1.197",
    gitBranch: "HEAD",
  });
}

const assistant = (id: string, content: object[]) => ({ id, type: "message", role: "assistant", model: "claude-opus-4-8", content, stop_reason: null, usage: { input_tokens: 1, output_tokens: 1 } });

describe("full-text search over one session's content", () => {
  const tempDir = tempDirs("baton-fts-", "all");
  let tmp: string;
  let store: StoreService;
  let output: string;

  beforeAll(async () => {
    tmp = tempDir();
    const projects = path.join(tmp, "projects");
    const project = path.join(projects, "-home-user-code-fts");
    fs.mkdirSync(project, { recursive: true });
    output = longOutput();
    const lines = [
      line("user", { role: "user", content: "look at the big file" }),
      line("assistant", assistant("msg_1", [{ type: "thinking", thinking: `The ${inThinking} plan: read it first.`, signature: "sig" }])),
      line("assistant", assistant("msg_1", [{ type: "text", text: `Reading it now, said the ${inText}.` }])),
      line("assistant", assistant("msg_1", [{ type: "tool_use", id: "toolu_read_1", name: "Bash", input: { command: "cat big.txt", description: "Print the file" } }])),
      line("user", { role: "user", content: [{ tool_use_id: "toolu_read_1", type: "tool_result", content: output, is_error: false }] }),
      line("assistant", assistant("msg_2", [{ type: "text", text: "Done." }])),
    ];
    fs.writeFileSync(path.join(project, `${sessionId}.jsonl`), `${lines.join("\n")}\n`);
    store = new StoreService({ dbPath: path.join(tmp, "cfg", "history.db") });
    await store.index(projects);
  });
  afterAll(() => {
    store?.close();
  });

  const found = (word: string) => store.search(word).map((h) => ({ sessionId: h.sessionId, kind: h.kind, snippet: h.snippet }));

  it("finds a word said only in the assistant's text", () => {
    expect(found(inText)).toEqual([{ sessionId, kind: "text", snippet: `Reading it now, said the «${inText}».` }]);
  });

  it("finds a word only in the assistant's thinking", () => {
    expect(found(inThinking)).toEqual([{ sessionId, kind: "thinking", snippet: `The «${inThinking}» plan: read it first.` }]);
  });

  it(`indexes a tool's output whole: the words at and past ${OLD_CUT} characters are found, each in its context`, () => {
    expect(output.length).toBeGreaterThan(OLD_CUT);
    expect(found(justInside)).toEqual([{ sessionId, kind: "tool_output", snippet: expect.stringContaining(`«${justInside}»`) }]);
    expect(found(beyond)).toEqual([{ sessionId, kind: "tool_output", snippet: expect.stringContaining(`${justInside} «${beyond}» and more after it`) }]);
  });
});
