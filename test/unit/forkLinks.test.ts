import { describe, expect, it } from "vitest";
import type { SessionSummary } from "../../src/shared/api.js";
import { forkLinksOf, forksUnderOrigins } from "../../src/renderer/panels/forkLinks.js";

const session = (sessionId: string): SessionSummary => ({ sessionId, projectDir: "-home-user-code-x", path: `/home/user/.claude/projects/x/${sessionId}.jsonl`, title: `title ${sessionId}`, sizeBytes: 1 });
const link = (sessionId: string) => ({ sessionId, promptUuid: "00000000-0000-4000-8000-000000000001" });

describe("forks under their origins in the Project panel", () => {
  it("moves each fork (and a fork of a fork) to just after the session it came from, naming it", () => {
    const list = ["f2", "a", "f1", "b", "ff"].map(session);
    const links = new Map([["f1", link("a")], ["f2", link("a")], ["ff", link("f1")]]);
    const rows = forksUnderOrigins(list, links);
    expect(rows.map((r) => [r.session.sessionId, r.forkOf?.sessionId])).toEqual([
      ["a", undefined],
      ["f2", "a"],
      ["f1", "a"],
      ["ff", "f1"],
      ["b", undefined],
    ]);
  });

  it("leaves a fork whose origin is not listed, and a loop of links, where they were", () => {
    const list = ["x", "y", "z"].map(session);
    const rows = forksUnderOrigins(list, new Map([["x", link("gone")], ["y", link("z")], ["z", link("y")]]));
    expect(rows.map((r) => r.session.sessionId)).toEqual(["x", "y", "z"]);
    expect(rows).toHaveLength(3);
  });

  it("puts a fork under its origin from the list's record (after a restart, its tab closed) and from an open tab's link", () => {
    const list = [session("f1"), session("a"), { ...session("f2"), forkedFrom: link("a") }, { ...session("ff"), forkedFrom: link("f2") }, session("b")];
    // f1 was forked a moment ago: its tab has the link, the list was read before its record.
    const rows = forksUnderOrigins(list, new Map([["f1", link("a")]]));
    expect(rows.map((r) => [r.session.sessionId, r.forkOf?.sessionId])).toEqual([
      ["a", undefined],
      ["f1", "a"],
      ["f2", "a"],
      ["ff", "f2"],
      ["b", undefined],
    ]);
    expect(forksUnderOrigins(list, new Map()).map((r) => [r.session.sessionId, r.forkOf?.sessionId])).toEqual([
      ["f1", undefined],
      ["a", undefined],
      ["f2", "a"],
      ["ff", "f2"],
      ["b", undefined],
    ]);
  });

  it("reads the links back from the store selector's string", () => {
    expect(forkLinksOf(JSON.stringify([["f", link("a")]])).get("f")).toEqual(link("a"));
  });
});
