// The main-process implementation of BatonApi (src/shared/apiContract.ts). Every call from the page
// enters through `call`: its arguments are checked against the contract first, then passed, typed,
// to the method's handler; failures come back as Results, nothing throws. Every subscription
// enters through `subscribe`, which sends what is now before following. The Electron IPC bridge
// and the web-mode WebSocket both talk to this one object; in process (tests, commands) it is a
// BatonApi itself, validated the same way.

import type { ClaudeStatus, HistoryFolder, Result, Unsubscribe } from "../../shared/api.js";
import type { MethodArgs, MethodHandlers, MethodResult, SubscriptionHandlers, SubscriptionPayload, BatonApi } from "../../shared/apiContract.js";
import { apiOver } from "../../shared/apiFacade.js";
import type { BatonMethodName, SubscriptionName } from "../../shared/apiNames.js";
import { validateArgs, validateKey } from "./validators.js";
import { AppError, toApiError } from "./appError.js";
import type { PolicyControl } from "./policyControl.js";
import type { SessionManager } from "./sessionManager.js";
import { repositoryRoot } from "../worktrees/index.js";

export interface BatonServiceOptions {
  /** Electron's folder picker; absent in web mode (answers null). */
  readonly chooseDirectory?: () => Promise<string | null>;
  /** Electron: brings the window to the front; absent in web mode (does nothing). */
  readonly showWindow?: () => void;
  /** The history folder and its setting (HistoryFolderSetting); absent: fixed by whoever built the core. */
  readonly historyFolder?: {
    info(): Promise<HistoryFolder>;
    change(dir: string | null): Promise<HistoryFolder>;
  };
  /** What the CLI lookup found at start (createAppCore); absent: not said (the window shows no banner). */
  readonly claude?: ClaudeStatus;
}

/** Its BatonApi members are made from the contract's names in the constructor (apiOver). */
export interface BatonService extends BatonApi {}

export class BatonService {
  /** One per method of the contract: a method without one fails the typecheck. */
  private readonly handlers: MethodHandlers;
  private readonly openers: SubscriptionHandlers;

  constructor(
    readonly manager: SessionManager,
    private readonly options: BatonServiceOptions = {},
  ) {
    const m = manager;
    this.handlers = {
      listTabs: () => m.listTabs(),
      listSessions: () => m.listSessions(),
      searchHistory: (query, limit) => m.searchHistory(query, limit),
      findInSession: (tabId, query) => m.findInSession(tabId, query),
      openSession: (sessionId, project) => m.openSession(sessionId, project),
      loadSubagentBlocks: (tabId, toolUseId) => m.loadSubagentBlocks(tabId, toolUseId),
      exportSession: (tabId, choices) => m.exportSession(tabId, choices),
      newSession: (options) => m.newSession(options),
      repositoryOf: async (dir) => (await repositoryRoot(dir)) ?? null,
      forkSession: (tabId, promptUuid, text, inNewWorktree) => m.forkSession(tabId, promptUuid, text, inNewWorktree),
      closeTab: (tabId) => m.closeTab(tabId),
      sendPrompt: (tabId, text, images) => m.sendPrompt(tabId, text, images),
      interrupt: (tabId) => m.interrupt(tabId),
      setPermissionMode: (tabId, mode) => m.setPermissionMode(tabId, mode),
      setModel: (tabId, model) => m.setModel(tabId, model),
      previewRewind: (tabId, promptUuid) => m.previewRewind(tabId, promptUuid),
      applyRewind: (tabId, promptUuid) => m.applyRewind(tabId, promptUuid),
      answerPermission: (tabId, requestId, answer) => m.answerPermission(tabId, requestId, answer),
      answerEscalation: (tabId, escalationId, reply) => m.answerEscalation(tabId, escalationId, reply),
      getSessionInfo: (tabId) => m.getSessionInfo(tabId),
      chooseDirectory: () => (this.options.chooseDirectory ? this.options.chooseDirectory() : null),
      showWindow: () => this.options.showWindow?.(),
      getHistoryFolder: () => this.historyFolder().info(),
      setHistoryFolder: (dir) => this.historyFolder().change(dir),
      getClaudeStatus: () => {
        if (this.options.claude === undefined) throw new AppError("unavailable", "This Baton was started with a CLI it did not look for");
        return this.options.claude;
      },
      getPolicy: () => this.policy().info(),
      setOrchestration: (on) => this.policy().setOrchestration(on),
      setPolicyCheckOnly: (on) => this.policy().setPolicyCheckOnly(on),
      addRule: (rule) => this.policy().addRule(rule),
      deleteRule: (key) => this.policy().deleteRule(key),
      resetPresets: () => this.policy().resetPresets(),
      listWorktrees: (tabId) => m.worktrees.list(tabId),
      worktreeDiff: (tabId, path) => m.worktrees.diff(tabId, path),
      mergeWorktree: (tabId, path) => m.worktrees.merge(tabId, path),
      removeWorktree: (tabId, path, rescue) => m.worktrees.remove(tabId, path, rescue),
      openWorktree: (tabId, path, where) => m.worktrees.open(tabId, path, where),
    };
    this.openers = {
      // The publisher sends a new subscriber a full reset first.
      onTranscriptDelta: (tabId, emit) => m.subscribeTranscript(tabId, emit),
      onTabsChanged: (_none, emit) => {
        const stop = m.onTabsChanged(emit);
        emit(m.listTabs());
        return stop;
      },
      // Replays the Console's ring first.
      onLog: (_none, emit) => m.onLog(emit),
      // Nothing ever changes for a Baton without a policy.
      onPolicyChanged: (_none, emit) => {
        const policy = m.policy;
        if (policy === undefined) return () => undefined;
        const stop = policy.onChanged(emit);
        emit(policy.info());
        return stop;
      },
    };
    Object.assign(
      this,
      apiOver({
        call: (method, args) => this.call(method, args),
        subscribe: (name, key, listener) => {
          const opened = this.subscribe(name, key, listener);
          // In process a bad key is the caller's bug, not the page's input.
          if (!opened.ok) throw new AppError(opened.error.code, opened.error.message);
          return opened.value;
        },
      }),
    );
  }

  /** Validates untrusted arguments, runs the method, and always resolves to a Result. */
  call<M extends BatonMethodName>(method: M, args: unknown): Promise<Result<MethodResult<M>>> {
    const checked = validateArgs(method, args);
    if (!checked.ok) return Promise.resolve(checked);
    return this.run(method, checked.args);
  }

  private async run<M extends BatonMethodName>(method: M, args: MethodArgs<M>): Promise<Result<MethodResult<M>>> {
    try {
      return { ok: true, value: await this.handlers[method](...args) };
    } catch (error) {
      return { ok: false, error: toApiError(error) };
    }
  }

  /** Checks an untrusted key, opens the subscription: what is now goes to `emit` at once, then every change. */
  subscribe<S extends SubscriptionName>(name: S, key: unknown, emit: (payload: SubscriptionPayload<S>) => void): Result<Unsubscribe> {
    const checked = validateKey(name, key);
    if (!checked.ok) return checked;
    return { ok: true, value: this.openers[name](checked.key, emit) };
  }

  private historyFolder(): NonNullable<BatonServiceOptions["historyFolder"]> {
    if (this.options.historyFolder === undefined) throw new AppError("unavailable", "This Baton's history folder is fixed by whoever started it");
    return this.options.historyFolder;
  }

  private policy(): PolicyControl {
    if (this.manager.policy === undefined) throw new AppError("unavailable", "This Baton runs without a policy (no presets, no rules)");
    return this.manager.policy;
  }
}
