// A file rewind's mark survives a restart (issue 37), through the app core and the real CLI: a
// rewind to the second prompt of a three-turn session (a file edited, another created), then Baton
// closes (every tab, the store) and a new app core opens the same data folder. The session opened
// from history shows "Files rewound to here" on that prompt with the same count, and on no other,
// and the notice where the rewind happened: the prompts, mark, answers and notice as the live tab had them;
// `baton audit` lists the rewind with the prompt and both files, `baton export` shows the marks. The session resumed in a live tab
// after the restart and rewound there again: the next restore shows both marks. Neither CLI writes anything of a
// rewind to the session's file (checked: no line written after it names the rewind or its prompt):
// the mark comes from Baton's audit trail. Runs on both CLIs (vitest.config.ts onBothClis).

import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Transcript } from "../../src/shared/transcript.js";
import type { AppCore } from "../../src/main/app/createAppCore.js";
import { appCoreFor, appDatabase } from "../support/appManager.js";
import { run as auditCommand } from "../../src/main/commands/audit.js";
import { run as exportCommand } from "../../src/main/commands/export.js";
import { bufferIO } from "../../src/main/commands/commandIO.js";
import { cliSessionFile } from "../../src/main/core/sessionFork.js";
import { createCliEnv, type CliEnv } from "../support/cliEnv.js";
import { startModelServer, type ModelServer } from "../support/modelServer.js";
import { text } from "../support/scenarios/types.js";
import { changeTwoFiles, OriginalText as Original, toolUse as tool } from "../support/scenarios/rewindTurns.js";
import { transcriptWhen, watchTab } from "../support/tabWatch.js";
import { value } from "../support/apiValue.js";
import { sessionLinesHolding } from "../support/cliTranscripts.js";

const WaitMs = 60_000;


/** The prompts (with their marks), answers and notices of a transcript, in order. */
function stepsOf(t: Transcript): string[][] {
  return t.blocks.filter((b) => b.kind === "user" || b.kind === "text" || b.kind === "notice").map((b) => [b.kind, b.text ?? "", b.rewound !== undefined ? `rewound ${b.rewound.files}` : ""]);
}

