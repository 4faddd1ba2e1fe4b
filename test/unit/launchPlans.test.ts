// launchPlans (issue 25, open a worktree): what runs per platform, $TERMINAL first and never
// split, the folder always one whole argument or the cwd, and the paths it refuses.
import { describe, expect, it } from "vitest";
import { launchPlans } from "../../src/main/desktop/launchPlans.js";

const dir = "/home/me/repo/.claude/worktrees/agent-1";

describe("folder", () => {
  it("is xdg-open on Linux and other Unixes, open on macOS, explorer.exe on Windows", () => {
    expect(launchPlans("folder", dir, "linux", {})).toEqual([{ command: "xdg-open", args: [dir], cwd: dir }]);
    expect(launchPlans("folder", dir, "freebsd", {})).toEqual([{ command: "xdg-open", args: [dir], cwd: dir }]);
    expect(launchPlans("folder", dir, "darwin", {})).toEqual([{ command: "open", args: [dir], cwd: dir }]);
    expect(launchPlans("folder", "C:\\src\\wt", "win32", {})).toEqual([{ command: "explorer.exe", args: ["C:\\src\\wt"], cwd: "C:\\src\\wt" }]);
  });
});

describe("terminal", () => {
  it("tries the usual Linux terminals in order, each in the folder", () => {
    const plans = launchPlans("terminal", dir, "linux", {});
    expect(plans.map((p) => p.command)).toEqual(["x-terminal-emulator", "gnome-terminal", "konsole", "xfce4-terminal", "kitty", "alacritty", "wezterm", "xterm"]);
    expect(plans.every((p) => p.cwd === dir)).toBe(true);
    expect(plans.find((p) => p.command === "gnome-terminal")?.args).toEqual([`--working-directory=${dir}`]);
    expect(plans.find((p) => p.command === "x-terminal-emulator")?.args).toEqual([]);
  });

  it("puts $TERMINAL first, as one program name never split, and does not repeat it", () => {
    expect(launchPlans("terminal", dir, "linux", { TERMINAL: "foot" })[0]).toEqual({ command: "foot", args: [], cwd: dir });
    expect(launchPlans("terminal", dir, "openbsd", { TERMINAL: "my term -e sh" })[0]).toEqual({ command: "my term -e sh", args: [], cwd: dir });
    const known = launchPlans("terminal", dir, "linux", { TERMINAL: "konsole" });
    expect(known[0]).toEqual({ command: "konsole", args: ["--workdir", dir], cwd: dir });
    expect(known.filter((p) => p.command === "konsole")).toHaveLength(1);
    expect(launchPlans("terminal", dir, "linux", { TERMINAL: "/opt/kitty/bin/kitty" })[0]?.command).toBe("/opt/kitty/bin/kitty");
    expect(launchPlans("terminal", dir, "linux", { TERMINAL: "" })[0]?.command).toBe("x-terminal-emulator");
  });

  it("is Terminal.app on macOS and Windows Terminal in the folder on Windows, with no shell command line", () => {
    expect(launchPlans("terminal", dir, "darwin", { TERMINAL: "kitty" })).toEqual([{ command: "open", args: ["-a", "Terminal", dir], cwd: dir }]);
    const win = "C:\\Users\\me\\wt & calc";
    expect(launchPlans("terminal", win, "win32", {})).toEqual([{ command: "wt.exe", args: ["-d", win], cwd: win }]);
    // wt.exe would split its command line at the `;`: nothing is tried rather than the wrong thing.
    expect(launchPlans("terminal", "D:\\a;b", "win32", {})).toEqual([]);
  });

  it("keeps shell syntax in a folder name as plain text of one argument", () => {
    const odd = "/tmp/$(touch pwned) `x` 'q' \"d\" ; & |";
    for (const plan of [...launchPlans("folder", odd, "linux", {}), ...launchPlans("terminal", odd, "linux", {})]) {
      expect(plan.cwd).toBe(odd);
      expect(plan.args.filter((a) => a.includes("pwned")).every((a) => a === odd || a.endsWith(`=${odd}`))).toBe(true);
    }
  });
});

describe("refusals", () => {
  it("refuses a relative path, on every platform's terms", () => {
    expect(() => launchPlans("folder", "repo/wt", "linux", {})).toThrow(/not an absolute path/);
    expect(() => launchPlans("terminal", "-e", "linux", {})).toThrow(/not an absolute path/);
    expect(() => launchPlans("folder", "C:\\wt", "linux", {})).toThrow(/not an absolute path/);
    expect(() => launchPlans("folder", "C:wt", "win32", {})).toThrow(/not an absolute path/);
    expect(() => launchPlans("folder", "\\wt", "win32", {})).toThrow(/not an absolute path/);
    expect(() => launchPlans("folder", "/wt", "win32", {})).toThrow(/not an absolute path/);
    expect(launchPlans("folder", "\\\\server\\share\\wt", "win32", {})[0]?.command).toBe("explorer.exe");
    expect(launchPlans("folder", "D:/wt", "win32", {})[0]?.command).toBe("explorer.exe");
  });

  it("refuses a NUL or a line break in the path", () => {
    expect(() => launchPlans("folder", "/tmp/a\0b", "linux", {})).toThrow(/NUL or line break/);
    expect(() => launchPlans("terminal", "/tmp/a\nb", "linux", {})).toThrow(/NUL or line break/);
    expect(() => launchPlans("terminal", "C:\\a\r\nb", "win32", {})).toThrow(/NUL or line break/);
  });
});
