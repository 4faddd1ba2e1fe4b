// Text from a history file or recording must not act on the terminal it is printed to: control
// characters, escape sequences (CSI, OSC 52 clipboard writes, OSC titles, DCS), C1 controls, BEL
// and bidi controls in a session title, cwd, prompt and tool output come out of `baton sessions`,
// `export`, `search` and `replay` as visible `<U+XXXX>` text. With --json the output stays JSON
// with the very same strings, and carries no raw C1 or bidi bytes either.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { bufferIO, type CommandIO } from "../../src/main/commands/commandIO.js";
import { run as exportRun } from "../../src/main/commands/export.js";
import { run as replayRun } from "../../src/main/commands/replay.js";
import { run as searchRun } from "../../src/main/commands/search.js";
import { run as sessionsRun } from "../../src/main/commands/sessions.js";
import { tempDirs } from "../support/tempDirs.js";

// Each field carries a different attack, so every one has to be neutralised on its own.
const Title = "Fix bug \u001b]52;c;cm0gLXJmIH4=\u0007 \u001b]0;owned\u001b\\ done";
const Cwd = "/home/user/code/\u001b[2J\u001b[Happ\u202Etxt.exe";
const Prompt = "zebraword please \u009b31m red \u001bP+q544e\u001b\\ \u0007 \u008d and \u2066hidden\u2069";
const Output = "failed \u001b[1A\u001b[2Kall tests passed\r\u001b]8;;https://example.com\u001b\\link\u001b]8;;\u001b\\ \u007f";
const Command = "ls \u001b[8mrm -rf ~\u001b[28m";

// What a terminal would act on: C0 controls except \t and \n, DEL, C1 controls, bidi controls.
const Acted = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

const SessionId = "5b1d7c2e-0000-4000-8000-00000000c0de";
const tempDir = tempDirs("baton-controls-", "all");
let tmp: string;
let projects: string;
let stream: string;

function envelope(uuid: string, parentUuid: string | null, time: string) {
  return { parentUuid, isSidechain: false, uuid, timestamp: time, userType: "external", cwd: Cwd, sessionId: SessionId, version: "2.1.197" };
}