describe("a rewind's mark across a restart, through the real CLI", () => {
  let model: ModelServer;
  let env: CliEnv;
  let core: AppCore | undefined;
  const file = (name: string) => path.join(env.cwd, name);
  const dbPath = () => appDatabase(env);

  const open = (): Promise<AppCore> => appCoreFor(env);

  beforeAll(async () => {
    model = await startModelServer({
      main: [
        ...changeTwoFiles(file),
        { blocks: [text("Third answer.")] },
        // The resumed run: a new file, rewound in its live tab.
        { blocks: () => [tool("Write", { file_path: file("c.txt"), content: "made after the restart\n" })] },
        { blocks: [text("Wrote c.txt.")] },
      ],
    });
    env = await createCliEnv({ baseUrl: model.url, cwdName: "app-rewind-restart" });
    writeFileSync(file("a.txt"), Original);
  });

  afterAll(async () => {
    await core?.close();
    await model?.close();
    await env?.cleanup();
  });

  it("the session reopened from history marks the prompt the files were rewound to, and baton audit lists the rewind", async () => {
    core = await open();
    let release = core.manager.acquirePresence();
    const tab = value(await core.service.newSession({ cwd: env.cwd, permissionMode: "bypassPermissions" }));
    let watch = watchTab(core.service, tab.tabId, WaitMs);
    let sessionId: string;
    let prompts: string[];
    let before: string[];
    let liveSteps: string[][];
    try {
      value(await core.service.sendPrompt(tab.tabId, "first"));
      await watch.idleWith("Nothing changed yet.");
      value(await core.service.sendPrompt(tab.tabId, "second: change two files"));
      await watch.idleWith("Changed two files.");
      value(await core.service.sendPrompt(tab.tabId, "third"));
      const t = await watch.idleWith("Third answer.");
      sessionId = t.sessionId;
      prompts = t.blocks.filter((b) => b.kind === "user").map((b) => b.id);
      before = await sessionLinesHolding(env.env, sessionId, [prompts[2]!, "Third answer."], WaitMs);
      expect(value(await core.service.applyRewind(tab.tabId, prompts[1]!))).toEqual({ rewound: true, filesChanged: 2 });
      await watch.waitFor("the live mark", () => watch.transcript().blocks.find((b) => b.id === prompts[1] && b.rewound !== undefined));
      liveSteps = await watch.waitFor("the live notice", () => {
        const steps = stepsOf(watch.transcript());
        return steps.some(([kind]) => kind === "notice") ? steps : undefined;
      });
    } finally {
      watch.stop();
    }
    expect(readFileSync(file("a.txt"), "utf8")).toBe(Original);
    release();
    await core.close();
    // The CLI wrote nothing of the rewind: the session's file goes on from what it held before it, and
    // what came later (a late snapshot of a turn already answered, 2.1.332's last-prompt and
    // cost-state lines at exit) is no rewind line and names not the prompt rewound to.
    const after = readFileSync(cliSessionFile(env.env, sessionId)!, "utf8").split("\n").filter((l) => l.trim() !== "");
    expect(after.slice(0, before.length)).toEqual(before);
    const later = after.slice(before.length).map((l) => JSON.parse(l) as { type?: string; messageId?: string });
    expect(later.filter((l) => /rewind/i.test(l.type ?? "") || JSON.stringify(l).includes(prompts[1]!))).toEqual([]);

    // A restart: a new app core on the same data folder, no tab open.
    core = await open();
    release = core.manager.acquirePresence();
    try {
      expect(value(await core.service.listTabs())).toEqual([]);
      expect(value(await core.service.listSessions()).some((s) => s.sessionId === sessionId)).toBe(true);
      const restored = value(await core.service.openSession(sessionId));
      expect(restored).toMatchObject({ kind: "restored", sessionId });
      const t = await transcriptWhen(core.service, restored.tabId, (now) => now.blocks.some((b) => b.kind === "text" && b.text?.includes("Third answer.") === true), WaitMs);
      // As the live tab showed it: the prompts, the mark, the answers and the notice at the end.
      expect(stepsOf(t)).toEqual(liveSteps);
      expect(liveSteps.at(-1)).toEqual(["notice", "Files rewound (2 files) to just before the prompt “second: change two files”.", ""]);
      const marks = t.blocks.filter((b) => b.kind === "user").map((b) => [b.id, b.text, b.rewound?.files ?? null]);
      expect(marks).toEqual([
        [prompts[0], "first", null],
        [prompts[1], "second: change two files", 2],
        [prompts[2], "third", null],
      ]);

      // Resumed in a live tab (its CLI goes on in the same session; the tab shows only the new
      // turns), a rewind there is the same session's: recorded beside the first.
      const resumed = value(await core.service.newSession({ cwd: env.cwd, permissionMode: "bypassPermissions", resumeSessionId: sessionId }));
      watch = watchTab(core.service, resumed.tabId, WaitMs);
      try {
        value(await core.service.sendPrompt(resumed.tabId, "fourth: write c"));
        const t = await watch.idleWith("Wrote c.txt.");
        expect(t.sessionId).toBe(sessionId);
        prompts.push(t.blocks.filter((b) => b.kind === "user").map((b) => b.id).at(-1)!);
        expect(value(await core.service.applyRewind(resumed.tabId, prompts[3]!))).toEqual({ rewound: true, filesChanged: 1 });
      } finally {
        watch.stop();
      }
    } finally {
      release();
    }
    await core.close();

    // Another restart: both rewinds, each on its prompt.
    core = await open();
    release = core.manager.acquirePresence();
    try {
      const restored = value(await core.service.openSession(sessionId));
      const t = await transcriptWhen(core.service, restored.tabId, (now) => now.blocks.some((b) => b.kind === "text" && b.text?.includes("Wrote c.txt.") === true), WaitMs);
      expect(t.blocks.filter((b) => b.kind === "user").map((b) => [b.text, b.rewound?.files ?? null])).toEqual([
        ["first", null],
        ["second: change two files", 2],
        ["third", null],
        ["fourth: write c", 1],
      ]);
      // Each notice where its rewind happened: the first before the prompt sent after it, the second at the end.
      const steps = stepsOf(t).filter(([kind]) => kind === "user" || kind === "notice");
      expect(steps.map(([kind, words]) => (kind === "user" ? `» ${words}` : words))).toEqual([
        "» first",
        "» second: change two files",
        "» third",
        "Files rewound (2 files) to just before the prompt “second: change two files”.",
        "» fourth: write c",
        "Files rewound (1 file) to just before the prompt “fourth: write c”.",
      ]);
    } finally {
      release();
    }
    await core.close();
    core = undefined;

    const io = bufferIO();
    expect(await auditCommand([sessionId, "--db", dbPath(), "--json"], io)).toBe(0);
    const rewinds = (JSON.parse(io.out()) as Record<string, unknown>[]).filter((r) => r["kind"] === "rewind");
    expect(rewinds).toMatchObject([
      { sessionId, promptUuid: prompts[1], fileCount: 2 },
      { sessionId, promptUuid: prompts[3], fileCount: 1, files: [file("c.txt")] },
    ]);
    expect([...(rewinds[0]!["files"] as string[])].sort()).toEqual([file("a.txt"), file("sub/b.txt")]);

    // `baton export` restores through the same trail: each mark under its prompt.
    const exported = bufferIO();
    expect(await exportCommand([sessionId, "--projects-dir", env.projectsDir, "--db", dbPath(), "--format", "md"], exported)).toBe(0);
    const md = exported.out();
    expect(md.match(/\*Files rewound to here: [0-9]+ files?\*/g)).toEqual(["*Files rewound to here: 2 files*", "*Files rewound to here: 1 file*"]);
    expect(md.indexOf("*Files rewound to here: 2 files*")).toBeGreaterThan(md.indexOf("> second: change two files"));
    expect(md.indexOf("*Files rewound to here: 2 files*")).toBeLessThan(md.indexOf("> third"));
  });
});
