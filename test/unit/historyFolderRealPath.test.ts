// "Not Baton's own folder" is decided on real paths: a history folder chosen through a link to
// Baton's config folder, through /proc/self/root, with `..` or a trailing slash is that folder,
// and refused; so is an index database put inside the history folder through such a path.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HistoryFolderSetting } from "../../src/main/core/historyFolder.js";
import { checkDbPath } from "../../src/main/platform/dbPath.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-real-folder-");

function world() {
  const home = tempDir();
  const configDir = path.join(home, ".config", "baton");
  fs.mkdirSync(configDir, { recursive: true });
  const projects = path.join(home, ".claude", "projects");
  fs.mkdirSync(projects, { recursive: true });
  return { home, configDir, projects, settingsFile: path.join(configDir, "settings.json"), dbFile: path.join(configDir, "history.db") };
}

const hasProcRoot = fs.existsSync("/proc/self/root");

describe("choosing a history folder", () => {
  it("refuses Baton's config folder reached through a link, /proc/self/root, `..` or a trailing slash, and saves nothing", async () => {
    const w = world();
    const setting = new HistoryFolderSetting({ settingsFile: w.settingsFile, ownFiles: [w.dbFile], env: {}, homeDir: w.home });
    const link = path.join(w.home, "looks-like-history");
    fs.symlinkSync(w.configDir, link);
    const linkToHome = path.join(w.home, "all-of-it");
    fs.symlinkSync(w.home, linkToHome);
    fs.mkdirSync(path.join(w.home, "elsewhere"));
    const tries = [link, `${link}/`, linkToHome, path.join(w.home, "elsewhere", "..", ".config", "baton"), `${w.configDir}/`, ...(hasProcRoot ? [`/proc/self/root${w.configDir}`, `/proc/self/root${w.home}`] : [])];
    for (const dir of tries) {
      await expect(setting.change(dir), dir).rejects.toMatchObject({ code: "forbidden_path", message: expect.stringContaining("Baton's own files") });
    }
    expect(fs.existsSync(w.settingsFile)).toBe(false);
    expect(setting.current.source).toBe("default");
  });

  it("refuses a folder holding the index database through a link to the database's folder", async () => {
    const w = world();
    const data = path.join(w.home, "data");
    fs.mkdirSync(data);
    const linkToData = path.join(w.home, "data-link");
    fs.symlinkSync(data, linkToData);
    // The database is named through the link; the folder chosen is the real one.
    const setting = new HistoryFolderSetting({ settingsFile: w.settingsFile, ownFiles: [path.join(linkToData, "history.db")], env: {}, homeDir: w.home });
    await expect(setting.change(data)).rejects.toMatchObject({ code: "forbidden_path" });
    // A link that stays elsewhere is a folder like any other.
    const other = path.join(w.home, "other-projects");
    fs.mkdirSync(other);
    fs.symlinkSync(other, path.join(w.home, "other-link"));
    expect(await setting.change(path.join(w.home, "other-link"))).toMatchObject({ projectsDir: path.join(w.home, "other-link"), source: "setting" });
  });
});

describe("the index database's place", () => {
  it("is refused inside the history folder or ~/.claude when reached through a link or /proc/self/root", () => {
    const w = world();
    const linkedProjects = path.join(w.home, "projects-link");
    fs.symlinkSync(w.projects, linkedProjects);
    const env = { home: w.home, projectsDir: linkedProjects };
    expect(() => checkDbPath(path.join(w.projects, "history.db"), env)).toThrow(expect.objectContaining({ code: "forbidden_path" }));
    const claudeLink = path.join(w.home, "claude-link");
    fs.symlinkSync(path.join(w.home, ".claude"), claudeLink);
    expect(() => checkDbPath(path.join(claudeLink, "x", "history.db"), { home: w.home })).toThrow(expect.objectContaining({ code: "forbidden_path" }));
    if (hasProcRoot) expect(() => checkDbPath(`/proc/self/root${w.projects}/history.db`, { home: w.home, projectsDir: w.projects })).toThrow(expect.objectContaining({ code: "forbidden_path" }));
    // Baton's own folder is fine.
    expect(checkDbPath(w.dbFile, env)).toBe(w.dbFile);
  });
});
