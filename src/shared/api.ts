// What crosses the API between the page and the main side: the data types, Result, and the wire
// messages of web mode. BatonApi itself (every method and subscription) is derived from the one
// table in apiContract.ts; its names are in apiNames.ts. Every call resolves to a Result; nothing
// throws across the boundary.

import type { Block, Transcript } from "./transcript.js";
import type { JsonObject, PermissionMode, PermissionUpdate } from "./protocol/messages.js";
import type { PermissionRule, PresetCharacter, RuleBehavior, RuleScope } from "./policy.js";
import type { SubscriptionKey } from "./apiContract.js";
import type { BatonMethodName, BatonSubscriptions, SubscriptionName } from "./apiNames.js";

export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ApiError };

export interface ApiError {
  /** Stable code callers branch on: "not_found", "invalid_argument", "cli_not_found", "process_error", … */
  readonly code: string;
  readonly message: string;
}

export type Unsubscribe = () => void;

/** A tab is one open session: live (a running CLI) or restored from history (read-only until resumed). */
export interface TabInfo {
  readonly tabId: string;
  readonly sessionId?: string;
  readonly title: string;
  /** A CLI process is running for this tab right now (false while it starts, after it exits). */
  readonly live: boolean;
  /** What the tab is: a session Baton runs (`live`, even while its CLI is down), or one read from history (`restored`, read-only until resumed). Set by the session manager. */
  readonly kind?: "live" | "restored";
  readonly cwd?: string;
  /** A session forked from a prompt of another (issue 37): that session and the prompt's uuid. */
  readonly forkedFrom?: ForkLink;
  /** A session running (or, reopened from history, that ran) in a linked git worktree still there, e.g. one started "in a new worktree": that worktree's folder and branch. */
  readonly worktree?: { readonly path: string; readonly branch?: string };
  /** A session running in a terminal that Baton steers through its hooks (issue 35), and the state its hooks last showed. */
  readonly terminal?: TerminalState;
}

/** Where a fork came from: the session it continues and the prompt (its uuid) it was forked at. */
export interface ForkLink {
  readonly sessionId: string;
  readonly promptUuid: string;
}

/** A terminal session's state: a request waits for the person, hooks arrive (it works), or it stopped its turn. */
export type TerminalState = "waiting" | "working" | "idle";

export interface SessionSummary {
  readonly sessionId: string;
  readonly projectDir: string;
  readonly path: string;
  readonly title: string;
  readonly cwd?: string;
  readonly gitBranch?: string;
  readonly firstTimestamp?: string;
  readonly lastTimestamp?: string;
  /** Absent when the list did not read every line of the session (it reads a big file's ends only). */
  readonly promptCount?: number;
  /** Absent when only a full read can tell (the lines read name Agent calls no subagent file accounts for). */
  readonly subagentCount?: number;
  readonly sizeBytes: number;
  /** The file was read at its ends only: a rename in its middle would outrank this title (the index reads it). */
  readonly titleMayChange?: boolean;
  /** A fork Baton made (issue 37): the session it continues and the prompt, from Baton's audit trail. */
  readonly forkedFrom?: ForkLink;
}

export interface SearchHit {
  readonly sessionId: string;
  readonly sessionTitle: string;
  /** The session's project folder (its name): with the id, what names the session (openSession's `project`). */
  readonly project?: string;
  readonly agentId?: string;
  readonly subagentDescription?: string;
  /** The subagent's type (`general-purpose`, a preset's name), when the hit is in a subagent's steps. */
  readonly subagentType?: string;
  /** The session's working folder, when known: the project's readable name. */
  readonly cwd?: string;
  readonly timestamp?: string;
  /** What the hit is in: prompt, text (an answer), thinking, tool_input, tool_output, title, project. */
  readonly kind: string;
  /** A tool input's or output's tool, when known, and an Agent call's description. */
  readonly tool?: string;
  readonly toolDescription?: string;
  /** The transcript file the hit is in and `<line>#<event>` inside it: which of a session's hits it is (SessionFind). */
  readonly file?: string;
  readonly ref?: string;
  /** Snippet with the matches between « and ». */
  readonly snippet: string;
}

/** The hits of a search inside one open session, where each shows, in transcript order (findInSession). */
export interface SessionFind {
  readonly query: string;
  readonly places: readonly FoundPlace[];
  /** Hits no block shows (a title, a prompt the CLI injected, a file changed since it was indexed). */
  readonly unplaced: number;
}

/** One hit inside an open session: its block, and the subagent cards that hold it. */
export interface FoundPlace {
  readonly file: string;
  readonly ref: string;
  readonly kind: string;
  /** Agent tool_use ids, from the top-level card down to the card whose steps hold the block. */
  readonly cards: readonly string[];
  readonly blockId: string;
  /** Snippet with the matches between « and ». */
  readonly snippet: string;
}

/** Where the history folder in use came from, strongest first. */
export type ProjectsDirSource = "command-line" | "setting" | "environment" | "default";

