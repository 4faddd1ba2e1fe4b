// CLI 2.1.332's heavy lines (docs/features.md "History"): `prompt_snapshot` and `skill_listing`
// attachments and the `api-request*`, `atis-latch`, `cost-state`, `tools-used` records are most of
// a file's bytes and none of its conversation. They are not shown, not indexed, and the reader
// that restore and the index share passes over them by their first bytes, without parsing them.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { TailLineParser } from "../../src/main/history/firstScreenWindow.js";
import { emptyStats, readAllJsonl, readJsonl, readJsonlSync, type JsonlRecord } from "../../src/main/history/jsonlReader.js";
import { restoreSession } from "../../src/main/history/restore.js";
import { listSessions } from "../../src/main/history/sessionList.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { tempDirs } from "../support/tempDirs.js";

const sessionId = "4e4e4e4e-1111-4222-8333-444444444444";
const cwd = "/home/user/code/heavy";
// Each word occurs in one line only.
const inSnapshot = "xylophonist";
const inRequest = "quokkaflask";
const inPrompt = "harbourmaster";

let n = 0;
const envelope = () => ({ parentUuid: n === 0 ? null : `uuid-${n}`, isSidechain: false });
const tail = () => ({ uuid: `uuid-${++n}`, timestamp: `2026-11-30T02:00:${String(n).padStart(2, "0")}.000Z`, userType: "external", entrypoint: "sdk-cli", cwd, sessionId, version: "2.1.332", gitBranch: "main" });
// Key order as the CLI writes it: attachment lines carry their attachment before their own type;
// the request records start with their type.
const attachment = (body: object) => ({ ...envelope(), attachment: body, type: "attachment", ...tail() });
const user = (content: unknown) => ({ ...envelope(), type: "user", message: { role: "user", content }, ...tail() });
const assistant = (text: string) => ({ ...envelope(), message: { id: `msg_${n}`, type: "message", role: "assistant", model: "claude-opus-4-8", content: [{ type: "text", text }] }, type: "assistant", ...tail() });
const filler = (words: number) => Array.from({ length: words }, (_, i) => `tool${i} schema text`).join(" ");

const lines = [
  attachment({ type: "prompt_snapshot", systemPrompt: [`You are Claude Code. ${inSnapshot} ${filler(30_000)}`], tools: [{ name: "Bash", description: filler(500) }] }),
  { type: "api-request-shape", sessionId, shapeHash: "h1", timestamp: "2026-11-30T02:00:00.500Z", version: "2.1.332", shape: { system: filler(20_000) } },
  user(`please check the ${inPrompt} log`),
  attachment({ type: "skill_listing", content: filler(5_000), skillCount: 12, isInitial: true, rendered: filler(5_000) }),
  { type: "api-request-blob", sessionId, hash: "b1", message: { role: "user", content: [{ type: "text", text: `<system-reminder>${inRequest}</system-reminder>` }] } },
  { type: "api-request", sessionId, id: "r1", timestamp: "2026-11-30T02:00:03.000Z", version: "2.1.332", querySource: "repl_main_thread", shapeHash: "h1", params: { model: "claude-opus-4-8", messages: [{ role: "user", content: inRequest }] } },
  assistant("The log is clean."),
  { type: "atis-latch", sessionId, atis: "" },
  { type: "tools-used", tools: ["Bash"], sessionId },
  { type: "cost-state", sessionId, totalCostUSD: 0.01, totalAPIDuration: 1200 },
  { type: "last-prompt", lastPrompt: `please check the ${inPrompt} log`, leafUuid: `uuid-${n}`, sessionId },
];
const text = lines.map((l) => `${JSON.stringify(l)}\n`).join("");

const tempDir = tempDirs("baton-heavy-", "all");
let tmp: string;
let file: string;
beforeAll(() => {
  tmp = tempDir();
  const project = path.join(tmp, "projects", "-home-user-code-heavy");
  fs.mkdirSync(project, { recursive: true });
  file = path.join(project, `${sessionId}.jsonl`);
  fs.writeFileSync(file, text);
});

