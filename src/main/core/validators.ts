// Argument validators for every BatonApi method, applied to whatever arrives from the page
// (Electron IPC or web-mode WebSocket) before anything runs. Wrong types, unknown fields, extra
// arguments and oversized values become `invalid_argument`. Pure.

import type { ApiError, BatonMethodName } from "../../shared/api.js";
import { arrayOf, anyOf, bool, int, jsonObject, MaxText, object, oneOf, record, str, type Check } from "../platform/check.js";

const Id = str({ min: 1, max: 200, pattern: /^[A-Za-z0-9._:-]+$/ });
/** A session id, never a path: openSession must not become "read any file". */
const SessionId = str({ min: 1, max: 200, pattern: /^[A-Za-z0-9][A-Za-z0-9_-]*$/ });
const PermissionModes = ["default", "acceptEdits", "bypassPermissions", "plan", "dontAsk", "auto"];
const Mode = oneOf(PermissionModes);
const ModelName = str({ min: 1, max: 200, pattern: /^[A-Za-z0-9._:@\[\]\/-]+$/ });
const AbsolutePath = str({ min: 1, max: 4096, pattern: /^(\/|[A-Za-z]:[\\/])/ });
/** A folder typed by the person: absolute or home-relative (`~/…`); null forgets a saved one. */
const FolderOrNull: Check = (v, path) => {
  if (v === null) return undefined;
  const error = str({ min: 1, max: 4096 })(v, path);
  if (error !== undefined) return error;
  return /^(~([\\/]|$)|\/|[A-Za-z]:[\\/])/.test(v as string) ? undefined : `${path} must be an absolute path (or start with ~/)`;
};

const Image = object({ mediaType: oneOf(["image/png", "image/jpeg", "image/gif", "image/webp"]), data: str({ min: 1, max: 30_000_000, pattern: /^[A-Za-z0-9+/=\s]+$/ }) });

const Rule = object({ toolName: str({ min: 1, max: 200 }) }, { ruleContent: str({ max: 10_000 }) });
const PermissionUpdate = object(
  {
    type: oneOf(["addRules", "replaceRules", "removeRules", "setMode", "addDirectories", "removeDirectories"]),
    destination: oneOf(["userSettings", "projectSettings", "localSettings", "session", "cliArg"]),
  },
  { rules: arrayOf(Rule, 100), behavior: oneOf(["allow", "deny", "ask"]), mode: Mode, directories: arrayOf(AbsolutePath, 100) },
);

const Allow = object(
  { behavior: oneOf(["allow"]) },
  {
    updatedInput: jsonObject(),
    updatedPermissions: arrayOf(PermissionUpdate, 100),
    scope: oneOf(["once", "session", "project"]),
    answers: record(anyOf(str({ max: 100_000 }), arrayOf(str({ max: 10_000 }), 100)), 50),
    plan: str({ max: MaxText }),
    clearContext: bool,
  },
);
const Deny = object({ behavior: oneOf(["deny"]), message: str({ max: 100_000 }) }, { interrupt: bool });
const Answer: Check = (v, path) => {
  const behavior = typeof v === "object" && v !== null ? (v as { behavior?: unknown }).behavior : undefined;
  if (behavior === "allow") return Allow(v, path);
  if (behavior === "deny") return Deny(v, path);
  return `${path}.behavior must be "allow" or "deny"`;
};

const EscalationReply: Check = (v, path) => {
  const kind = typeof v === "object" && v !== null ? (v as { kind?: unknown }).kind : undefined;
  if (kind === "answer") return object({ kind: oneOf(["answer"]), text: str({ min: 1, max: 100_000 }) })(v, path);
  if (kind === "approve") return object({ kind: oneOf(["approve"]) }, { editedPlan: str({ min: 1, max: MaxText }) })(v, path);
  if (kind === "reject") return object({ kind: oneOf(["reject"]), feedback: str({ min: 1, max: 100_000 }) })(v, path);
  return `${path}.kind must be "answer", "approve" or "reject"`;
};

const NewSession = object(
  { cwd: AbsolutePath },
  { model: ModelName, permissionMode: Mode, resumeSessionId: SessionId, initialPrompt: str({ min: 1, max: MaxText }) },
);

const Behavior = oneOf(["allow", "ask", "deny"]);
const RuleScope = oneOf(["session", "project", "everywhere"]);
/** Claude Code's rule syntax is checked where the rule is kept (ruleSyntax.ts), with an error that says what is wrong. */
const RuleText = str({ min: 1, max: 10_000 });
const NewRule = object({ behavior: Behavior, rule: RuleText, scope: RuleScope }, { tabId: Id });
const RuleKey = object({ behavior: Behavior, rule: RuleText, scope: RuleScope }, { scopeKey: str({ min: 1, max: 4096 }) });