/** The folder past sessions are listed from (the CLI's `projects` folder), and why that one. */
export interface HistoryFolder {
  readonly projectsDir: string;
  readonly source: ProjectsDirSource;
  /** False when the folder is missing (nothing can be listed from it). */
  readonly exists: boolean;
  /** The folder saved in Baton's settings, if any: in use unless `--projects-dir` overrides it. */
  readonly saved?: string;
  /** Baton's settings file; absent when this Baton keeps none (the folder cannot be changed). */
  readonly settingsFile?: string;
}

/**
 * Whether this Baton found the Claude Code CLI it starts sessions with. Without it, history and
 * search still work; `tried` lists where it looked (as `baton doctor` does).
 */
export type ClaudeStatus =
  | { readonly found: true; readonly path: string }
  | { readonly found: false; readonly tried: readonly string[] };

/** How a person installs the CLI: what the window's banner and the Console say. */
export const ClaudeInstallCommand = "npm i -g @anthropic-ai/claude-code";

/** An image attached to a prompt: its type and base64 data. */
export interface PromptImage {
  readonly mediaType: string;
  readonly data: string;
}

export interface NewSessionOptions {
  readonly cwd: string;
  readonly model?: string;
  readonly permissionMode?: PermissionMode;
  /** Continue this past session (`claude --resume`). */
  readonly resumeSessionId?: string;
  /** Start from this text as the first prompt (e.g. an approved plan). */
  readonly initialPrompt?: string;
  /**
   * Run in a new git worktree of `cwd`'s repository (issue 37): `<repo>/.claude/worktrees/<name>` on
   * a new branch `worktree-<name>`, the name a slug of `initialPrompt` or of a short id.
   */
  readonly newWorktree?: boolean;
}

/** What the person answers to a permission request (incl. AskUserQuestion / ExitPlanMode). */
export type PermissionAnswer =
  | {
      readonly behavior: "allow";
      /** Rewritten input: AskUserQuestion answers, an edited plan. Default: the original input. */
      readonly updatedInput?: JsonObject;
      /** "Allow for this session": rules the CLI should remember. */
      readonly updatedPermissions?: readonly PermissionUpdate[];
      /**
       * "session": Baton keeps the request's `allowRules` as session rules, and the CLI remembers
       * its own suggestions for the session (when no updatedPermissions); "project": Baton keeps
       * `allowRules` as rules of the session's project folder ("Always allow in this project").
       */
      readonly scope?: "once" | "session" | "project";
      /** AskUserQuestion: the answer per question text; a multi-select answer as a list (sent comma-joined). */
      readonly answers?: { readonly [question: string]: string | readonly string[] };
      /** ExitPlanMode: the plan as the person edited it. */
      readonly plan?: string;
      /** ExitPlanMode "approve and clear context": the plan continues in a fresh session (a new tab). */
      readonly clearContext?: boolean;
    }
  | { readonly behavior: "deny"; readonly message: string; readonly interrupt?: boolean };

export interface PendingPermission {
  readonly requestId: string;
  readonly toolName: string;
  readonly toolUseId: string;
  readonly agentId?: string;
  readonly input: JsonObject;
  readonly description?: string;
  readonly suggestions?: readonly PermissionUpdate[];
  /** Only a person may answer it (CLI 2.1.332 `requires_user_interaction`). */
  readonly requiresUserInteraction?: boolean;
  /**
   * The rule(s) "Allow for this session" and "Always allow in this project" add, in Claude
   * Code's syntax (`Bash(pnpm test:*)`); absent when no rule would be sensible.
   */
  readonly allowRules?: readonly string[];
  /** ExitPlanMode without `input.plan`: the plan from its plan file, or why that could not be read. */
  readonly planFromFile?: string;
  readonly planFileProblem?: string;
  /** When Baton began waiting on the person (ISO time): the "Needs you" queue lists the oldest first. */
  readonly askedAt?: string;
}

export interface SessionInfo {
  readonly slashCommands: readonly string[];
  readonly models: readonly { readonly value: string; readonly displayName: string }[];
  readonly agents: readonly string[];
}

/**
 * A batch of changes to one tab's transcript: the main side sends at most one per tab every 50 ms
 * (DeltaPublisher). Blocks are normalised: a block's nested blocks (subagent records) are listed
 * by id in `children`.
 */
export interface TranscriptDelta {
  readonly tabId: string;
  /** Transcript fields other than blocks, when they changed. */
  readonly meta?: Omit<Transcript, "blocks">;
  /** Blocks added or changed, with nested blocks replaced by their ids. */
  readonly upserts: readonly NormalizedBlock[];
  /** New ordered child ids, by parent ("" = top level), for every parent whose list changed. */
  readonly children: { readonly [parentId: string]: readonly string[] };
  /** Permission requests now waiting for an answer in this tab (full list when it changed). */
  readonly pending?: readonly PendingPermission[];
  /** Set on the first delta of a tab and after a reset: the receiver drops what it had. */
  readonly reset?: boolean;
}

