// A page names a past session by its id, looked up in the history folder: never by a name that
// Baton would resolve against its own working folder, and no error it gets back says where that
// folder is. The command line keeps taking a person's own path (`baton export ./x.jsonl`).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAppCore, type AppCore } from "../../src/main/app/createAppCore.js";
import { createHistorySource } from "../../src/main/core/historySource.js";
import { bufferIO } from "../../src/main/commands/commandIO.js";
import { run as exportRun } from "../../src/main/commands/export.js";
import { writePromptSession } from "../support/historyFiles.js";
import { tempDirs } from "../support/tempDirs.js";

const Secret = "Cwdsecretwalrus";
const tempDir = tempDirs("baton-open-by-id-");
const cores: AppCore[] = [];
let cwdBefore: string;
beforeEach(() => {
  cwdBefore = process.cwd();
});
afterEach(async () => {
  process.chdir(cwdBefore);
  for (const core of cores.splice(0)) await core.close();
});

/** A history folder with one session, and Baton's working folder (elsewhere) holding `x.jsonl`. */
function world() {
  const home = tempDir();
  const projects = path.join(home, ".claude", "projects");
  writePromptSession(projects, "11111111-1111-4111-8111-111111111111", "A session in the history folder");
  const cwd = path.join(home, "baton-working-folder");
  fs.mkdirSync(cwd);
  // A transcript Baton would show if it resolved the name against its working folder.
  writePromptSession(path.join(cwd, "unused"), "x", `${Secret} in the working folder`);
  fs.copyFileSync(path.join(cwd, "unused", "-home-user-code-app", "x.jsonl"), path.join(cwd, "x.jsonl"));
  fs.mkdirSync(path.join(cwd, "sub"));
  fs.copyFileSync(path.join(cwd, "x.jsonl"), path.join(cwd, "sub", "x.jsonl"));
  process.chdir(cwd);
  return { home, projects, cwd };
}

describe("openSession from the page", () => {
  it("refuses a file name in Baton's working folder, without naming that folder", async () => {
    const w = world();
    const core = await createAppCore({ projectsDir: w.projects, settingsFile: path.join(w.home, "settings.json"), env: { HOME: w.home }, claudePath: path.join(w.home, "no-claude") });
    cores.push(core);
    for (const name of ["x.jsonl", "sub/x.jsonl", "./x.jsonl", "x", "../baton-working-folder/x.jsonl"]) {
      const opened = await core.service.openSession(name);
      expect(opened.ok, name).toBe(false);
      if (opened.ok) continue;
      expect(opened.error.message).not.toContain(w.cwd);
    }
    // The page's argument check already says no: a session id has no dots or slashes.
    expect(await core.service.openSession("x.jsonl")).toMatchObject({ ok: false, error: { code: "invalid_argument" } });
    const tabs = await core.service.listTabs();
    expect(JSON.stringify(tabs)).not.toContain(Secret);
    // The session in the history folder still opens by its id.
    expect(await core.service.openSession("11111111-1111-4111-8111-111111111111")).toMatchObject({ ok: true });
  });

  it("the history source itself takes ids (or paths inside its folder) only", async () => {
    const w = world();
    const source = createHistorySource({ projectsDir: w.projects });
    for (const name of ["x.jsonl", "sub/x.jsonl", path.join(w.cwd, "x.jsonl")]) {
      const error = await source.restore(name).then(
        () => undefined,
        (e: unknown) => e as { code: string; message: string },
      );
      expect(error, name).toMatchObject({ code: "refused" });
      expect(error!.message).not.toContain(w.cwd);
    }
    const inside = path.join(w.projects, "-home-user-code-app", "11111111-1111-4111-8111-111111111111.jsonl");
    expect((await source.restore(inside)).transcript().blocks).toContainEqual(expect.objectContaining({ text: "A session in the history folder" }));
  });

  it("the command line still takes the person's own path", async () => {
    world();
    const io = bufferIO();
    expect(await exportRun(["x.jsonl", "--json", "--db", path.join(os.tmpdir(), "baton-no-such-db", "history.db")], io)).toBe(0);
    expect(io.out()).toContain(Secret);
  });
});
