// The main-process implementation of BatonApi. Every call from the page enters through `call`:
// arguments are validated first, failures come back as Results, nothing throws. The Electron IPC
// bridge and the web-mode WebSocket both talk to this one object.

import type {
  BatonApi,
  BatonMethodName,
  HistoryFolder,
  LogEntry,
  NewRuleRequest,
  NewSessionOptions,
  PermissionAnswer,
  PolicyInfo,
  Result,
  RuleKey,
  TabInfo,
  TranscriptDelta,
  Unsubscribe,
} from "../../shared/api.js";
import type { EscalationReply } from "../../shared/escalation.js";
import type { WorktreeOpenTarget } from "../../shared/worktrees.js";
import type { PermissionMode } from "../../shared/protocol/messages.js";
import { validateArgs } from "./validators.js";
import { AppError, toApiError } from "./appError.js";
import type { PolicyControl } from "./policyControl.js";
import type { SessionManager } from "./sessionManager.js";

export interface BatonServiceOptions {
  /** Electron's folder picker; absent in web mode (answers null). */
  readonly chooseDirectory?: () => Promise<string | null>;
  /** The history folder and its setting (HistoryFolderSetting); absent: fixed by whoever built the core. */
  readonly historyFolder?: {
    info(): Promise<HistoryFolder>;
    change(dir: string | null): Promise<HistoryFolder>;
  };
}

export class BatonService implements BatonApi {
  constructor(
    readonly manager: SessionManager,
    private readonly options: BatonServiceOptions = {},
  ) {}

  /** Validates untrusted arguments, runs the method, and always resolves to a Result. */
  async call(method: BatonMethodName, args: unknown): Promise<Result<unknown>> {
    const checked = validateArgs(method, args);
    if (!checked.ok) return checked;
    try {
      const value = await this.dispatch(method, checked.args);
      return { ok: true, value };
    } catch (error) {
      return { ok: false, error: toApiError(error) };
    }
  }

  private dispatch(method: BatonMethodName, a: readonly unknown[]): Promise<unknown> | unknown {
    const m = this.manager;
    switch (method) {
      case "listTabs":
        return m.listTabs();
      case "listSessions":
        return m.listSessions();
      case "searchHistory":
        return m.searchHistory(a[0] as string, a[1] as number | undefined);
      case "openSession":
        return m.openSession(a[0] as string);
      case "loadSubagentBlocks":
        return m.loadSubagentBlocks(a[0] as string, a[1] as string);
      case "newSession":
        return m.newSession(a[0] as NewSessionOptions);
      case "closeTab":
        return m.closeTab(a[0] as string);
      case "sendPrompt":
        return m.sendPrompt(a[0] as string, a[1] as string, a[2] as { mediaType: string; data: string }[] | undefined);
      case "interrupt":
        return m.interrupt(a[0] as string);
      case "setPermissionMode":
        return m.setPermissionMode(a[0] as string, a[1] as PermissionMode);
      case "setModel":
        return m.setModel(a[0] as string, a[1] as string);
      case "answerPermission":
        return m.answerPermission(a[0] as string, a[1] as string, a[2] as PermissionAnswer);
      case "answerEscalation":
        return m.answerEscalation(a[0] as string, a[1] as string, a[2] as EscalationReply);
      case "getSessionInfo":
        return m.getSessionInfo(a[0] as string);
      case "chooseDirectory":
        return this.options.chooseDirectory ? this.options.chooseDirectory() : null;
      case "getHistoryFolder":
        return this.historyFolder().info();
      case "setHistoryFolder":
        return this.historyFolder().change(a[0] as string | null);
      case "getPolicy":
        return this.policy().info();
      case "setOrchestration":
        return this.policy().setOrchestration(a[0] as boolean);
      case "setPolicyCheckOnly":
        return this.policy().setPolicyCheckOnly(a[0] as boolean);
      case "addRule":
        return this.policy().addRule(a[0] as NewRuleRequest);
      case "deleteRule":
        return this.policy().deleteRule(a[0] as RuleKey);
      case "resetPresets":
        return this.policy().resetPresets();
      case "listWorktrees":
        return m.listWorktrees(a[0] as string);
      case "worktreeDiff":
        return m.worktreeDiff(a[0] as string, a[1] as string);
      case "mergeWorktree":
        return m.mergeWorktree(a[0] as string, a[1] as string);
      case "removeWorktree":
        return m.removeWorktree(a[0] as string, a[1] as string, a[2] as boolean);
      case "openWorktree":
        return m.openWorktree(a[0] as string, a[1] as string, a[2] as WorktreeOpenTarget);
      default:
        // A method added to BatonMethodNames without a case here fails the typecheck.
        return unhandled(method);
    }
  }

