// `baton replay`: prints the transcript the hub builds from a recording, as JSON or as a tree.

import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import type { Transcript } from "../../src/shared/transcript.js";
import { run } from "../../src/main/commands/replay.js";
import { findRecording, listRecordings, repoRoot, warnIfNoRecordings } from "../support/recordings.js";
import { allCalls, replayRecording } from "./hubTestKit.js";
import { tempDirs } from "../support/tempDirs.js";
import { ensureCliBuilt } from "../support/cliBundle.js";

async function replay(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await run(args, { stdout: (s) => (out += s), stderr: (s) => (err += s) });
  return { code, out, err };
}

const stdinFor = (streamFile: string): string => streamFile.replace(/stream(\.run\d+)?\.jsonl$/, "stdin$1.jsonl");
const skip = warnIfNoRecordings("replayCommand");
const tmp = tempDirs("baton-replay-", "all")();

describe("baton replay: errors", () => {
  it("a missing file is a clear error with exit code 2", async () => {
    const missing = path.join(tmp, "nope.jsonl");
    const { code, err, out } = await replay([missing]);
    expect(code).toBe(2);
    expect(err).toContain(`cannot read stream file ${missing}: no such file`);
    expect(out).toBe("");
  });

  it("a missing --stdin file and bad arguments are errors with exit code 2", async () => {
    const stream = path.join(tmp, "empty.jsonl");
    writeFileSync(stream, "");
    expect((await replay([stream, "--stdin", path.join(tmp, "nope.jsonl")])).code).toBe(2);
    expect((await replay([])).err).toContain("missing <stream.jsonl>");
    expect((await replay([stream, "--frobnicate"])).code).toBe(2);
    expect((await replay([stream, "--stdin"])).err).toContain("--stdin needs a file");
  });

  it("a malformed line is reported with its line number and the rest is still replayed", async () => {
    const stream = path.join(tmp, "bad.jsonl");
    const text = (uuid: string, t: string) =>
      JSON.stringify({ type: "assistant", message: { id: "m", role: "assistant", model: "x", content: [{ type: "text", text: t }], stop_reason: null }, parent_tool_use_id: null, session_id: "s", uuid });
    writeFileSync(stream, `${text("u1", "before")}\n{not json\n${text("u2", "after")}\n`);
    const { code, out, err } = await replay([stream, "--json"]);
    expect(code).toBe(0);
    expect(err).toMatch(/bad\.jsonl:2: not JSON/);
    expect((JSON.parse(out) as Transcript).blocks.map((b) => b.text)).toEqual(["before", "after"]);
  });
});

describe.skipIf(skip)("baton replay on every recording", () => {
  const cases = listRecordings().flatMap((r) => r.streamFiles.map((f) => [`${r.name}/${path.basename(f)}`, f] as const));

  it.each(cases)("%s: --json prints the hub's transcript", async (_label, file) => {
    const { code, out } = await replay([file, "--stdin", stdinFor(file), "--json"]);
    expect(code).toBe(0);
    const recording = listRecordings().find((r) => r.streamFiles.includes(file));
    const expected = replayRecording(recording!).find((x) => x.label.endsWith(path.basename(file)))?.transcript;
    expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(expected)));
  });

  it.each(cases)("%s: the tree shows every subagent card with its icon and its tool calls indented under it", async (_label, file) => {
    const { code, out } = await replay([file, "--stdin", stdinFor(file)]);
    expect(code).toBe(0);
    const transcript = JSON.parse((await replay([file, "--stdin", stdinFor(file), "--json"])).out) as Transcript;
    const lines = out.split("\n");
    expect(lines[0]).toContain(`conductor · session ${transcript.sessionId}`);
    // Calls are printed depth first, in transcript order: look for each after the previous one.
    let cursor = 0;
    for (const { call, owner } of allCalls(transcript)) {
      const icon = call.subagent === undefined ? undefined : { running: "⟳", completed: "✓", failed: "✗", stopped: "■" }[call.subagent.status];
      const at = lines.findIndex(
        (l, i) => i >= cursor && (call.subagent === undefined ? l.includes(`(${call.status})`) : l.includes(`"${call.subagent.description}"`)),
      );
      cursor = at + 1;
      const line = at < 0 ? undefined : lines[at];
      expect(line, call.toolUseId).toBeDefined();
      if (icon !== undefined) expect(line?.trimStart().startsWith(icon)).toBe(true);
      const indent = (line?.length ?? 0) - (line?.trimStart().length ?? 0);
      expect(indent).toBe(2 + 4 * ((owner?.spawnDepth ?? 0)));
    }
  });
});

