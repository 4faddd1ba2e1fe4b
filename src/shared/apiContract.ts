// The API contract: one table of every BatonApi method (its arguments' names and schemas, its
// result's type) and every subscription (its key, what it sends). Everything else is derived
// from it: the BatonApi type, the main side's argument checks (core/validators.ts) and the
// BatonService's typed handlers, the IPC channels, the preload and both renderer transports (which
// loop over apiNames.ts, the same names without zod). A method in one place only fails the
// typecheck: the table must name exactly apiNames' methods, the service a handler for each.

import { z } from "zod";
import type {
  ClaudeStatus,
  HistoryFolder,
  LogEntry,
  NewRuleRequest,
  NewSessionOptions,
  PermissionAnswer,
  PolicyInfo,
  PromptImage,
  Result,
  RuleKey,
  SearchHit,
  SessionFind,
  SessionInfo,
  SessionSummary,
  TabInfo,
  TranscriptDelta,
  Unsubscribe,
} from "./api.js";
import { either, fields, flag, integer, jsonObject, listOf, MaxText, oneOf, record, shapeOf, strictFields, text, variants, within } from "./apiChecks.js";
import type { BatonMethodName, KeyedSubscription, SubscriptionName } from "./apiNames.js";
import type { EscalationReply } from "./escalation.js";
import type { PermissionRule } from "./policy.js";
import type { JsonObject, PermissionMode, PermissionUpdate } from "./protocol/messages.js";
import type { Block } from "./transcript.js";
import type { ExportChoices, ExportedFile } from "./export/exportTypes.js";
import type { RewindOutcome, RewindPreview } from "./fileRewind.js";
import type { WorktreeListing, WorktreeMerge, WorktreeOpened, WorktreeOpenTarget, WorktreeRemoval } from "./worktrees.js";

// ---- The arguments' schemas ----

const Id = text({ min: 1, max: 200, pattern: /^[A-Za-z0-9._:-]+$/ });
/** A session id, never a path: openSession must not become "read any file". */
const SessionId = text({ min: 1, max: 200, pattern: /^[A-Za-z0-9][A-Za-z0-9_-]*$/ });
/** A project folder's name (the CLI's encoded cwd), never a path, `.` or `..`. */
const ProjectFolder = text({ min: 1, max: 255, pattern: /^(?!\.\.?$)[A-Za-z0-9._-]+$/ });
const Mode = within<PermissionMode>()(oneOf(["default", "acceptEdits", "bypassPermissions", "plan", "dontAsk", "auto"]));
const ModelName = text({ min: 1, max: 200, pattern: /^[A-Za-z0-9._:@\[\]\/-]+$/ });
const AbsolutePath = text({ min: 1, max: 4096, pattern: /^(\/|[A-Za-z]:[\\/])/ });
/** A folder typed by the person: absolute or home-relative (`~/…`); null forgets a saved one. */
const FolderOrNull = text({ min: 1, max: 4096 })
  .regex(/^(~([\\/]|$)|\/|[A-Za-z]:[\\/])/, "must be an absolute path (or start with ~/)")
  .nullable();
const PromptText = text({ min: 1, max: MaxText });

const Image = within<PromptImage>()(fields({ mediaType: oneOf(["image/png", "image/jpeg", "image/gif", "image/webp"]), data: text({ min: 1, max: 30_000_000, pattern: /^[A-Za-z0-9+/=\s]+$/ }) }));

const PermissionUpdateSchema = shapeOf<PermissionUpdate>()(
  fields(
    {
      type: oneOf(["addRules", "replaceRules", "removeRules", "setMode", "addDirectories", "removeDirectories"]),
      destination: oneOf(["userSettings", "projectSettings", "localSettings", "session", "cliArg"]),
    },
    {
      rules: listOf(fields({ toolName: text({ min: 1, max: 200 }) }, { ruleContent: text({ max: 10_000 }) }), 100),
      behavior: oneOf(["allow", "deny", "ask"]),
      mode: Mode,
      directories: listOf(AbsolutePath, 100),
    },
  ),
);

const Answer = shapeOf<PermissionAnswer>()(
  variants("behavior", [
    strictFields(
      { behavior: z.literal("allow") },
      {
        updatedInput: jsonObject<JsonObject>(),
        updatedPermissions: listOf(PermissionUpdateSchema, 100),
        scope: oneOf(["once", "session", "project"]),
        answers: record(either(text({ max: 100_000 }), listOf(text({ max: 10_000 }), 100)), 50),
        plan: text({ max: MaxText }),
        clearContext: flag,
      },
    ),
    strictFields({ behavior: z.literal("deny"), message: text({ max: 100_000 }) }, { interrupt: flag }),
  ]),
);

