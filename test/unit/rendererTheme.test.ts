// The theme choice (theme.ts) and the New session dialog's recent projects (recentProjects.ts).
import { describe, expect, it } from "vitest";
import { parseThemeChoice, resolveTheme } from "../../src/renderer/theme/theme.js";
import { folderName, recentProjects } from "../../src/renderer/session/recentProjects.js";
import { whyFixed } from "../../src/renderer/panels/HistoryFolderRow.js";

describe("the theme choice", () => {
  it("reads back light, dark and system; anything else is system", () => {
    expect(parseThemeChoice("light")).toBe("light");
    expect(parseThemeChoice("dark")).toBe("dark");
    expect(parseThemeChoice("system")).toBe("system");
    expect(parseThemeChoice(null)).toBe("system");
    expect(parseThemeChoice("solarized")).toBe("system");
  });

  it("follows the system only when the choice is system", () => {
    expect(resolveTheme("system", true)).toBe("dark");
    expect(resolveTheme("system", false)).toBe("light");
    expect(resolveTheme("light", true)).toBe("light");
    expect(resolveTheme("dark", false)).toBe("dark");
  });
});

describe("recent projects", () => {
  it("lists each working directory once, the most recently used first, sessions without a cwd left out", () => {
    const sessions = [
      { cwd: "/home/user/code/a", lastTimestamp: "2025-01-01T10:00:00.000Z" },
      { cwd: "/home/user/code/b", lastTimestamp: "2025-03-01T10:00:00.000Z" },
      { cwd: "/home/user/code/a", lastTimestamp: "2025-04-01T10:00:00.000Z" },
      { lastTimestamp: "2025-05-01T10:00:00.000Z" },
      { cwd: "/home/user/code/c" },
    ];
    expect(recentProjects(sessions)).toEqual(["/home/user/code/a", "/home/user/code/b", "/home/user/code/c"]);
    expect(recentProjects(sessions, 1)).toEqual(["/home/user/code/a"]);
    expect(recentProjects([])).toEqual([]);
  });

  it("names a folder by its last part", () => {
    expect(folderName("/home/user/code/baton")).toBe("baton");
    expect(folderName("/home/user/code/baton/")).toBe("baton");
    expect(folderName("C:\\Users\\u\\code\\x")).toBe("x");
    expect(folderName("/")).toBe("/");
  });
});

describe("the history folder's Change…", () => {
  const info = { projectsDir: "/home/user/.claude/projects", exists: true } as const;
  it("can switch a folder chosen here, from the environment or the default", () => {
    expect(whyFixed({ ...info, source: "default", settingsFile: "/home/user/.config/baton/settings.json" })).toBeUndefined();
    expect(whyFixed({ ...info, source: "setting", settingsFile: "/home/user/.config/baton/settings.json" })).toBeUndefined();
  });

  it("says why it cannot without a settings file, or under --projects-dir", () => {
    expect(whyFixed({ ...info, source: "default" })).toContain("no settings file");
    expect(whyFixed({ ...info, source: "command-line", settingsFile: "/home/user/.config/baton/settings.json" })).toContain("--projects-dir");
  });
});
