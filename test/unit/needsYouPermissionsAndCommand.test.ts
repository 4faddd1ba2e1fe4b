// Issue 35's small pure parts: the only permissions the desktop window grants (notifications and
// clipboard writes, to Baton's own page), and the "Continue in terminal" command, quoted for a shell.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { continueCommand, shellWord } from "../../src/shared/continueCommand.js";
import { APP_ORIGIN } from "../../src/main/window/appProtocol.js";
import { allowsPermission } from "../../src/main/window/permissionPolicy.js";

describe("allowsPermission", () => {
  it("grants notifications and clipboard writes to the app's own page only", () => {
    expect(allowsPermission("notifications", `${APP_ORIGIN}/index.html`, APP_ORIGIN)).toBe(true);
    expect(allowsPermission("clipboard-sanitized-write", APP_ORIGIN, APP_ORIGIN)).toBe(true);
    expect(allowsPermission("notifications", "https://example.com/", APP_ORIGIN)).toBe(false);
    expect(allowsPermission("notifications", undefined, APP_ORIGIN)).toBe(false);
    expect(allowsPermission("notifications", "not a url", APP_ORIGIN)).toBe(false);
  });

  it("refuses everything else, even to the app", () => {
    for (const permission of ["media", "geolocation", "clipboard-read", "openExternal", "fullscreen", "hid", "Notifications"]) {
      expect(allowsPermission(permission, APP_ORIGIN, APP_ORIGIN), permission).toBe(false);
    }
  });
});

describe("continueCommand", () => {
  it("resumes the session in its folder", () => {
    expect(continueCommand("0f6e2c3a-1b2c-4d5e-8f90-123456789abc", "/home/user/code/x")).toBe("cd /home/user/code/x && baton claude --resume 0f6e2c3a-1b2c-4d5e-8f90-123456789abc");
    expect(continueCommand("abc", undefined)).toBe("baton claude --resume abc");
    expect(continueCommand("abc", "")).toBe("baton claude --resume abc");
  });

  it("quotes a folder or an id a shell would read otherwise", () => {
    expect(continueCommand("abc", "/home/user/my code/it's")).toBe(`cd '/home/user/my code/it'\\''s' && baton claude --resume abc`);
    expect(continueCommand("a;rm -rf ~", "/x")).toBe("cd /x && baton claude --resume 'a;rm -rf ~'");
  });

  it("gives the shell back every folder name byte for byte", () => {
    for (const name of ["/tmp/a b", "/tmp/$(touch pwned)", "/tmp/`id`", "/tmp/'quoted'", "/tmp/back\\slash", "/tmp/new\nline", "/tmp/ünïcode", "/tmp/-dash", "/tmp/!bang", "/tmp/*glob?"]) {
      const echoed = execFileSync("sh", ["-c", `printf %s ${shellWord(name)}`], { encoding: "utf8" });
      expect(echoed, name).toBe(name);
    }
  });
});