const Reply = shapeOf<EscalationReply>()(
  variants("kind", [
    strictFields({ kind: z.literal("answer"), text: text({ min: 1, max: 100_000 }) }),
    strictFields({ kind: z.literal("approve") }, { editedPlan: text({ min: 1, max: MaxText }) }),
    strictFields({ kind: z.literal("reject"), feedback: text({ min: 1, max: 100_000 }) }),
  ]),
);

const NewSession = shapeOf<NewSessionOptions>()(
  fields({ cwd: AbsolutePath }, { model: ModelName, permissionMode: Mode, resumeSessionId: SessionId, initialPrompt: PromptText, newWorktree: flag }),
);

const ExportChoicesSchema = shapeOf<ExportChoices>()(strictFields({ format: oneOf(["md", "html"]), toolOutputs: flag, thinking: flag }));

const Behavior = oneOf(["allow", "ask", "deny"]);
const Scope = oneOf(["session", "project", "everywhere"]);
/** Claude Code's rule syntax is checked where the rule is kept (ruleSyntax.ts), with an error that says what is wrong. */
const RuleText = text({ min: 1, max: 10_000 });
const NewRule = shapeOf<NewRuleRequest>()(fields({ behavior: Behavior, rule: RuleText, scope: Scope }, { tabId: Id }));
const RuleKeySchema = shapeOf<RuleKey>()(fields({ behavior: Behavior, rule: RuleText, scope: Scope }, { scopeKey: text({ min: 1, max: 4096 }) }));

// ---- The table ----

interface Arg<S extends z.ZodType = z.ZodType> {
  /** What a refusal calls it: "tabId must not be empty". */
  readonly name: string;
  readonly schema: S;
  /** May be left out (only at the end). */
  readonly optional: boolean;
}
const arg = <S extends z.ZodType>(name: string, schema: S) => ({ name, schema, optional: false }) as const;
const optional = <S extends z.ZodType>(name: string, schema: S) => ({ name, schema, optional: true }) as const;

declare const resultType: unique symbol;
/** The type a method resolves to, or a subscription sends: a name for the compiler, nothing at run time. */
interface Returns<T> {
  readonly [resultType]: T;
}
const returns = <T>() => ({}) as Returns<T>;

interface MethodSpec {
  readonly args: readonly Arg[];
  readonly result: Returns<unknown>;
}
const method = <const A extends readonly Arg[], R>(args: A, result: Returns<R>) => ({ args, result });