/** A Block whose `call.subagent.blocks` is empty; the nested ids are in `TranscriptDelta.children[block.id]`. */
export type NormalizedBlock = Block;

export interface LogEntry {
  readonly time: string;
  readonly level: "debug" | "info" | "warning" | "error";
  /** "cli-stderr", "protocol", "baton". */
  readonly source: string;
  readonly message: string;
  readonly tabId?: string;
  readonly fields?: JsonObject;
}

/** One preset in force, as the Rules view lists it. */
export interface PresetInfo {
  readonly name: string;
  readonly character: PresetCharacter;
  readonly description: string;
  /** The Bash commands it may run (its exec patterns, as written: `go test|vet`). */
  readonly exec: readonly string[];
  /** The npm commands its pnpm patterns give it (src/main/policy/npmCommands.ts), ready to show. */
  readonly npm: readonly string[];
  /** What is refused for it whatever its commands, and why: the presets' refused list, then npm's own rules. */
  readonly refused: readonly RefusalInfo[];
  /** `none`, or `write-root`: inside the session's folder or its worktree. */
  readonly write: "none" | "write-root";
  /** Hosts its commands may reach (`["*"]`: any host; empty: none). */
  readonly network: readonly string[];
}

/** A command refused and why, as the Rules view shows it. */
export interface RefusalInfo {
  /** What is refused, short enough to show (a long pattern's alternatives cut, ending in `…`). */
  readonly what: string;
  /** The refused list's pattern in full; absent for a rule no pattern can say. */
  readonly pattern?: string;
  readonly reason: string;
}

/** Orchestration mode, the presets in force and the person's rules (issue 22). */
export interface PolicyInfo {
  /** On: sessions started from now on get the presets and their sandboxes. */
  readonly orchestration: boolean;
  /** `built-in`, or the presets file's path. */
  readonly presetsSource: string;
  /** Why the presets file is not in force (the built-ins are then). */
  readonly presetsProblem?: string;
  readonly presets: readonly PresetInfo[];
  /** Every rule in force: each session's, then the stored ones. */
  readonly rules: readonly PermissionRule[];
  /** Why the rules file's rules are not in force. */
  readonly rulesProblem?: string;
  /** Why Baton does not read its settings file (not the person's alone); its defaults are in force. */
  readonly settingsProblem?: string;
  /** What holds preset agents' Bash commands (issue 31). */
  readonly sandbox: SandboxInfo;
}

/** What holds preset agents' Bash commands in orchestration mode (issue 31). */
export interface SandboxInfo {
  /** `os`: the OS sandbox; `policy-only`: the person chose the policy's reading alone; `unavailable`: none can run, so preset agents' Bash is refused. */
  readonly state: "os" | "policy-only" | "unavailable";
  /** One line for the person: what runs, or what to install. */
  readonly message: string;
  /** Packages to install for the sandbox, when that is what is missing. */
  readonly missing: readonly string[];
}

/** A rule the person adds (Rules view). `tabId` places it: a session rule is that tab's session's, a project rule its folder's. */
export interface NewRuleRequest {
  readonly behavior: RuleBehavior;
  readonly rule: string;
  readonly scope: RuleScope;
  readonly tabId?: string;
}

/** What names a rule for deleting it: its fields as `PolicyInfo.rules` lists them. */
export type RuleKey = Pick<PermissionRule, "behavior" | "rule" | "scope" | "scopeKey">;

export type { BatonApi, MethodArgs, MethodResult, SubscriptionKey, SubscriptionPayload } from "./apiContract.js";
export { BatonMethodNames, BatonSubscriptions, IpcChannels, type BatonMethodName, type SubscriptionName, type SubscriptionTopic } from "./apiNames.js";

/** Web mode: what the page sends over the WebSocket (`/ws`). A keyed subscription carries its key under the key's name (`tabId`). */
export type WsClientMessage =
  | { readonly type: "call"; readonly id: number; readonly method: BatonMethodName; readonly args: readonly unknown[] }
  | WsSubscribeMessage
  | { readonly type: "unsubscribe"; readonly sub: string };

export type WsSubscribeMessage = {
  [S in SubscriptionName]: { readonly type: "subscribe"; readonly sub: string; readonly topic: (typeof BatonSubscriptions)[S]["topic"] } & WsKeyField<S>;
}[SubscriptionName];
type WsKeyField<S extends SubscriptionName> = (typeof BatonSubscriptions)[S] extends { readonly key: infer K extends string } ? { readonly [F in K]: SubscriptionKey<S> } : unknown;

/** Web mode: what the server sends back. `event.data` is a TranscriptDelta, TabInfo[], LogEntry or PolicyInfo by topic. */
export type WsServerMessage =
  | { readonly type: "result"; readonly id: number; readonly result: Result<unknown> }
  | { readonly type: "event"; readonly sub: string; readonly data: unknown }
  | { readonly type: "error"; readonly error: ApiError };
