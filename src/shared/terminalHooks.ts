// What passes between a terminal session's hook and the running Baton (issue 35). `baton claude`
// starts the person's own interactive `claude` with Baton's command hooks for that session only;
// each hook runs `baton hook`, which reads the CLI's hook input on stdin, sends one HookEnvelope
// line over Baton's local socket and prints the CLI's answer for the HookVerdict it gets back.
// Anything short of a verdict (no Baton, a refused socket, a timeout, bad input) is "ask": the
// terminal shows its own prompt, and nothing is ever allowed by default. Pure.

import { z } from "zod";
import type { HookVerdict } from "./hookVerdict.js";

// The verdict and the PreToolUse answer live apart, without zod, for `baton hook`'s start-up.
export { AskVerdict, DeferVerdict, isHookDecision, preToolUseOutput, type HookDecision, type HookVerdict } from "./hookVerdict.js";

/** The hook events Baton registers for a terminal session (what each CLI version fires: docs/protocol-notes.md). */
export const TerminalHookEvents = ["PreToolUse", "PermissionRequest", "Notification", "SubagentStart", "SubagentStop", "Stop"] as const;
export type TerminalHookEvent = (typeof TerminalHookEvents)[number];

const Id = z.string().min(1).max(200);
const Path = z.string().min(1).max(4096);

/**
 * The CLI's hook input, as far as Baton reads it (PROTOCOL.md §3.5: `BaseHookInput` and the
 * PreToolUse fields). Unknown fields are kept out, not refused: a newer CLI adds fields.
 */
export const HookInputSchema = z.object({
  session_id: Id,
  transcript_path: Path,
  cwd: Path,
  hook_event_name: z.string().min(1).max(100),
  permission_mode: z.string().max(100).optional(),
  agent_id: Id.optional(),
  agent_type: z.string().max(200).optional(),
  agent_transcript_path: Path.optional(),
  tool_name: z.string().min(1).max(200).optional(),
  tool_input: z.record(z.string(), z.unknown()).optional(),
  tool_use_id: Id.optional(),
  message: z.string().max(100_000).optional(),
});
export type HookInput = z.infer<typeof HookInputSchema>;

/** One line from `baton hook` to Baton: the launch's secret and the CLI's input. */
export interface HookEnvelope {
  readonly secret: string;
  readonly input: HookInput;
  /** The session was started with `baton claude --orchestration`: Baton's presets hold its agents. */
  readonly orchestration?: boolean;
}

/** How the terminal session was started, as its hook says (`baton claude`'s own options). */
export interface HookLaunch {
  readonly orchestration: boolean;
}

/**
 * What Baton's socket calls for each hook (core/terminalSessions.ts). `gaveUp` aborts when the hook
 * stopped waiting (its socket closed, the server's time ran out): a request it left on a card is
 * withdrawn there. `launch` says how `baton claude` started the session (always given by the socket).
 */
export type TerminalHookHandler = (input: HookInput, gaveUp?: AbortSignal, launch?: HookLaunch) => Promise<HookVerdict>;
