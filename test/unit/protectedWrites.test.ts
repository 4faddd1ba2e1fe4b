// Issue 31: what a preset agent may never write, even inside its write root, and a file path read
// exactly as Claude Code reads it; an agent in a worktree of its own writes only there.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { HookCallbackRequest, JsonObject } from "../../src/shared/protocol/messages.js";
import { builtinPresetSet } from "../../src/main/policy/presets/builtinPresets.js";
import { decidePolicy, policyContext } from "../../src/main/policy/decidePolicy.js";
import { PolicyHookId, SessionPolicy } from "../../src/main/policy/sessionPolicy.js";
import { loadShellParser } from "../../src/main/policy/shell/shellParser.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-protected-", "all");
let home: string;
let root: string;
beforeAll(async () => {
  await loadShellParser();
  home = tempDir();
  root = path.join(home, "code", "x");
  fs.mkdirSync(path.join(root, ".git", "hooks"), { recursive: true });
});

const coder = { kind: "subagent" as const, agentId: "a1", agentType: "coder" };
const decide = (toolName: string, input: JsonObject, extra: { batonFiles?: string[] } = {}) =>
  decidePolicy({ agent: coder, toolName, input }, policyContext({ orchestration: true, presets: builtinPresetSet(), rules: [], cwd: root, home, ...extra }));

describe("protected files inside the write root", () => {
  it("refuses the editing tools Claude Code's settings, .mcp.json, git's files and shell start-up files, naming why", () => {
    for (const name of [".claude/settings.json", ".claude/settings.local.json", ".mcp.json", ".git/hooks/pre-commit", ".git/config", ".git/info/exclude", ".gitmodules", ".bashrc", ".vscode/tasks.json"]) {
      const verdict = decide("Write", { file_path: path.join(root, name), content: "x" });
      expect(verdict.decision, name).toBe("deny");
      expect(verdict.rule, name).toBe("preset:coder/write");
      expect(verdict.message, name).toContain("protected even inside the write root");
    }
    expect(decide("Edit", { file_path: path.join(root, "src", "main.go"), old_string: "a", new_string: "b" }).decision).toBe("allow");
  });

  it("refuses a Bash line that writes one, before the OS sandbox would", () => {
    expect(decide("Bash", { command: "echo '[core] fsmonitor = x' >> .git/config" })).toMatchObject({ decision: "deny", rule: "preset:coder/write" });
    expect(decide("Bash", { command: "echo '{}' > .claude/settings.local.json" })).toMatchObject({ decision: "deny", rule: "preset:coder/write" });
    expect(decide("Bash", { command: "echo notes > notes.txt" }).decision).toBe("allow");
  });

  it("refuses Baton's own files when they lie inside the root", () => {
    const baton = path.join(root, ".baton-config");
    expect(decide("Write", { file_path: path.join(baton, "rules.json"), content: "{}" }, { batonFiles: [baton] }).decision).toBe("deny");
  });
});

describe("writes after a cd", () => {
  it("lets a subshell's cd alone (its redirection is opened before it), and refuses a relative write after a cd", () => {
    expect(decide("Bash", { command: "(cd src && ls) > listing.txt" }).decision).toBe("allow");
    const after = decide("Bash", { command: "cd /etc && echo hi > x" });
    expect(after).toMatchObject({ decision: "deny", rule: "preset:coder/write" });
    expect(after.message).toContain("after `cd /etc`");
  });
});

describe("a file path as Claude Code reads it", () => {
  it("trims surrounding whitespace, so a path outside cannot pass as a name inside", () => {
    const verdict = decide("Write", { file_path: "  /etc/cron.d/x  ", content: "x" });
    expect(verdict).toMatchObject({ decision: "deny", rule: "preset:coder/write" });
    expect(verdict.message).toContain("/etc/cron.d/x is outside");
  });

  it("takes a leading ~/ from the home folder", () => {
    expect(decide("Write", { file_path: "~/.ssh/authorized_keys", content: "x" })).toMatchObject({ decision: "deny", rule: "preset:coder/write" });
    expect(decide("Write", { file_path: "~/code/x/ok.txt", content: "x" }).decision).toBe("allow");
  });
});

describe("an agent in a worktree of its own", () => {
  it("writes only its worktree, through the hook's cwd", async () => {
    const worktree = path.join(root, ".claude", "worktrees", "agent-aw1");
    fs.mkdirSync(worktree, { recursive: true });
    const session = new SessionPolicy({ orchestration: true, presets: () => builtinPresetSet(), rules: () => [], cwd: root, home, agentType: () => "coder", sessionId: () => "s", emit: () => undefined });
    const hook = (file: string, id: string, cwd: string): HookCallbackRequest => ({
      subtype: "hook_callback",
      callback_id: PolicyHookId,
      tool_use_id: id,
      input: { hook_event_name: "PreToolUse", tool_use_id: id, tool_name: "Write", tool_input: { file_path: file, content: "x" }, agent_id: "aw1", agent_type: "coder", cwd } as HookCallbackRequest["input"],
    });
    const answer = (r: Record<string, unknown>) => (r["hookSpecificOutput"] as { permissionDecision?: string } | undefined)?.permissionDecision;
    const handler = session.hookHandler();
    const never = new AbortController().signal;
    expect(answer(await handler(hook(path.join(worktree, "a.txt"), "t1", worktree), never))).toBe("allow");
    expect(answer(await handler(hook(path.join(root, "main.txt"), "t2", worktree), never))).toBe("deny");
    expect(answer(await handler(hook("relative.txt", "t3", worktree), never))).toBe("allow");
    // The same agent id with a cwd outside any worktree writes the workspace, as before.
    expect(answer(await handler(hook(path.join(root, "main.txt"), "t4", root), never))).toBe("allow");
  });
});