interface Spec {
  readonly required: readonly Check[];
  readonly optional?: readonly Check[];
}

const Specs: { readonly [M in BatonMethodName]: Spec } = {
  listTabs: { required: [] },
  listSessions: { required: [] },
  searchHistory: { required: [str({ min: 1, max: 1000 })], optional: [int(1, 500)] },
  openSession: { required: [SessionId] },
  loadSubagentBlocks: { required: [Id, Id] },
  newSession: { required: [NewSession] },
  closeTab: { required: [Id] },
  sendPrompt: { required: [Id, str({ min: 1, max: MaxText })], optional: [arrayOf(Image, 20)] },
  interrupt: { required: [Id] },
  setPermissionMode: { required: [Id, Mode] },
  setModel: { required: [Id, ModelName] },
  answerPermission: { required: [Id, Id, Answer] },
  answerEscalation: { required: [Id, Id, EscalationReply] },
  getSessionInfo: { required: [Id] },
  chooseDirectory: { required: [] },
  getHistoryFolder: { required: [] },
  setHistoryFolder: { required: [FolderOrNull] },
  getPolicy: { required: [] },
  setOrchestration: { required: [bool] },
  setPolicyCheckOnly: { required: [bool] },
  addRule: { required: [NewRule] },
  deleteRule: { required: [RuleKey] },
  resetPresets: { required: [] },
  listWorktrees: { required: [Id] },
  worktreeDiff: { required: [Id, AbsolutePath] },
  mergeWorktree: { required: [Id, AbsolutePath] },
  removeWorktree: { required: [Id, AbsolutePath, bool] },
  openWorktree: { required: [Id, AbsolutePath, oneOf(["folder", "terminal"])] },
};

const ArgNames: { readonly [M in BatonMethodName]: readonly string[] } = {
  listTabs: [],
  listSessions: [],
  searchHistory: ["query", "limit"],
  openSession: ["sessionId"],
  loadSubagentBlocks: ["tabId", "toolUseId"],
  newSession: ["options"],
  closeTab: ["tabId"],
  sendPrompt: ["tabId", "text", "images"],
  interrupt: ["tabId"],
  setPermissionMode: ["tabId", "mode"],
  setModel: ["tabId", "model"],
  answerPermission: ["tabId", "requestId", "answer"],
  answerEscalation: ["tabId", "escalationId", "reply"],
  getSessionInfo: ["tabId"],
  chooseDirectory: [],
  getHistoryFolder: [],
  setHistoryFolder: ["dir"],
  getPolicy: [],
  setOrchestration: ["on"],
  setPolicyCheckOnly: ["on"],
  addRule: ["rule"],
  deleteRule: ["key"],
  resetPresets: [],
  listWorktrees: ["tabId"],
  worktreeDiff: ["tabId", "path"],
  mergeWorktree: ["tabId", "path"],
  removeWorktree: ["tabId", "path", "rescue"],
  openWorktree: ["tabId", "path", "where"],
};

export function isMethodName(name: unknown): name is BatonMethodName {
  return typeof name === "string" && Object.prototype.hasOwnProperty.call(Specs, name);
}

/** The arguments, checked; trailing undefined optionals are dropped. */
export function validateArgs(method: BatonMethodName, args: unknown): { ok: true; args: unknown[] } | { ok: false; error: ApiError } {
  if (!Array.isArray(args)) return invalid(`${method}: arguments must be a list`);
  const spec = Specs[method];
  const names = ArgNames[method];
  const optional = spec.optional ?? [];
  const list = [...args];
  while (list.length > spec.required.length && list[list.length - 1] === undefined) list.pop();
  if (list.length < spec.required.length) return invalid(`${method}: expected ${spec.required.length} argument(s), got ${list.length}`);
  if (list.length > spec.required.length + optional.length) return invalid(`${method}: too many arguments (${list.length})`);
  for (let i = 0; i < list.length; i++) {
    const check = i < spec.required.length ? spec.required[i]! : optional[i - spec.required.length]!;
    if (i >= spec.required.length && list[i] === undefined) continue;
    const error = check(list[i], names[i] ?? `argument ${i + 1}`);
    if (error !== undefined) return invalid(`${method}: ${error}`);
  }
  return { ok: true, args: list };
}

function invalid(message: string): { ok: false; error: ApiError } {
  return { ok: false, error: { code: "invalid_argument", message } };
}
