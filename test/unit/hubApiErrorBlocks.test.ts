// The CLI's synthetic "API Error: …" answer (`isApiErrorMessage`, model `<synthetic>`) is drawn as
// an error (issue 34): in history, where no result line follows it, it is an error notice and not
// an answer; live, where the result repeats it, it is shown once; inside a subagent, its card's
// steps show it as an error too (the recorded subagent-api-errors runs of both CLIs).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { restoreSession } from "../../src/main/history/restore.js";
import type { ClientEvent } from "../../src/shared/events.js";
import type { Block } from "../../src/shared/transcript.js";
import { mainTranscriptFiles, needRecording, RECORDING_VERSIONS } from "../support/recordings.js";
import { tempDirs } from "../support/tempDirs.js";
import { ev, run } from "./hubTestKit.js";

const sessionId = "3c3c3c3c-1111-4222-8333-444444444444";
const ErrorText = "API Error: 500 scripted server error. This is a server-side issue, usually temporary — try again in a moment.";
const tempDir = tempDirs("baton-api-errors-");

/** The lines 2.1.197 wrote for a turn that ended on a server error (the c3 recording's shape). */
function serverErrorSession(): string {
  const envelope = (uuid: string, parentUuid: string | null) => ({ parentUuid, isSidechain: false, userType: "external", cwd: "/home/user/code/c3", sessionId, version: "2.1.197", gitBranch: "HEAD", uuid, timestamp: "2026-11-30T02:23:45.878Z" });
  const lines = [
    { ...envelope("u1", null), type: "user", message: { role: "user", content: "hello" } },
    {
      ...envelope("a1", "u1"),
      type: "assistant",
      message: { id: "e6c4ea80", model: "<synthetic>", role: "assistant", type: "message", stop_reason: "stop_sequence", usage: { input_tokens: 0, output_tokens: 0 }, content: [{ type: "text", text: ErrorText }] },
      error: "server_error",
      isApiErrorMessage: true,
      apiErrorStatus: 500,
    },
  ];
  const file = path.join(tempDir(), "-home-user-code-c3", `${sessionId}.jsonl`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  return file;
}

function everyBlock(blocks: readonly Block[]): Block[] {
  return blocks.flatMap((b) => [b, ...everyBlock(b.call?.subagent?.blocks ?? [])]);
}

describe("API errors drawn as errors", () => {
  it("in history: the synthetic answer is an error notice, not an answer", async () => {
    const { transcript } = await restoreSession(serverErrorSession());
    expect(transcript.blocks.map((b) => [b.kind, b.level, b.text])).toEqual([
      ["user", undefined, "hello"],
      ["notice", "error", ErrorText],
    ]);
  });

  it("live: shown once, though the turn's result says it again; another failure's result still shows", () => {
    const synthetic: ClientEvent = { kind: "assistant_block", uuid: "a1", messageId: "m1", parentToolUseId: null, model: "<synthetic>", apiError: "server_error", block: { type: "text", text: ErrorText } };
    const { t } = run([ev.init(), ev.prompt("hello"), synthetic, ev.turnEnd(0, { isError: true, result: ErrorText })]);
    expect(t.blocks.filter((b) => b.kind !== "user").map((b) => `${b.kind}:${b.level}:${b.text}`)).toEqual([`notice:error:${ErrorText}`]);
    // The next turn fails otherwise: its result is shown.
    const next = run([ev.init(), ev.prompt("hello"), synthetic, ev.turnEnd(0, { isError: true, result: ErrorText }), ev.prompt("again"), ev.turnEnd(0, { isError: true, result: "API Error: 529 overloaded" })]).t;
    expect(next.blocks.filter((b) => b.kind === "notice").map((b) => b.text)).toEqual([ErrorText, "API Error: 529 overloaded"]);
  });

  it.each(RECORDING_VERSIONS)("in a subagent's steps (CLI %s's recorded run)", async (version) => {
    const [file] = mainTranscriptFiles(needRecording("subagent-api-errors", version));
    const { transcript } = await restoreSession(file!, { loadSidechains: true });
    const blocks = everyBlock(transcript.blocks);
    const errors = blocks.filter((b) => b.kind === "notice" && b.level === "error" && b.text?.startsWith("API Error"));
    expect(errors.length).toBeGreaterThan(0);
    // No answer says "API Error" any more.
    expect(blocks.filter((b) => b.kind === "text" && b.text?.startsWith("API Error"))).toEqual([]);
  });
});
