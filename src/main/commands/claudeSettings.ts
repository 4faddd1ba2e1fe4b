// The `--settings` `baton claude` adds to the person's `claude`: Baton's command hooks for that
// session only (the CLI merges it over the person's own settings; nothing is written to
// ~/.claude or the project). PreToolUse for every tool is where Baton decides; PermissionRequest,
// Notification, SubagentStart/Stop and Stop tell it the session's state (which CLI fires which:
// docs/protocol-notes.md).
import { TerminalHookEvents, type TerminalHookEvent } from "../../shared/terminalHooks.js";
import { HookTimeoutSeconds } from "../terminal/hookTiming.js";

/** A word for a POSIX shell, whatever it holds (the CLI runs a command hook through `sh -c`). */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `<node> <bin/baton.mjs> hook [--orchestration]`, quoted for the shell. */
export function hookCommandLine(nodePath: string, batonBin: string, orchestration = false): string {
  return [nodePath, batonBin, "hook", ...(orchestration ? ["--orchestration"] : [])].map(shellQuote).join(" ");
}

/** Events whose hooks take a matcher (tool events); the others match every occurrence without one. */
const ToolEvents: ReadonlySet<TerminalHookEvent> = new Set(["PreToolUse", "PermissionRequest"]);

/** The settings object registering `command` for every event Baton listens to. */
export function claudeHookSettings(command: string): { hooks: Record<string, unknown[]> } {
  const hooks: Record<string, unknown[]> = {};
  for (const event of TerminalHookEvents) {
    const hook = { type: "command", command, timeout: HookTimeoutSeconds };
    hooks[event] = [ToolEvents.has(event) ? { matcher: "*", hooks: [hook] } : { hooks: [hook] }];
  }
  return { hooks };
}