/** Every method of BatonApi; each resolves to a Result (nothing throws across the boundary). */
export const ApiMethods = {
  listTabs: method([], returns<readonly TabInfo[]>()),
  listSessions: method([], returns<readonly SessionSummary[]>()),
  searchHistory: method([arg("query", text({ min: 1, max: 1000 })), optional("limit", integer(1, 500))], returns<readonly SearchHit[]>()),
  /**
   * The hits of `query` inside a tab's session opened from history, in transcript order, each with
   * its block and the subagent cards around it (their sidechains are loaded into the tab). Fails
   * with "not_restored" for a live tab, "search_unavailable" without an index, "bad_query" for a
   * query without words.
   */
  findInSession: method([arg("tabId", Id), arg("query", text({ min: 1, max: 1000 }))], returns<SessionFind>()),
  /**
   * Restore a past session into a tab (or focus the tab that has it). A session is its project
   * folder and id: `project` (a hit's or a listed session's) picks it when two folders hold the same
   * id; without it such an id fails with "ambiguous", naming both.
   */
  openSession: method([arg("sessionId", SessionId), optional("project", ProjectFolder)], returns<TabInfo>()),
  /** Lazily load a subagent's full nested blocks from its sidechain (restored sessions, and live ones for what the stream left out). */
  loadSubagentBlocks: method([arg("tabId", Id), arg("toolUseId", Id)], returns<readonly Block[]>()),
  /**
   * The tab's session as one Markdown or HTML file (shared/export), from its history file with
   * every subagent's steps; the page saves it. Fails with "not_found" when the session has no file yet.
   */
  exportSession: method([arg("tabId", Id), arg("choices", ExportChoicesSchema)], returns<ExportedFile>()),
  newSession: method([arg("options", NewSession)], returns<TabInfo>()),
  /** The git repository `dir` is in (its main worktree's folder), or null: "New session" offers a new worktree only in one. */
  repositoryOf: method([arg("dir", AbsolutePath)], returns<string | null>()),
  /**
   * A new live tab that continues the tab's session from just before one of its prompts
   * (`promptUuid`, the prompt's block id): the turns before it, then `text` as its first prompt
   * (none: the tab waits for one). The original session is not changed. Fails "not_found" when the
   * session's file does not hold that prompt. `inNewWorktree`: the fork runs in a new worktree made
   * from the commit of the checkout the session ran in (a fork of a worktree session need not share its folder).
   */
  forkSession: method([arg("tabId", Id), arg("promptUuid", Id), optional("text", PromptText), optional("inNewWorktree", flag)], returns<TabInfo>()),
  closeTab: method([arg("tabId", Id)], returns<void>()),
  sendPrompt: method([arg("tabId", Id), arg("text", PromptText), optional("images", listOf(Image, 20))], returns<void>()),
  interrupt: method([arg("tabId", Id)], returns<void>()),
  setPermissionMode: method([arg("tabId", Id), arg("mode", Mode)], returns<void>()),
  setModel: method([arg("tabId", Id), arg("model", ModelName)], returns<void>()),
  /**
   * What rewinding a live tab's files to just before one of its prompts (`promptUuid`, the prompt's
   * block id) would change: the CLI's dry run, with each file's content now and then for the diff.
   * A refusal (no checkpoint) is a preview with `canRewind` false and the CLI's reason.
   */
  previewRewind: method([arg("tabId", Id), arg("promptUuid", Id)], returns<RewindPreview>()),
  /** Rewinds a live tab's files to just before that prompt; the transcript marks it. A refusal carries the CLI's reason. */
  applyRewind: method([arg("tabId", Id), arg("promptUuid", Id)], returns<RewindOutcome>()),
  answerPermission: method([arg("tabId", Id), arg("requestId", Id), arg("answer", Answer)], returns<void>()),
  /**
   * The person answers a subagent's open question or reviews its plan (issue 24), wherever it waits
   * now. Fails with "conflict" when it was already settled (the first answer wins; the message says
   * by whom) and "not_found" when the tab has no such escalation.
   */
  answerEscalation: method([arg("tabId", Id), arg("escalationId", Id), arg("reply", Reply)], returns<void>()),
  getSessionInfo: method([arg("tabId", Id)], returns<SessionInfo>()),
  /** Electron: a native folder picker; web mode: null (the renderer asks for a path). */
  chooseDirectory: method([], returns<string | null>()),
  /** Electron: the window to the front, restored and focused (a notification was clicked); web mode: nothing (the page focuses itself). */
  showWindow: method([], returns<void>()),
  getHistoryFolder: method([], returns<HistoryFolder>()),
  /**
   * Saves `dir` (absolute, or `~/…`) as the history folder and lists sessions from it from now on;
   * null forgets the saved folder. Fails with "not_found" when the folder does not exist.
   */
  setHistoryFolder: method([arg("dir", FolderOrNull)], returns<HistoryFolder>()),
  /** Whether `claude` was found when Baton started; fails with "unavailable" when whoever built the core did not say. */
  getClaudeStatus: method([], returns<ClaudeStatus>()),
  getPolicy: method([], returns<PolicyInfo>()),
  /** Orchestration mode for sessions started from now on (saved in the settings file). */
  setOrchestration: method([arg("on", flag)], returns<PolicyInfo>()),
  /** "Policy check only": preset agents' commands run without the OS sandbox, for sessions started from now on (saved in the settings file). */
  setPolicyCheckOnly: method([arg("on", flag)], returns<PolicyInfo>()),
  /** Fails with "invalid_argument" and the syntax error for a rule Claude Code's syntax does not allow. */
  addRule: method([arg("rule", NewRule)], returns<PermissionRule>()),
  /** True when the rule was there. */
  deleteRule: method([arg("key", RuleKeySchema)], returns<boolean>()),
  /** Puts the built-in presets back in the presets file and in force. */
  resetPresets: method([], returns<PolicyInfo>()),
  /** The worktrees of the tab's repository (its cwd's), with the agents that made them (issue 25). */
  listWorktrees: method([arg("tabId", Id)], returns<WorktreeListing>()),
  /** A worktree's diff against its base, as text. */
  worktreeDiff: method([arg("tabId", Id), arg("path", AbsolutePath)], returns<string>()),
  /** Merges a worktree into its base branch; a conflict is a result (merge aborted), never forced. */
  mergeWorktree: method([arg("tabId", Id), arg("path", AbsolutePath)], returns<WorktreeMerge>()),
  /**
   * Removes a worktree. A dirty or unmerged one fails with "worktree_dirty" / "worktree_unmerged"
   * (files in the message) unless `rescue`: then its changes go to a `baton/rescue/…` branch first.
   */
  removeWorktree: method([arg("tabId", Id), arg("path", AbsolutePath), arg("rescue", flag)], returns<WorktreeRemoval>()),
  /**
   * Opens a worktree in the file manager or a terminal on the machine Baton runs on (web mode
   * serves this machine's browser only). Fails with "worktree_open_failed" naming the programs
   * tried when none could start.
   */
  openWorktree: method([arg("tabId", Id), arg("path", AbsolutePath), arg("where", within<WorktreeOpenTarget>()(oneOf(["folder", "terminal"])))], returns<WorktreeOpened>()),
} satisfies { readonly [M in BatonMethodName]: MethodSpec };

