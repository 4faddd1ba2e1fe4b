// The session list reads a transcript's facts (prompts, titles, cwd, branch, times, Agent calls)
// with its own few field lookups instead of the event stream a restore uses, and an answer without
// an Agent call from its text without parsing it (listFacts.ts). Over
// every main transcript of both recording sets and every wild transcript (../shared/wild: CLI
// 1.0.80 to 2.1.237, damaged, old layouts), both read every line and must agree on each fact.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { eventStream } from "../../src/main/history/eventStream.js";
import { readAllJsonl } from "../../src/main/history/jsonlReader.js";
import { ListFacts, skimLine } from "../../src/main/history/listFacts.js";
import { listRecordings, mainTranscriptFiles, RECORDING_VERSIONS, sharedDir } from "../support/recordings.js";

const wildDir = path.join(sharedDir, "wild");

/** The wild set's main transcripts (its files are named by their original path, `__` for `/`). */
function wildTranscripts(): string[] {
  if (!existsSync(wildDir)) return [];
  return readdirSync(wildDir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) =>
      readdirSync(path.join(wildDir, e.name))
        .filter((f) => f.endsWith(".jsonl") && !f.includes("__subagents__") && !/(^|__)agent-[^_]*\.jsonl$/.test(f))
        .map((f) => path.join(wildDir, e.name, f)),
    );
}

const recorded = RECORDING_VERSIONS.flatMap((v) => listRecordings(v).flatMap((r) => mainTranscriptFiles(r).map((f) => [`${v}/${r.name}`, f] as const)));
const wild = wildTranscripts().map((f) => [`wild/${path.basename(path.dirname(f))}/${path.basename(f)}`, f] as const);
if (wild.length === 0) console.warn(`[historySessionListFacts] no wild transcripts at ${wildDir}: only the recordings are compared`);

describe("the session list's facts", () => {
  it("are compared over transcripts that hold prompts, titles and Agent calls", () => {
    expect(recorded.length).toBeGreaterThan(20);
  });

  it.each([...recorded, ...wild])("agree with the restore's for %s", async (_name, file) => {
    const { records } = await readAllJsonl(file);
    const raw = readFileSync(file, "utf8").split("\n");
    const stream = eventStream({ kind: "session", file });
    const list = new ListFacts();
    let skimmedLine = -1;
    for (const { value, lineNumber } of records) {
      stream.line(value);
      // The list reads an answer without an Agent call from its text, as the session list does.
      if (lineNumber === skimmedLine) continue;
      const skimmed = skimLine(raw[lineNumber - 1]!);
      if (skimmed !== undefined) skimmedLine = lineNumber;
      list.line(skimmed ?? value);
    }
    const f = stream.mapper.facts;
    expect({
      promptCount: list.promptCount,
      firstPrompt: list.firstPrompt,
      customTitle: list.customTitle,
      aiTitle: list.aiTitle,
      summary: list.summary,
      cwd: list.cwd,
      gitBranch: list.gitBranch,
      firstTimestamp: list.firstTimestamp,
      lastTimestamp: list.lastTimestamp,
      agentCalls: list.agentCalls.size,
    }).toEqual({
      promptCount: f.promptCount,
      firstPrompt: f.firstPrompt,
      customTitle: f.customTitle,
      aiTitle: f.aiTitle,
      summary: f.summary,
      cwd: f.cwd,
      gitBranch: f.gitBranch,
      firstTimestamp: f.firstTimestamp,
      lastTimestamp: f.lastTimestamp,
      agentCalls: stream.mapper.agentCalls.size,
    });
  });
});
