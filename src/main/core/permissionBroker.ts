// Puts every permission request in front of a person and waits for the answer. It is the
// ClaudeClient's decider for each live tab. It fails closed (deny) when the tab closes, when no
// UI has been connected for longer than the grace period, and when the app quits — a request is
// never left hanging, and one nobody answered is never allowed.

import type { PendingPermission } from "../../shared/api.js";
import type { PermissionRequestEvent } from "../../shared/events.js";
import type { PermissionDecider, PermissionDecision } from "../cli/permissionGate.js";

interface Waiting {
  readonly tabId: string;
  readonly pending: PendingPermission;
  resolve(decision: PermissionDecision): void;
}

/** How long requests wait with no UI connected before they are denied, unless set. */
export const DefaultPermissionGraceMs = 30_000;

export interface PermissionBrokerOptions {
  /** How long requests may wait with no UI connected before they are denied. */
  readonly graceMs: number;
  /** A tab's pending list changed. */
  readonly onChange: (tabId: string) => void;
  readonly log?: (message: string, fields: Record<string, unknown>) => void;
}

const NoPending: readonly PendingPermission[] = Object.freeze([]);

export class PermissionBroker {
  private readonly waiting = new Map<string, Waiting>();
  /** Cached per-tab lists, so an unchanged list keeps its identity (cheap delta diffing). */
  private readonly lists = new Map<string, readonly PendingPermission[]>();
  private presence = 0;
  private graceTimer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;

  constructor(private readonly options: PermissionBrokerOptions) {}

  /** `allowRulesFor`: the rule(s) the prompt may offer to keep ("Always allow in this project"). */
  deciderFor(tabId: string, allowRulesFor?: (request: PermissionRequestEvent) => readonly string[]): PermissionDecider {
    return (request, signal) => this.ask(tabId, request, signal, request.requiresUserInteraction === true ? undefined : allowRulesFor?.(request));
  }

  pending(tabId: string): readonly PendingPermission[] {
    return this.lists.get(tabId) ?? NoPending;
  }

  /** The waiting request, if `requestId` is waiting in `tabId`. */
  find(tabId: string, requestId: string): PendingPermission | undefined {
    const entry = this.waiting.get(requestId);
    return entry?.tabId === tabId ? entry.pending : undefined;
  }

  /** Answers a waiting request; false when it is not (or no longer) waiting in that tab. */
  answer(tabId: string, requestId: string, decision: PermissionDecision): boolean {
    const entry = this.waiting.get(requestId);
    if (entry === undefined || entry.tabId !== tabId) return false;
    this.settle(requestId, decision);
    return true;
  }

  /** Whether a UI (window, WebSocket) is connected now. */
  get present(): boolean {
    return this.presence > 0;
  }

  /** A UI (window, WebSocket) is connected while the returned function has not been called. */
  acquirePresence(): () => void {
    this.presence++;
    this.stopGrace();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.presence--;
      if (this.presence === 0) this.startGraceIfWaiting();
    };
  }

  denyTab(tabId: string, decidedBy: string, message: string): void {
    for (const [requestId, entry] of [...this.waiting]) {
      if (entry.tabId === tabId) this.settle(requestId, { behavior: "deny", message, decidedBy });
    }
    this.lists.delete(tabId);
  }

  denyAll(decidedBy: string, message: string): void {
    for (const requestId of [...this.waiting.keys()]) this.settle(requestId, { behavior: "deny", message, decidedBy });
  }

  /** Quit: deny everything now and every request that still arrives. */
  close(): void {
    this.closed = true;
    this.stopGrace();
    this.denyAll("shutdown", "Baton is quitting; denied.");
  }

  private ask(tabId: string, request: PermissionRequestEvent, signal: AbortSignal, allowRules?: readonly string[]): Promise<PermissionDecision> {
    if (this.closed) return Promise.resolve({ behavior: "deny", message: "Baton is quitting; denied.", decidedBy: "shutdown" });
    return new Promise((resolve) => {
      const pending: PendingPermission = {
        requestId: request.requestId,
        toolName: request.toolName,
        toolUseId: request.toolUseId,
        input: request.input,
        ...(request.agentId !== undefined ? { agentId: request.agentId } : {}),
        ...(request.description !== undefined ? { description: request.description } : {}),
        ...(request.suggestions !== undefined ? { suggestions: request.suggestions } : {}),
        ...(request.requiresUserInteraction === true ? { requiresUserInteraction: true } : {}),
        ...(allowRules !== undefined && allowRules.length > 0 ? { allowRules } : {}),
        ...(request.planFromFile !== undefined ? { planFromFile: request.planFromFile } : {}),
        ...(request.planFileProblem !== undefined ? { planFileProblem: request.planFileProblem } : {}),
        askedAt: new Date().toISOString(),
      };
      this.waiting.set(request.requestId, { tabId, pending, resolve });
      this.refresh(tabId);
      // The CLI withdrew it, or the client stopped: it is no longer anyone's question.
      signal.addEventListener("abort", () => this.drop(request.requestId), { once: true });
      if (this.presence === 0) this.startGraceIfWaiting();
    });
  }

  private settle(requestId: string, decision: PermissionDecision): void {
    const entry = this.waiting.get(requestId);
    if (entry === undefined) return;
    this.waiting.delete(requestId);
    this.refresh(entry.tabId);
    entry.resolve(decision);
  }

  private drop(requestId: string): void {
    const entry = this.waiting.get(requestId);
    if (entry === undefined) return;
    this.waiting.delete(requestId);
    this.refresh(entry.tabId);
  }

  private refresh(tabId: string): void {
    const list = [...this.waiting.values()].filter((w) => w.tabId === tabId).map((w) => w.pending);
    if (list.length === 0) this.lists.delete(tabId);
    else this.lists.set(tabId, list);
    this.options.onChange(tabId);
  }

  private startGraceIfWaiting(): void {
    if (this.graceTimer !== undefined || this.waiting.size === 0) return;
    this.graceTimer = setTimeout(() => {
      this.graceTimer = undefined;
      if (this.presence > 0) return;
      this.options.log?.("no window for the grace period: denying open permission requests", { count: this.waiting.size });
      this.denyAll("window-closed", "Nobody is at Baton's window to answer; denied.");
    }, this.options.graceMs);
  }

  private stopGrace(): void {
    if (this.graceTimer !== undefined) clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
  }
}
