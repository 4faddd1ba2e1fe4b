// The history folder of the desktop app and web mode: the `--projects-dir` switch read from
// Electron's argv, the order switch > setting > $CLAUDE_CONFIG_DIR > ~/.claude, and the setting
// saved in Baton's settings file (real files in a temp dir) and applied without a restart.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseAppSwitches } from "../../src/main/app/appSwitches.js";
import { createAppCore, type AppCore } from "../../src/main/app/createAppCore.js";
import { HistoryFolderSetting } from "../../src/main/core/historyFolder.js";
import { readSettings } from "../../src/main/platform/settingsFile.js";
import { chooseProjectsDir } from "../../src/main/platform/projectsDir.js";
import { writePromptSession } from "../support/historyFiles.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-history-folder-");
const cores: AppCore[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

/** A temp HOME with a default history folder, another folder, and Baton's settings file path. */
function world() {
  const home = tempDir();
  const defaultDir = path.join(home, ".claude", "projects");
  const otherDir = path.join(home, "elsewhere", "projects");
  fs.mkdirSync(defaultDir, { recursive: true });
  fs.mkdirSync(otherDir, { recursive: true });
  return { home, defaultDir, otherDir, settingsFile: path.join(home, ".config", "baton", "settings.json") };
}

describe("the desktop app's --projects-dir switch", () => {
  it("is read from Electron's argv among the executable, the app path and Chromium's switches", () => {
    expect(parseAppSwitches(["/opt/Baton/baton", "--no-sandbox", "--projects-dir", "/data/projects"])).toEqual({ projectsDir: "/data/projects", problems: [] });
    expect(parseAppSwitches(["/usr/lib/electron/electron", ".", "--projects-dir=/data/p", "--inspect=5858"])).toEqual({ projectsDir: "/data/p", problems: [] });
    expect(parseAppSwitches(["electron", "--projects-dir", "/a", "--projects-dir", "/b"]).projectsDir).toBe("/b");
    expect(parseAppSwitches(["/opt/Baton/baton"])).toEqual({ problems: [] });
  });

  it("without its folder is reported and ignored", () => {
    for (const argv of [["baton", "--projects-dir"], ["baton", "--projects-dir", "--no-sandbox"], ["baton", "--projects-dir="]]) {
      const parsed = parseAppSwitches(argv);
      expect(parsed.projectsDir).toBeUndefined();
      expect(parsed.problems).toEqual([expect.stringContaining("--projects-dir needs a folder")]);
    }
  });
});

describe("which history folder is used", () => {
  const home = "/home/u";
  it("goes switch > setting > $CLAUDE_CONFIG_DIR/projects > ~/.claude/projects", () => {
    const env = { CLAUDE_CONFIG_DIR: "/cfg" };
    expect(chooseProjectsDir({ override: "/cli", setting: "/set", env, homeDir: home })).toEqual({ projectsDir: "/cli", source: "command-line" });
    expect(chooseProjectsDir({ setting: "/set", env, homeDir: home })).toEqual({ projectsDir: "/set", source: "setting" });
    expect(chooseProjectsDir({ env, homeDir: home })).toEqual({ projectsDir: "/cfg/projects", source: "environment" });
    expect(chooseProjectsDir({ env: {}, homeDir: home })).toEqual({ projectsDir: "/home/u/.claude/projects", source: "default" });
  });

  it("reads a leading ~ as the home folder", () => {
    expect(chooseProjectsDir({ override: "~/p", env: {}, homeDir: home }).projectsDir).toBe("/home/u/p");
    expect(chooseProjectsDir({ setting: "~", env: {}, homeDir: home }).projectsDir).toBe("/home/u");
  });
});

describe("the history folder setting", () => {
  it("is saved in Baton's settings file and used by the next start, under a --projects-dir switch", async () => {
    const w = world();
    const env = {};
    const first = new HistoryFolderSetting({ settingsFile: w.settingsFile, env, homeDir: w.home });
    expect(first.current).toEqual({ projectsDir: w.defaultDir, source: "default" });
    const changes: string[] = [];
    first.onChange(({ projectsDir }) => changes.push(projectsDir));

    const info = await first.change(w.otherDir);
    expect(info).toEqual({ projectsDir: w.otherDir, source: "setting", exists: true, saved: w.otherDir, settingsFile: w.settingsFile });
    expect(changes).toEqual([w.otherDir]);
    expect(JSON.parse(fs.readFileSync(w.settingsFile, "utf8"))).toEqual({ projectsDir: w.otherDir });

    const restarted = new HistoryFolderSetting({ settingsFile: w.settingsFile, env, homeDir: w.home });
    expect(restarted.current).toEqual({ projectsDir: w.otherDir, source: "setting" });

    const switched = new HistoryFolderSetting({ commandLine: w.defaultDir, settingsFile: w.settingsFile, env, homeDir: w.home });
    expect(await switched.info()).toMatchObject({ projectsDir: w.defaultDir, source: "command-line", saved: w.otherDir });
    // Saving under the switch keeps the switch's folder in use: nothing to re-list.
    const overridden: string[] = [];
    switched.onChange(({ projectsDir }) => overridden.push(projectsDir));
    await switched.change(path.join(w.home, "elsewhere"));
    expect(switched.current.projectsDir).toBe(w.defaultDir);
    expect(overridden).toEqual([]);
  });

  it("refuses a folder that does not exist, a file, or one holding the settings file or the index, and saves nothing", async () => {
    const w = world();
    const dbDir = path.join(w.home, "data");
    fs.mkdirSync(dbDir);
    const setting = new HistoryFolderSetting({ settingsFile: w.settingsFile, ownFiles: [path.join(dbDir, "history.db")], env: {}, homeDir: w.home });
    await expect(setting.change(dbDir)).rejects.toMatchObject({ code: "forbidden_path", message: expect.stringContaining("history.db") });
    const missing = path.join(w.home, "no-such-folder");
    await expect(setting.change(missing)).rejects.toMatchObject({ code: "not_found", message: `The folder ${missing} does not exist` });
    const file = path.join(w.home, "a-file");
    fs.writeFileSync(file, "x");
    await expect(setting.change(file)).rejects.toMatchObject({ code: "not_a_directory" });
    await expect(setting.change(w.home)).rejects.toMatchObject({ code: "forbidden_path" });
    expect(fs.existsSync(w.settingsFile)).toBe(false);
    expect(setting.current.source).toBe("default");
  });

  it("forgets the saved folder on null, keeping settings it does not know", async () => {
    const w = world();
    fs.mkdirSync(path.dirname(w.settingsFile), { recursive: true });
    fs.writeFileSync(w.settingsFile, JSON.stringify({ projectsDir: w.otherDir, fromANewerBaton: 1 }));
    const setting = new HistoryFolderSetting({ settingsFile: w.settingsFile, env: { CLAUDE_CONFIG_DIR: path.join(w.home, "cfg") }, homeDir: w.home });
    expect(setting.current.source).toBe("setting");
    const info = await setting.change(null);
    expect(info).toMatchObject({ projectsDir: path.join(w.home, "cfg", "projects"), source: "environment", exists: false });
    expect(info.saved).toBeUndefined();
    expect(JSON.parse(fs.readFileSync(w.settingsFile, "utf8"))).toEqual({ fromANewerBaton: 1 });
  });

  it("reads a damaged settings file as no setting, and says why", () => {
    const w = world();
    fs.mkdirSync(path.dirname(w.settingsFile), { recursive: true });
    fs.writeFileSync(w.settingsFile, "{ not json");
    const setting = new HistoryFolderSetting({ settingsFile: w.settingsFile, env: {}, homeDir: w.home });
    expect(setting.current.source).toBe("default");
    expect(setting.problem).toContain("not a settings file");
    fs.writeFileSync(w.settingsFile, JSON.stringify({ projectsDir: "relative/path" }));
    expect(readSettings(w.settingsFile)).toEqual({ settings: {}, problem: expect.stringContaining("not an absolute path") });
  });
});

describe("the app core's history folder", () => {
  async function core(w: ReturnType<typeof world>, projectsDir?: string): Promise<AppCore> {
    const started = await createAppCore({
      ...(projectsDir !== undefined ? { projectsDir } : {}),
      settingsFile: w.settingsFile,
      env: { HOME: w.home },
      claudePath: path.join(w.home, "no-claude"),
    });
    cores.push(started);
    return started;
  }
  const titles = async (c: AppCore): Promise<string[]> => {
    const listed = await c.service.listSessions();
    if (!listed.ok) throw new Error(listed.error.message);
    return listed.value.map((s) => s.title);
  };

  it("lists the new folder's sessions at once and keeps it after a restart", async () => {
    const w = world();
    writePromptSession(w.defaultDir, "11111111-1111-4111-8111-111111111111", "Question in the default folder");
    writePromptSession(w.otherDir, "22222222-2222-4222-8222-222222222222", "Question in the other folder");
    const first = await core(w);
    expect(await titles(first)).toEqual(["Question in the default folder"]);

    const missing = await first.service.setHistoryFolder(path.join(w.home, "gone"));
    expect(missing).toEqual({ ok: false, error: { code: "not_found", message: `The folder ${path.join(w.home, "gone")} does not exist` } });
    expect(await first.service.setHistoryFolder("relative/dir")).toMatchObject({ ok: false, error: { code: "invalid_argument" } });

    expect(await first.service.setHistoryFolder("~/elsewhere/projects")).toMatchObject({ ok: true, value: { projectsDir: w.otherDir, source: "setting" } });
    expect(await titles(first)).toEqual(["Question in the other folder"]);
    expect(first.log.entries().map((e) => e.message)).toContain("history folder changed");
    await first.close();

    const second = await core(w);
    expect(await second.service.getHistoryFolder()).toMatchObject({ ok: true, value: { projectsDir: w.otherDir, source: "setting" } });
    expect(await titles(second)).toEqual(["Question in the other folder"]);

    const switched = await core(w, w.defaultDir);
    expect(await titles(switched)).toEqual(["Question in the default folder"]);
  });
});