beforeAll(() => {
  tmp = tempDir();
  projects = path.join(tmp, "projects");
  const dir = path.join(projects, "-home-user-code-app");
  fs.mkdirSync(dir, { recursive: true });
  const toolUse = { type: "tool_use", id: "toolu_evil_1", name: "Bash", input: { command: Command, description: "List" } };
  const lines = [
    { ...envelope("u1", null, "2026-01-01T10:00:00.000Z"), type: "user", message: { role: "user", content: Prompt } },
    {
      ...envelope("a1", "u1", "2026-01-01T10:00:01.000Z"),
      type: "assistant",
      message: { id: "msg_1", type: "message", role: "assistant", model: "claude-scripted", content: [toolUse], stop_reason: "tool_use", usage: { input_tokens: 1, output_tokens: 1 } },
    },
    {
      ...envelope("u2", "a1", "2026-01-01T10:00:02.000Z"),
      type: "user",
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_evil_1", content: Output, is_error: true }] },
    },
    { type: "custom-title", customTitle: Title, sessionId: SessionId },
  ];
  fs.writeFileSync(path.join(dir, `${SessionId}.jsonl`), lines.map((l) => JSON.stringify(l)).join("\n") + "\n");

  // The same session as the CLI's stdout stream, for `baton replay`.
  stream = path.join(tmp, "stream.jsonl");
  const streamLines = [
    { type: "system", subtype: "init", cwd: Cwd, session_id: SessionId, tools: ["Bash"], model: "claude-scripted", permissionMode: "default", uuid: "s1" },
    { type: "assistant", message: { id: "msg_1", type: "message", role: "assistant", model: "claude-scripted", content: [toolUse], stop_reason: null }, parent_tool_use_id: null, session_id: SessionId, uuid: "a1" },
    { type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_evil_1", content: Output, is_error: true }] }, parent_tool_use_id: null, session_id: SessionId, uuid: "u2" },
    { type: "assistant", message: { id: "msg_2", type: "message", role: "assistant", model: "claude-scripted", content: [{ type: "text", text: `Said: ${Prompt}` }], stop_reason: null }, parent_tool_use_id: null, session_id: SessionId, uuid: "a2" },
  ];
  fs.writeFileSync(stream, streamLines.map((l) => JSON.stringify(l)).join("\n") + "\n");
});

async function cli(run: (args: readonly string[], io: CommandIO) => Promise<number>, args: string[]) {
  const io = bufferIO();
  const code = await run(args, io);
  return { code, out: io.out(), err: io.err() };
}

/** The printed text acts on nothing, and shows what was there. */
function expectNeutralised(text: string, shows: readonly string[]): void {
  const acted = Acted.exec(text);
  expect(acted, acted === null ? "" : `raw U+${acted[0].charCodeAt(0).toString(16)} at ${acted.index}: ${JSON.stringify(text.slice(Math.max(0, acted.index - 30), acted.index + 30))}`).toBeNull();
  for (const s of shows) expect(text).toContain(s);
}

const where = (): string[] => ["--projects-dir", projects, "--db", path.join(tmp, "cfg", "history.db")];

describe("terminal output of history text", { timeout: 30_000 }, () => {
  it("baton sessions prints the title and cwd neutralised, in an aligned table", async () => {
    const { code, out } = await cli(sessionsRun, ["--projects-dir", projects]);
    expect(code).toBe(0);
    expectNeutralised(out, ["Fix bug <U+001B>]52;c;cm0gLXJmIH4=<U+0007>", "<U+001B>]0;owned<U+001B>\\", "/home/user/code/<U+001B>[2J<U+001B>[Happ<U+202E>txt.exe"]);
    const [header, row] = out.split("\n");
    expect(row?.indexOf("Fix bug")).toBe(header?.indexOf("TITLE"));
  });

  it("baton sessions --json is valid JSON with the same strings and no raw C1 or bidi bytes", async () => {
    const { code, out } = await cli(sessionsRun, ["--projects-dir", projects, "--json"]);
    expect(code).toBe(0);
    expect(out).not.toMatch(Acted);
    const { sessions } = JSON.parse(out) as { sessions: { title: string; cwd: string }[] };
    expect(sessions[0]).toMatchObject({ title: Title, cwd: Cwd });
  });

  it("baton export prints the prompt, the command and the tool output neutralised", async () => {
    const { code, out, err } = await cli(exportRun, [SessionId, "--projects-dir", projects, "--db", path.join(tmp, "cfg", "history.db")]);
    expect(err).toBe("");
    expect(code).toBe(0);
    expectNeutralised(out, ["zebraword please <U+009B>31m red <U+001B>P+q544e<U+001B>\\ <U+0007> <U+008D> and <U+2066>hidden<U+2069>", "ls <U+001B>[8mrm -rf ~", "<U+001B>[1A<U+001B>[2Kall tests passed <U+001B>]8;;https://example.com<U+001B>\\link"]);
    const json = await cli(exportRun, [SessionId, "--projects-dir", projects, "--json"]);
    expect(json.out).not.toMatch(Acted);
    expect(JSON.stringify(JSON.parse(json.out))).toContain(JSON.stringify(Prompt).slice(1, -1));
  });

  it("baton search prints the matched prompt, title and cwd neutralised", async () => {
    const { code, out } = await cli(searchRun, ["zebraword", ...where()]);
    expect(code).toBe(0);
    expectNeutralised(out, ["«zebraword»", "<U+009B>31m", "Fix bug <U+001B>]52;c;", "<U+202E>txt.exe"]);
    const json = await cli(searchRun, ["zebraword", "--json", ...where()]);
    expect(json.out).not.toMatch(Acted);
    expect((JSON.parse(json.out) as { sessionTitle: string }[])[0]?.sessionTitle).toBe(Title);
  });

  it("baton replay prints the command, tool output and text neutralised", async () => {
    const { code, out } = await cli(replayRun, [stream]);
    expect(code).toBe(0);
    expectNeutralised(out, ["ls <U+001B>[8mrm -rf ~<U+001B>[28m", "<U+001B>[2Kall tests passed", "<U+2066>hidden<U+2069>"]);
    const json = await cli(replayRun, [stream, "--json"]);
    expect(json.out).not.toMatch(Acted);
    expect(JSON.stringify(JSON.parse(json.out))).toContain(JSON.stringify(Command));
  });
});