  listTabs = () => this.call("listTabs", []) as ReturnType<BatonApi["listTabs"]>;
  listSessions = () => this.call("listSessions", []) as ReturnType<BatonApi["listSessions"]>;
  searchHistory = (query: string, limit?: number) => this.call("searchHistory", [query, limit]) as ReturnType<BatonApi["searchHistory"]>;
  openSession = (sessionId: string) => this.call("openSession", [sessionId]) as ReturnType<BatonApi["openSession"]>;
  loadSubagentBlocks = (tabId: string, toolUseId: string) =>
    this.call("loadSubagentBlocks", [tabId, toolUseId]) as ReturnType<BatonApi["loadSubagentBlocks"]>;
  newSession = (options: NewSessionOptions) => this.call("newSession", [options]) as Promise<Result<TabInfo>>;
  closeTab = (tabId: string) => this.call("closeTab", [tabId]) as Promise<Result<void>>;
  sendPrompt = (tabId: string, text: string, images?: readonly { readonly mediaType: string; readonly data: string }[]) =>
    this.call("sendPrompt", [tabId, text, images]) as Promise<Result<void>>;
  interrupt = (tabId: string) => this.call("interrupt", [tabId]) as Promise<Result<void>>;
  setPermissionMode = (tabId: string, mode: PermissionMode) => this.call("setPermissionMode", [tabId, mode]) as Promise<Result<void>>;
  setModel = (tabId: string, model: string) => this.call("setModel", [tabId, model]) as Promise<Result<void>>;
  answerPermission = (tabId: string, requestId: string, answer: PermissionAnswer) =>
    this.call("answerPermission", [tabId, requestId, answer]) as Promise<Result<void>>;
  answerEscalation = (tabId: string, escalationId: string, reply: EscalationReply) =>
    this.call("answerEscalation", [tabId, escalationId, reply]) as Promise<Result<void>>;
  getSessionInfo = (tabId: string) => this.call("getSessionInfo", [tabId]) as ReturnType<BatonApi["getSessionInfo"]>;
  chooseDirectory = () => this.call("chooseDirectory", []) as ReturnType<BatonApi["chooseDirectory"]>;
  getHistoryFolder = () => this.call("getHistoryFolder", []) as ReturnType<BatonApi["getHistoryFolder"]>;
  setHistoryFolder = (dir: string | null) => this.call("setHistoryFolder", [dir]) as ReturnType<BatonApi["setHistoryFolder"]>;
  getPolicy = () => this.call("getPolicy", []) as ReturnType<BatonApi["getPolicy"]>;
  setOrchestration = (on: boolean) => this.call("setOrchestration", [on]) as ReturnType<BatonApi["setOrchestration"]>;
  setPolicyCheckOnly = (on: boolean) => this.call("setPolicyCheckOnly", [on]) as ReturnType<BatonApi["setPolicyCheckOnly"]>;
  addRule = (rule: NewRuleRequest) => this.call("addRule", [rule]) as ReturnType<BatonApi["addRule"]>;
  deleteRule = (key: RuleKey) => this.call("deleteRule", [key]) as ReturnType<BatonApi["deleteRule"]>;
  resetPresets = () => this.call("resetPresets", []) as ReturnType<BatonApi["resetPresets"]>;
  listWorktrees = (tabId: string) => this.call("listWorktrees", [tabId]) as ReturnType<BatonApi["listWorktrees"]>;
  worktreeDiff = (tabId: string, path: string) => this.call("worktreeDiff", [tabId, path]) as ReturnType<BatonApi["worktreeDiff"]>;
  mergeWorktree = (tabId: string, path: string) => this.call("mergeWorktree", [tabId, path]) as ReturnType<BatonApi["mergeWorktree"]>;
  removeWorktree = (tabId: string, path: string, rescue: boolean) =>
    this.call("removeWorktree", [tabId, path, rescue]) as ReturnType<BatonApi["removeWorktree"]>;
  openWorktree = (tabId: string, path: string, where: WorktreeOpenTarget) =>
    this.call("openWorktree", [tabId, path, where]) as ReturnType<BatonApi["openWorktree"]>;

  private historyFolder(): NonNullable<BatonServiceOptions["historyFolder"]> {
    if (this.options.historyFolder === undefined) throw new AppError("unavailable", "This Baton's history folder is fixed by whoever started it");
    return this.options.historyFolder;
  }

  private policy(): PolicyControl {
    if (this.manager.policy === undefined) throw new AppError("unavailable", "This Baton runs without a policy (no presets, no rules)");
    return this.manager.policy;
  }

  onTranscriptDelta(tabId: string, listener: (delta: TranscriptDelta) => void): Unsubscribe {
    return this.manager.subscribeTranscript(tabId, listener);
  }
  onTabsChanged(listener: (tabs: readonly TabInfo[]) => void): Unsubscribe {
    return this.manager.onTabsChanged(listener);
  }
  onLog(listener: (entry: LogEntry) => void): Unsubscribe {
    return this.manager.onLog(listener);
  }
  /** Nothing ever changes for a Baton without a policy. */
  onPolicyChanged(listener: (policy: PolicyInfo) => void): Unsubscribe {
    return this.manager.policy?.onChanged(listener) ?? (() => undefined);
  }
}

function unhandled(method: never): never {
  throw new Error(`no handler for ${String(method)}`);
}
