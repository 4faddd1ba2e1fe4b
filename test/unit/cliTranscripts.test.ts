// The test helper that holds a scripted turn until the CLI has written an agent's transcript.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sidechainHolds } from "../support/cliTranscripts.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-sidechain-");

const row = (agentId: string, content: string): string => `${JSON.stringify({ agentId, isSidechain: true, message: { content } })}\n`;
/** A look at the folder as it is now: an aborted signal ends the wait after the first look. */
const lookedOnce = (): AbortSignal => AbortSignal.abort();

describe("sidechainHolds", () => {
  it("holds until the agent's own sidechain file has the text, wherever the CLI put it", async () => {
    const dir = tempDir();
    const subagents = path.join(dir, "-home-user-code-app", "s1", "subagents");
    const file = path.join(subagents, "agent-a1.jsonl");
    const look = () => sidechainHolds({ projectsDir: dir, signal: lookedOnce() }, "a1", "First part done.");

    expect(await look()).toBe(false);
    fs.mkdirSync(subagents, { recursive: true });
    fs.writeFileSync(file, row("a1", "Run the first part"));
    fs.writeFileSync(path.join(subagents, "agent-a2.jsonl"), row("a2", "First part done."));
    expect(await look()).toBe(false);

    const waiting = sidechainHolds({ projectsDir: dir, signal: new AbortController().signal }, "a1", "First part done.");
    fs.appendFileSync(file, row("a1", "First part done."));
    expect(await look()).toBe(true);
    expect(await waiting).toBe(true);
  });

  it("finds an older CLI's sidechain beside the session files", async () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, "-home-user-code-app"));
    fs.writeFileSync(path.join(dir, "-home-user-code-app", "agent-a1.jsonl"), row("a1", "Done."));
    expect(await sidechainHolds({ projectsDir: dir, signal: lookedOnce() }, "a1", "Done.")).toBe(true);
  });

  it("says so when it was not told where the CLI writes", async () => {
    await expect(sidechainHolds({ projectsDir: undefined, signal: lookedOnce() }, "a1", "x")).rejects.toThrow(/setProjectsDir/);
  });
});