describe("2.1.332 heavy lines", () => {
  it("are not shown in a restore, and the conversation around them is", async () => {
    const { transcript, problems } = await restoreSession(file);
    expect(transcript.blocks.map((b) => [b.kind, b.text])).toEqual([
      ["user", `please check the ${inPrompt} log`],
      ["text", "The log is clean."],
    ]);
    expect(JSON.stringify(transcript)).not.toContain(inSnapshot);
    expect(problems).toEqual([]);
  });

  it("are not indexed: a word only a prompt snapshot or a request record holds finds nothing", async () => {
    const store = new StoreService({ dbPath: path.join(tmp, "cfg", "history.db") });
    try {
      await store.index(path.join(tmp, "projects"));
      expect(store.search(inPrompt).map((h) => h.sessionId)).toEqual([sessionId]);
      expect(store.search(inSnapshot)).toEqual([]);
      expect(store.search(inRequest)).toEqual([]);
    } finally {
      store.close();
    }
  });

  it("do not push the first prompt out of what the session list reads, though the snapshot fills its head", async () => {
    expect(text.indexOf(inPrompt)).toBeGreaterThan(256 * 1024);
    const [summary] = await listSessions(path.join(tmp, "projects"));
    expect(summary).toMatchObject({ title: `please check the ${inPrompt} log`, promptCount: 1, badLines: 0 });
  });

  it("do not push the newest title out of what the session list reads from the end", async () => {
    const other = "4f4f4f4f-1111-4222-8333-444444444444";
    const dir = path.join(tmp, "ends", "-home-user-code-heavy");
    fs.mkdirSync(dir, { recursive: true });
    const shape = () => ({ type: "api-request-shape", sessionId: other, shapeHash: "h2", shape: { system: filler(10_000) } });
    const big = [
      user("an early prompt"),
      // More conversation than the list reads from the start.
      ...Array.from({ length: 8 }, (_, i) => assistant(`answer ${i}: ${filler(2_000)}`)),
      { type: "custom-title", customTitle: "Renamed at the end", sessionId: other },
      // What a resumed 2.1.332 session writes after the rename: new request shapes, records.
      ...Array.from({ length: 3 }, shape),
      { type: "cost-state", sessionId: other, totalCostUSD: 0.02 },
    ];
    const body = big.map((l) => `${JSON.stringify(l)}\n`).join("");
    expect(body.length - body.indexOf("Renamed at the end")).toBeGreaterThan(256 * 1024);
    fs.writeFileSync(path.join(dir, `${other}.jsonl`), body);
    const [summary] = await listSessions(path.join(tmp, "ends"));
    expect(summary).toMatchObject({ title: "Renamed at the end", titleSource: "custom" });
  });

  it("are passed over by their first bytes and never parsed", async () => {
    // Heavy-typed lines whose bodies are not JSON at all: parsing them would count them as damaged.
    const broken = (body: string): string => {
      const file = path.join(tmp, `broken-${body.length}.jsonl`);
      fs.writeFileSync(
        file,
        `{"parentUuid":null,"isSidechain":false,"attachment":{"type":"prompt_snapshot","systemPrompt":["${body}\n` +
          `${JSON.stringify(user("hello"))}\n` +
          `{"type":"api-request","sessionId":"s","params":{${body}\n` +
          `{"type":"cost-state" not json either`,
      );
      return file;
    };
    const huge = broken("x".repeat(3 * 1024 * 1024));
    const small = broken("x".repeat(1000));
    const values: string[] = [];
    const onRecord = (r: JsonlRecord) => void values.push(String(r.value["type"]));
    // Lines longer than a chunk (and than the longest line the reader keeps), lines in one chunk,
    // and lines cut into pieces shorter than their envelope all read the same.
    const results = [
      await readJsonl(huge, { final: true, maxLineBytes: 1024 * 1024, onRecord }),
      await readJsonl(small, { final: true, onRecord }),
      readJsonlSync(small, { final: true, chunkBytes: 7, onRecord }),
      // Cut into pieces shorter than the envelope, and longer than the longest line kept.
      await readJsonl(small, { final: true, chunkBytes: 20, maxLineBytes: 600, onRecord }),
    ];
    for (const result of results) {
      expect(result.stats).toMatchObject({ lines: 4, records: 1, heavy: 3, notJson: 0, tooLong: 0, truncated: 0 });
      expect(result.problems).toEqual([]);
    }
    expect(values).toEqual(["user", "user", "user", "user"]);
    // Not final: the unterminated last line waits for the rest of it, as any line does.
    const live = await readJsonl(small, { onRecord: () => undefined });
    expect(live.stats.heavy).toBe(2);
    expect(live.nextOffset).toBe(fs.readFileSync(small, "utf8").lastIndexOf("\n") + 1);
    // Asked to keep them, the reader parses them (and finds them broken).
    const kept = await readJsonl(small, { final: true, keepHeavy: true, onRecord: () => undefined });
    expect(kept.stats).toMatchObject({ heavy: 0, notJson: 2, truncated: 1 });
  });

  it("are passed over unparsed when a first screen reads the file from its end", () => {
    const stats = emptyStats();
    const parser = new TailLineParser(stats);
    const line = (text: string, offset: number) => ({ bytes: Buffer.from(text), offset, terminated: true, tooLong: false });
    expect(parser.parse(line('{"type":"tools-used","tools":["Bash"] not json', 0))).toEqual([]);
    expect(parser.parse(line(JSON.stringify(user("hello")), 60))).toHaveLength(1);
    expect(stats).toMatchObject({ lines: 2, records: 1, heavy: 1, notJson: 0 });
    expect(parser.problems).toEqual([]);
  });

  it("still leaves every 2.1.197 line and a shown attachment to the parser", async () => {
    const { result } = await readAllJsonl(file);
    expect(result.stats).toMatchObject({ lines: lines.length, heavy: 8, records: 3 });
    const queued = path.join(tmp, "queued.jsonl");
    fs.writeFileSync(queued, `${JSON.stringify(attachment({ type: "queued_command", prompt: "also this" }))}\n`);
    expect((await readAllJsonl(queued)).records).toHaveLength(1);
  });
});
