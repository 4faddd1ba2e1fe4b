// A session is its project folder and id (issue 33): two history files named alike in two
// project folders are two sessions, and the page opens the one it names by folder. Without a
// folder such an id is ambiguous, and the refusal names both files.
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { applyDelta, denormalize, emptyTranscriptState } from "../../src/shared/delta/index.js";
import type { Transcript } from "../../src/shared/transcript.js";
import { createAppCore, type AppCore } from "../../src/main/app/createAppCore.js";
import { plantHistory } from "../support/plantedHistory.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-open-by-project-");
const cores: AppCore[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

describe("openSession with a project folder", () => {
  it("opens each of two same-named sessions in its own tab, and refuses the bare id as ambiguous", async () => {
    const home = tempDir();
    const h = plantHistory(path.join(home, ".claude", "projects"));
    const core = await createAppCore({ projectsDir: h.projectsDir, settingsFile: path.join(home, "settings.json"), env: { HOME: home }, claudePath: path.join(home, "no-claude") });
    cores.push(core);
    const { service } = core;

    const bare = await service.openSession(h.sessionId);
    expect(bare).toMatchObject({ ok: false, error: { code: "ambiguous" } });
    if (!bare.ok) for (const file of [h.mainFile, h.copyFile]) expect(bare.error.message).toContain(file);

    const original = await service.openSession(h.sessionId, h.project);
    const copy = await service.openSession(h.sessionId, h.copyProject);
    if (!original.ok || !copy.ok) throw new Error(JSON.stringify([original, copy]));
    expect(original.value.tabId).not.toBe(copy.value.tabId);
    expect(original.value.cwd).toBe("/home/user/code/deep-nesting");
    expect(copy.value.cwd).toBe("/home/user/code/deep-nesting-copy");
    // Each tab shows its own file: the titles the two copies were given.
    const shown = (tabId: string): Transcript | undefined => {
      let transcript: Transcript | undefined;
      // The first delta is the tab's whole transcript, sent as the subscription opens.
      core.manager.subscribeTranscript(tabId, (delta) => (transcript = denormalize(applyDelta(emptyTranscriptState(), delta))))();
      return transcript;
    };
    expect(shown(original.value.tabId)?.title).toBe("Quillwort migration plan");
    expect(shown(copy.value.tabId)?.title).toBe("Bramblecopy rehearsal");
    // Named again, each is its tab.
    expect(await service.openSession(h.sessionId, h.copyProject)).toMatchObject({ ok: true, value: { tabId: copy.value.tabId } });
    expect(await service.openSession(h.sessionId, h.project)).toMatchObject({ ok: true, value: { tabId: original.value.tabId } });

    // A folder is a plain name of the history folder, never a path.
    for (const project of ["..", "../elsewhere", "a/b", "."]) {
      expect(await service.openSession(h.sessionId, project), project).toMatchObject({ ok: false, error: { code: "invalid_argument" } });
    }
    expect(await service.openSession(h.sessionId, "-home-user-code-nowhere")).toMatchObject({ ok: false, error: { code: "not_found" } });
  });
});