describe.skipIf(findRecording("g1-permissions-stdio") === undefined)("baton replay --stdin", () => {
  it("applies recorded answers to the permission requests they answer", async () => {
    const file = findRecording("g1-permissions-stdio")!.streamFiles[0]!;
    const withAnswers = JSON.parse((await replay([file, "--stdin", stdinFor(file), "--json"])).out) as Transcript;
    const without = JSON.parse((await replay([file, "--json"])).out) as Transcript;
    const answers = readFileSync(stdinFor(file), "utf8").split("\n").filter((l) => l.includes('"control_response"')).length;
    const decided = allCalls(withAnswers).filter((c) => c.call.permission?.decidedBy === "recorded");
    expect(decided).toHaveLength(answers);
    expect(allCalls(without).filter((c) => c.call.permission !== undefined).every((c) => c.call.permission?.state === "asked")).toBe(true);
  });
});

describe("npx baton replay (real process)", () => {
  const exec = promisify(execFile);
  // What npx runs: the bundle in out/cli (a stale one would run the sources, with a note on stderr).
  beforeAll(() => void ensureCliBuilt(), 60_000);
  /** `bin/baton.mjs replay …` in a child process, as `npx baton replay …` runs it. */
  const baton = async (args: string[]) => exec(process.execPath, [path.join(repoRoot, "bin/baton.mjs"), "replay", ...args], { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024 });
  // Committed recordings, so these run without the shared ones.
  const fixture = (name: string) => listRecordings().find((r) => r.source === "fixtures" && r.name === name);
  const nested = fixture("nested-subagents");
  const permissions = fixture("permissions");

  it.skipIf(nested === undefined)("--json prints what run() prints for the same stream", async () => {
    const file = nested!.streamFiles[0]!;
    const { stdout, stderr } = await baton([file, "--json"]);
    expect(stderr).toBe("");
    const printed = JSON.parse(stdout) as Transcript;
    expect(printed).toEqual(JSON.parse((await replay([file, "--json"])).out));
    expect(allCalls(printed).filter((c) => c.call.subagent !== undefined)).toHaveLength(2);
  }, 60_000); // a real process start-up

  it.skipIf(permissions === undefined)("--stdin applies that file's answers: each call shows the decision made for it", async () => {
    const file = permissions!.streamFiles[0]!;
    const { stdout, stderr } = await baton([file, "--stdin", stdinFor(file), "--json"]);
    expect(stderr).toBe("");
    const printed = JSON.parse(stdout) as Transcript;
    expect(printed).toEqual(JSON.parse((await replay([file, "--stdin", stdinFor(file), "--json"])).out));
    const lines = (f: string) => readFileSync(f, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as Record<string, any>);
    const behaviorOf = new Map(lines(stdinFor(file)).filter((l) => l.type === "control_response").map((l) => [l.response.request_id as string, l.response.response.behavior as string]));
    const requests = lines(file).filter((l) => l.type === "control_request" && l.request.subtype === "can_use_tool");
    expect(new Set(behaviorOf.values())).toEqual(new Set(["allow", "deny"]));
    expect(requests.map((q) => q.request_id)).toEqual([...behaviorOf.keys()]);
    for (const q of requests) {
      const call = allCalls(printed).find((c) => c.call.toolUseId === q.request.tool_use_id)?.call;
      const allowed = behaviorOf.get(q.request_id) === "allow";
      expect(call?.permission, q.request_id).toEqual(expect.objectContaining({ requestId: q.request_id, state: allowed ? "allowed" : "denied", decidedBy: "recorded" }));
      expect(call?.status).toBe(allowed ? "completed" : "denied");
    }
    // The prompt typed on stdin (never echoed on stdout) opens the transcript.
    const prompt = lines(stdinFor(file)).find((l) => l.type === "user")?.message.content;
    expect(printed.blocks[0]).toEqual(expect.objectContaining({ kind: "user", text: prompt }));
  }, 60_000);
});
