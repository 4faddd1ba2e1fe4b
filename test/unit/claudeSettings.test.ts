// What `baton claude` adds to the person's claude: one --settings object registering `baton hook`
// for PreToolUse on every tool and for the events Baton observes, with a command line the shell
// reads back as exactly the node and bin paths given, whatever they hold.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { claudeHookSettings, hookCommandLine, shellQuote } from "../../src/main/commands/claudeSettings.js";
import { HookTimeoutSeconds } from "../../src/main/terminal/hookTiming.js";

/** The words `sh` reads from `line` (printed NUL-separated by printf). */
function shellWords(line: string): string[] {
  return execFileSync("sh", ["-c", `printf '%s\\0' ${line}`], { encoding: "utf8" }).split("\0").slice(0, -1);
}

describe("baton claude's settings", () => {
  it("quotes paths with spaces, quotes and dollars so the shell reads them back unchanged", () => {
    const node = "/home/user/my tools/node's $HOME/bin/node";
    const bin = "/home/user/code/baton `x`/bin/baton.mjs";
    expect(shellWords(hookCommandLine(node, bin))).toEqual([node, bin, "hook"]);
    expect(shellQuote("/usr/bin/node")).toBe("/usr/bin/node");
    expect(hookCommandLine("/usr/bin/node", "/opt/baton/bin/baton.mjs", true)).toBe("/usr/bin/node /opt/baton/bin/baton.mjs hook --orchestration");
  });

  it("registers the hook for PreToolUse and PermissionRequest on every tool and for the observed events", () => {
    const settings = claudeHookSettings("/usr/bin/node /opt/baton/bin/baton.mjs hook");
    const hook = { type: "command", command: "/usr/bin/node /opt/baton/bin/baton.mjs hook", timeout: HookTimeoutSeconds };
    expect(settings).toEqual({
      hooks: {
        PreToolUse: [{ matcher: "*", hooks: [hook] }],
        PermissionRequest: [{ matcher: "*", hooks: [hook] }],
        Notification: [{ hooks: [hook] }],
        SubagentStart: [{ hooks: [hook] }],
        SubagentStop: [{ hooks: [hook] }],
        Stop: [{ hooks: [hook] }],
      },
    });
  });
});
