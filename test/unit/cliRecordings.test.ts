// The recordings made by `npm run record` (fixtures/recordings) parse cleanly, carry neutral
// paths only, and agree with their meta.json.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseLine } from "../../src/shared/protocol/parseMessage.js";
import { toClientEvents } from "../../src/shared/protocol/toClientEvents.js";
import { fixtureRecordingsDirFor, selectedRecordingVersion } from "../support/recordings.js";

// The committed set of one CLI version (BATON_RECORDINGS; default 2.1.197).
const version = selectedRecordingVersion();
const root = fixtureRecordingsDirFor(version);
const scenarios = existsSync(root) ? readdirSync(root).filter((d) => existsSync(path.join(root, d, "meta.json"))) : [];

describe("fixtures/recordings", () => {
  it("exist for the required scenarios", () => {
    for (const name of ["subagent", "parallel-subagents", "background-subagent", "nested-subagents", "permissions", "interrupt-subagent", "resume"]) {
      expect(scenarios).toContain(name);
    }
  });

  for (const name of scenarios) {
    it(`${name}: every stdout line parses to events, session ids match meta.json, no machine paths`, () => {
      const dir = path.join(root, name);
      const meta = JSON.parse(readFileSync(path.join(dir, "meta.json"), "utf8")) as {
        cwd: string;
        cliVersion: string;
        runs: { run: number; sessionId: string | null }[];
      };
      expect(meta.cwd).toBe(`/home/user/code/${name}`);
      expect(meta.cliVersion).toBe(version);
      for (const run of meta.runs) {
        const file = path.join(dir, run.run === 1 ? "stream.jsonl" : `stream.run${run.run}.jsonl`);
        const text = readFileSync(file, "utf8");
        expect(text).not.toMatch(/baton-cli-|\/work\//);
        const sessionIds = new Set<string>();
        text.split("\n").filter(Boolean).forEach((line, i) => {
          const parsed = parseLine(line, i + 1);
          expect(parsed.ok, `line ${i + 1}`).toBe(true);
          if (!parsed.ok) return;
          const events = toClientEvents(parsed.message, i + 1);
          expect(events.filter((e) => e.kind === "protocol_problem")).toEqual([]);
          for (const e of events) if (e.kind === "session_init") sessionIds.add(e.sessionId);
        });
        expect([...sessionIds]).toEqual([run.sessionId]);
      }
      const projectDirs = readdirSync(path.join(dir, "projects"));
      expect(projectDirs).toEqual([`-home-user-code-${name}`]);
    });
  }
});
