// `npm start` and `npx baton web` run with Baton's own node_modules/.bin first on PATH: the app
// core must not pick the test copy of `claude` there, and a session started without any other
// `claude` fails as "not found" instead of quietly running that copy.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createAppCore, type AppCore } from "../../src/main/app/createAppCore.js";
import { tempDirs } from "../support/tempDirs.js";

const repo = path.resolve(import.meta.dirname, "../..");
const ownBin = path.join(repo, "node_modules", ".bin");
let core: AppCore | undefined;
const tempDir = tempDirs("baton-core-claude-");
afterEach(async () => {
  await core?.close();
});

describe("the app core's claude", () => {
  it("skips Baton's own node_modules/.bin on PATH and uses the person's claude after it", async () => {
    const home = tempDir();
    const mine = path.join(home, "bin");
    fs.mkdirSync(mine);
    fs.writeFileSync(path.join(mine, "claude"), "#!/bin/sh\nexit 0\n");
    fs.chmodSync(path.join(mine, "claude"), 0o755);
    core = await createAppCore({ projectsDir: home, env: { PATH: [ownBin, mine].join(path.delimiter), HOME: home } });
    const using = core.log.entries().find((e) => e.message === "using claude");
    expect(using?.fields).toMatchObject({ path: path.join(mine, "claude"), source: "path", pathEntry: mine });
  });

  it("with only Baton's own copy on PATH, a new session fails as not found rather than running it", async () => {
    const home = tempDir();
    core = await createAppCore({ projectsDir: home, env: { PATH: ownBin, HOME: home } });
    const using = core.log.entries().find((e) => e.message === "using claude");
    // This machine may have a claude in an install place (/usr/local/bin, npm -g): never the repo's.
    if (using !== undefined) {
      expect(String(using.fields?.["path"])).not.toContain(path.join(repo, "node_modules"));
      return;
    }
    expect(core.log.entries().some((e) => e.message.startsWith("Claude Code CLI not found"))).toBe(true);
    expect(await core.service.newSession({ cwd: home })).toMatchObject({ ok: false, error: { code: "cli_not_found", message: expect.stringContaining("baton doctor") } });
  });

  it("says to the window whether claude was found, and to the Console in one calm line what to install", async () => {
    const home = tempDir();
    const empty = path.join(home, "bin");
    fs.mkdirSync(empty);
    core = await createAppCore({ projectsDir: home, env: { PATH: empty, HOME: home }, claudeInstallDirs: [] });
    expect(await core.service.getClaudeStatus()).toEqual({ ok: true, value: { found: false, tried: [path.join(empty, "claude")] } });
    const first = core.log.entries()[0];
    expect(first).toMatchObject({ level: "warning", fields: { tried: [path.join(empty, "claude")] } });
    expect(first?.message).toBe("Claude Code CLI not found: history and search work; to start sessions, install it (npm i -g @anthropic-ai/claude-code) and restart Baton");
    await core.close();

    fs.writeFileSync(path.join(empty, "claude"), "#!/bin/sh\nexit 0\n");
    fs.chmodSync(path.join(empty, "claude"), 0o755);
    core = await createAppCore({ projectsDir: home, env: { PATH: empty, HOME: home }, claudeInstallDirs: [] });
    expect(await core.service.getClaudeStatus()).toEqual({ ok: true, value: { found: true, path: path.join(empty, "claude") } });
  });
});