type SubscriptionSpec<S extends SubscriptionName> = S extends KeyedSubscription
  ? { readonly key: z.ZodType<string>; readonly sends: Returns<unknown> }
  : { readonly key?: never; readonly sends: Returns<unknown> };

/**
 * Every subscription of BatonApi. Each sends what is now first (as both transports do: the main
 * side's BatonService opens them), then every change, until its unsubscribe function is called.
 */
export const ApiSubscriptions = {
  /** A tab's deltas; the first is a full `reset`. */
  onTranscriptDelta: { key: Id, sends: returns<TranscriptDelta>() },
  /** The tab list now, then on every change. */
  onTabsChanged: { sends: returns<readonly TabInfo[]>() },
  /** The Console: the entries it holds (its ring), then each new one. */
  onLog: { sends: returns<LogEntry>() },
  /** The policy now (nothing for a Baton without one), then every change of mode, presets or rules, from any window or prompt. */
  onPolicyChanged: { sends: returns<PolicyInfo>() },
} satisfies { readonly [S in SubscriptionName]: SubscriptionSpec<S> };

// ---- What is derived from it ----

type Methods = typeof ApiMethods;
type Subscriptions = typeof ApiSubscriptions;

type ArgValues<A extends readonly Arg[]> = A extends readonly [infer H extends Arg, ...infer Rest extends readonly Arg[]]
  ? H["optional"] extends true
    ? [z.output<H["schema"]>?, ...ArgValues<Rest>]
    : [z.output<H["schema"]>, ...ArgValues<Rest>]
  : [];

/** A method's arguments, as its schemas let them through. */
export type MethodArgs<M extends BatonMethodName> = ArgValues<Methods[M]["args"]>;
export type MethodResult<M extends BatonMethodName> = Methods[M]["result"] extends Returns<infer R> ? R : never;
export type SubscriptionKey<S extends SubscriptionName> = Subscriptions[S] extends { readonly key: z.ZodType<infer K> } ? K : undefined;
export type SubscriptionPayload<S extends SubscriptionName> = Subscriptions[S]["sends"] extends Returns<infer P> ? P : never;

type ApiMethodsOf = { [M in keyof Methods]: (...args: MethodArgs<M>) => Promise<Result<MethodResult<M>>> };
type ApiSubscriptionsOf = {
  [S in keyof Subscriptions]: S extends KeyedSubscription
    ? (key: SubscriptionKey<S>, listener: (payload: SubscriptionPayload<S>) => void) => Unsubscribe
    : (listener: (payload: SubscriptionPayload<S>) => void) => Unsubscribe;
};

/**
 * The one API the renderer talks to (one typed object, no generic invoke: docs/architecture.md,
 * "Process boundaries"), served by
 * the Electron preload (IPC) and by web mode (WebSocket) alike; the renderer does not know which.
 */
export interface BatonApi extends ApiMethodsOf, ApiSubscriptionsOf {}

/** The main side's implementation of each method: it gets the arguments as validated. */
export type MethodHandlers = { readonly [M in BatonMethodName]: (...args: MethodArgs<M>) => MethodResult<M> | Promise<MethodResult<M>> };
/** The main side's opening of each subscription: it sends what is now, then follows. */
export type SubscriptionHandlers = {
  readonly [S in SubscriptionName]: (key: SubscriptionKey<S>, emit: (payload: SubscriptionPayload<S>) => void) => Unsubscribe;
};
