// Sessions running in a terminal that Baton steers through their hooks (issue 35): what the local
// socket (src/main/terminal/) calls for each hook. The session's tab is the one showing it, or a
// new tab restored from its file and followed live; the tab is marked as a terminal session with
// the state its hooks show.
//
// As in Baton's own sessions, the policy engine answers first and the person only where the CLI
// would ask. A PreToolUse goes to the engine (the person's rules; the presets too for a session
// started with `baton claude --orchestration`, except that a preset's Bash, which no OS sandbox
// can hold here, is put to the person): its allow or deny is the answer; where no rule decides,
// Baton defers and the CLI's own permission flow goes on (a Read runs, as it would without
// Baton). Where the CLI would show its dialog it first sends a PermissionRequest: that waits on the
// asking agent's card in the broker, answered like a live session's request, and matched to the
// PreToolUse before it (a PermissionRequest has no tool_use_id) by agent, tool and input. Every
// failure, and every answer not the person's (the tab closed, no window, Baton quitting), is
// "ask": the terminal shows its own prompt, and nothing is allowed that nobody allowed.

import os from "node:os";
import type { PolicyAgent, PolicyVerdict } from "../../shared/policy.js";
import type { JsonObject } from "../../shared/protocol/messages.js";
import { AskVerdict, DeferVerdict, type HookInput, type HookLaunch, type HookVerdict } from "../../shared/terminalHooks.js";
import type { PermissionDecision } from "../cli/permissionGate.js";
import type { LogBus } from "../platform/logBus.js";
import { decidePolicy, policyContext, presetOf, type PolicyContext } from "../policy/decidePolicy.js";
import { NoRuleDecided } from "../policy/policyAnswers.js";
import { builtinPresetSet } from "../policy/presets/builtinPresets.js";
import type { PolicyService } from "../policy/policyService.js";
import type { AuditTrail } from "../store/auditTrail.js";
import type { PermissionBroker } from "./permissionBroker.js";
import type { PolicyControl } from "./policyControl.js";
import type { RestoredTabs } from "./restoredTabs.js";
import type { TabList } from "./tabList.js";
import { resultWritten } from "./answeredInTerminal.js";
import { placeTranscript } from "./terminalTranscript.js";

export interface TerminalSessionsOptions {
  readonly tabs: TabList;
  readonly restored: RestoredTabs;
  readonly broker: PermissionBroker;
  /** The history folder now: the only place a hook's transcript may be. */
  readonly projectsDir: () => string | undefined;
  readonly policy: PolicyService | undefined;
  readonly policyControl: PolicyControl | undefined;
  readonly audit: AuditTrail | undefined;
  /** Whose home `~/` rules mean. */
  readonly home?: string;
  readonly log: LogBus;
}

/** How many PreToolUse calls per session are kept for a PermissionRequest to find (most are never asked). */
const RememberedCalls = 200;

/** Tools whose answer is more than allow or deny (the person's choices, an edited plan): the terminal asks them itself. */
const AnsweredInTerminal: ReadonlySet<string> = new Set(["AskUserQuestion", "ExitPlanMode"]);

export class TerminalSessions {
  /** Tabs being opened, by session: two hooks of a new session at once open one tab. */
  private readonly opening = new Map<string, Promise<string>>();
  /** Each session's recent PreToolUse calls, oldest first, for the PermissionRequest that may follow one. */
  private readonly calls = new Map<string, { readonly key: string; readonly toolUseId: string }[]>();
  /** Requests waiting on the person, by tab: the tab shows "waiting" while any does. */
  private readonly waiting = new Map<string, number>();
  private nextRequest = 1;
  /** Requests on cards, by request id: withdrawn when the person answered them in the terminal instead. */
  private readonly onCards = new Map<string, { readonly call: TerminalCall; readonly withdraw: () => void }>();

  constructor(private readonly options: TerminalSessionsOptions) {}

  /** One hook's verdict; never throws, and any failure is "ask". */
  async handle(input: HookInput, gaveUp?: AbortSignal, launch?: HookLaunch): Promise<HookVerdict> {
    try {
      return await this.decide(input, gaveUp, launch?.orchestration === true);
    } catch (error) {
      this.options.log.baton("error", "a terminal session's hook failed; the terminal asks instead", { sessionId: input.session_id, error: String(error) });
      return AskVerdict;
    }
  }

  private async decide(input: HookInput, gaveUp: AbortSignal | undefined, orchestration: boolean): Promise<HookVerdict> {
    const { log } = this.options;
    const place = await placeTranscript(this.options.projectsDir(), input.session_id, input.transcript_path);
    if (!place.ok) {
      log.baton("warning", `a terminal hook was refused: ${place.reason}; the terminal asks instead`, { sessionId: input.session_id.slice(0, 200) });
      return { decision: "ask", reason: `Baton refused this session: ${place.reason}` };
    }
    const tabId = await this.tabOf(input.session_id, place.project);
    void this.withdrawAnswered(input.session_id, place.file);
    switch (input.hook_event_name) {
      case "PreToolUse":
        return this.preToolUse(tabId, input, orchestration);
      case "PermissionRequest":
        return await this.permissionRequest(tabId, input, gaveUp, orchestration);
      case "Stop":
        this.mark(tabId, "idle");
        return DeferVerdict;
      case "Notification":
        // Says something to the person (an idle prompt, a dialog left waiting), not that the session works.
        if (this.options.tabs.terminalState(tabId) === undefined) this.mark(tabId, "idle");
        return DeferVerdict;
      default:
        this.mark(tabId, "working");
        return DeferVerdict;
    }
  }

  /** The tab showing the session, opened (restored from its file, followed live) if none does. */
  private tabOf(sessionId: string, project: string): Promise<string> {
    const key = `${project}/${sessionId}`;
    const opening = this.opening.get(key);
    if (opening !== undefined) return opening;
    const opened = this.options.restored
      .open(sessionId, project)
      .then((info) => info.tabId)
      .finally(() => this.opening.delete(key));
    this.opening.set(key, opened);
    return opened;
  }

  /** The policy's allow or deny; where no rule decides, the CLI's own flow (defer); an "ask" rule makes the CLI ask. */
  private preToolUse(tabId: string, input: HookInput, orchestration: boolean): HookVerdict {
    this.mark(tabId, "working");
    const call = this.callOf(tabId, input, orchestration, input.tool_use_id ?? `terminal-call-${this.nextRequest++}`);
    if (call === undefined) return AskVerdict;
    const verdict = this.policyVerdict(call);
    this.recordVerdict(call, verdict);
    if (verdict.decision !== "ask") {
      this.options.log.baton("info", `the policy ${verdict.decision === "allow" ? "allowed" : "denied"} a terminal session's ${call.toolName}`, { rule: verdict.rule }, tabId);
      return { decision: verdict.decision, reason: verdict.message };
    }
    this.remember(call, input);
    if (AnsweredInTerminal.has(call.toolName)) return { decision: "ask", reason: `Answer ${call.toolName} in the terminal.` };
    return verdict.rule === NoRuleDecided ? DeferVerdict : { decision: "ask", reason: verdict.message };
  }

  /** The CLI is about to show its dialog: the request waits on the asking agent's card instead. */
  private async permissionRequest(tabId: string, input: HookInput, gaveUp: AbortSignal | undefined, orchestration: boolean): Promise<HookVerdict> {
    this.mark(tabId, "working");
    const known = this.recall(input);
    const call = this.callOf(tabId, input, orchestration, known ?? `terminal-call-${this.nextRequest++}`);
    if (call === undefined || AnsweredInTerminal.has(call.toolName)) return AskVerdict;
    if (known === undefined) {
      // No PreToolUse seen for it (Baton started in between): the policy answers first, as there.
      const verdict = this.policyVerdict(call);
      this.recordVerdict(call, verdict);
      if (verdict.decision !== "ask") return { decision: verdict.decision, reason: verdict.message };
    }
    if (!this.options.broker.present) return { decision: "ask", reason: "No Baton window is open to answer; the terminal asks instead" };
    await this.linkAgent(call);
    return this.askPerson(call, gaveUp);
  }

  /** The asking subagent's card knows its agent id, though the file names it only once it ends (2.1.197's foreground agents). */
  private async linkAgent(call: TerminalCall): Promise<void> {
    const tab = this.options.tabs.get(call.tabId);
    if (call.agent.kind !== "subagent" || call.agent.agentId === undefined || tab?.kind !== "restored") return;
    await tab.session.linkRunningAgent?.(call.agent.agentId);
  }

  private callOf(tabId: string, input: HookInput, orchestration: boolean, toolUseId: string): TerminalCall | undefined {
    const toolName = input.tool_name;
    if (toolName === undefined) return undefined;
    return {
      tabId,
      sessionId: input.session_id,
      toolName,
      toolUseId,
      input: (input.tool_input ?? {}) as JsonObject,
      agent: agentOf(input),
      cwd: input.cwd,
      projectRoot: this.options.tabs.infoOf(this.options.tabs.require(tabId)).cwd ?? input.cwd,
      orchestration,
    };
  }

  /** Keeps a PreToolUse the policy left open, for the PermissionRequest the CLI may send for it. */
  private remember(call: TerminalCall, input: HookInput): void {
    const calls = this.calls.get(call.sessionId) ?? [];
    calls.push({ key: callKey(input), toolUseId: call.toolUseId });
    if (calls.length > RememberedCalls) calls.shift();
    this.calls.set(call.sessionId, calls);
  }

  /**
   * The tool_use_id of the newest remembered PreToolUse with the same agent, tool and input (taken):
   * the CLI sends a PermissionRequest right after its call's PreToolUse, and an older match may be a
   * call the CLI let run without asking, whose result in the file would withdraw this request.
   */
  private recall(input: HookInput): string | undefined {
    const calls = this.calls.get(input.session_id);
    const key = callKey(input);
    const at = calls?.findLastIndex((c) => c.key === key) ?? -1;
    if (calls === undefined || at < 0) return undefined;
    return calls.splice(at, 1)[0]!.toolUseId;
  }

  /** The person's rules, as for Baton's own sessions, and the presets for a session `baton claude --orchestration` started. */
  private policyVerdict(call: TerminalCall): PolicyVerdict {
    const policy = this.options.policy;
    const context = policyContext({
      orchestration: call.orchestration,
      presets: policy?.presets ?? builtinPresetSet(),
      rules: policy?.rules?.rulesFor(call.sessionId, call.projectRoot) ?? [],
      cwd: call.cwd,
      projectRoot: call.projectRoot,
      home: this.options.home ?? os.homedir(),
      ...(policy !== undefined ? { batonFiles: policy.ownFiles } : {}),
    });
    const verdict = decidePolicy({ agent: call.agent, toolName: call.toolName, input: call.input, requiresUserInteraction: AnsweredInTerminal.has(call.toolName) }, context);
    return this.unsandboxed(call, verdict, context) ?? verdict;
  }

  /**
   * A preset agent's Bash that its preset allows runs in the OS sandbox in Baton's own sessions;
   * a hook cannot put a terminal's command there, so the person decides it instead (unless they
   * chose "policy check only", where the policy's reading alone holds preset agents' commands).
   */
  private unsandboxed(call: TerminalCall, verdict: PolicyVerdict, context: PolicyContext): PolicyVerdict | undefined {
    const preset = presetOf(call.agent, context);
    if (preset === undefined || call.toolName !== "Bash" || verdict.decision !== "allow" || this.options.policy?.policyCheckOnly === true) return undefined;
    return { decision: "ask", rule: `preset:${preset.name}/no-sandbox`, message: `${preset.name}'s preset allows this command, but Baton cannot hold a terminal session's command in the OS sandbox; you decide.` };
  }

  /** Puts the request on the asking agent's card and waits for the person, or until the hook gives up. */
  private async askPerson(call: TerminalCall, gaveUp: AbortSignal | undefined): Promise<HookVerdict> {
    const { broker, policyControl, log } = this.options;
    const requestId = `terminal-${this.nextRequest++}`;
    const agentId = call.agent.kind === "subagent" ? call.agent.agentId : undefined;
    const allowRules = policyControl?.allowRulesFor(call.toolName, call.input, call.projectRoot) ?? [];
    const withdrawn = new AbortController();
    const stopWaiting = (): void => withdrawn.abort();
    gaveUp?.addEventListener("abort", stopWaiting, { once: true });
    const gone = new Promise<undefined>((resolve) => withdrawn.signal.addEventListener("abort", () => resolve(undefined), { once: true }));
    if (gaveUp?.aborted === true) withdrawn.abort();
    this.onCards.set(requestId, { call, withdraw: stopWaiting });
    this.waitingChanged(call.tabId, +1);
    try {
      const asked = broker.deciderFor(call.tabId, () => allowRules)(
        { kind: "permission_request", requestId, toolName: call.toolName, toolUseId: call.toolUseId, input: call.input, ...(agentId !== undefined ? { agentId } : {}) },
        withdrawn.signal,
      );
      const decision = await Promise.race([asked, gone]);
      if (decision === undefined) {
        this.recordAnswer(call, requestId, undefined);
        log.baton("info", "a terminal session's request was withdrawn: its hook stopped waiting", { requestId, toolName: call.toolName }, call.tabId);
        return AskVerdict;
      }
      const verdict = verdictOf(decision);
      this.recordAnswer(call, requestId, verdict.decision === "ask" ? undefined : decision, decision.decidedBy);
      return verdict;
    } finally {
      gaveUp?.removeEventListener("abort", stopWaiting);
      this.onCards.delete(requestId);
      this.waitingChanged(call.tabId, -1);
    }
  }

  /** Another hook of the session came: a request on a card whose call has its result in the file was answered in the terminal. */
  private async withdrawAnswered(sessionId: string, mainFile: string): Promise<void> {
    for (const [requestId, { call, withdraw }] of this.onCards) {
      if (call.sessionId !== sessionId) continue;
      const agentId = call.agent.kind === "subagent" ? call.agent.agentId : undefined;
      if (!(await resultWritten(mainFile, sessionId, agentId, call.toolUseId))) continue;
      this.options.log.baton("info", "a terminal session's request was answered in the terminal; it leaves the card", { requestId, toolName: call.toolName }, call.tabId);
      withdraw();
    }
  }

  private waitingChanged(tabId: string, by: number): void {
    const count = (this.waiting.get(tabId) ?? 0) + by;
    if (count > 0) this.waiting.set(tabId, count);
    else this.waiting.delete(tabId);
    this.mark(tabId, count > 0 ? "waiting" : "working");
  }

  /** The tab's state; "waiting" stays while a request is open, whatever other hooks arrive. */
  private mark(tabId: string, state: "working" | "idle" | "waiting"): void {
    if (state !== "waiting" && this.waiting.has(tabId)) return;
    this.options.tabs.markTerminal(tabId, state);
  }

  private recordVerdict(call: TerminalCall, verdict: PolicyVerdict): void {
    const presets = this.options.policy?.presets;
    const preset = presets === undefined ? undefined : presetOf(call.agent, { orchestration: call.orchestration, presets });
    this.options.audit?.policyDecision({
      sessionId: call.sessionId,
      time: new Date().toISOString(),
      toolUseId: call.toolUseId,
      toolName: call.toolName,
      ...(call.agent.kind === "subagent" ? { agentType: call.agent.agentType, ...(call.agent.agentId !== undefined ? { agentId: call.agent.agentId } : {}) } : {}),
      ...(preset !== undefined ? { preset: preset.name } : {}),
      input: call.input,
      decision: verdict.decision,
      rule: verdict.rule,
      message: verdict.message,
      origin: "terminal",
    });
  }

  /**
   * The request's outcome beside the person's other answers. One the terminal was left to ask
   * (withdrawn, the tab closed, no window) is "cancelled", with who or what ended it.
   */
  private recordAnswer(call: TerminalCall, requestId: string, decision: PermissionDecision | undefined, endedBy?: string): void {
    const agentId = call.agent.kind === "subagent" ? call.agent.agentId : undefined;
    this.options.audit?.permission({
      sessionId: call.sessionId,
      requestId,
      toolUseId: call.toolUseId,
      toolName: call.toolName,
      ...(agentId !== undefined ? { agentId } : {}),
      decision: decision === undefined ? "cancelled" : decision.behavior,
      ...(decision !== undefined ? { decidedBy: decision.decidedBy ?? "baton" } : endedBy !== undefined ? { decidedBy: endedBy } : {}),
      ...(decision?.behavior === "deny" ? { message: decision.message } : {}),
      time: new Date().toISOString(),
    });
  }
}

interface TerminalCall {
  readonly tabId: string;
  readonly sessionId: string;
  readonly toolName: string;
  readonly toolUseId: string;
  readonly input: JsonObject;
  readonly agent: PolicyAgent;
  /** Where the asking agent works (the hook's cwd). */
  readonly cwd: string;
  /** The session's folder: where project rules belong. */
  readonly projectRoot: string;
  /** Started with `baton claude --orchestration`: the presets hold its agents. */
  readonly orchestration: boolean;
}

/** The hook's agent: a subagent by its id (its card), else the main agent. */
function agentOf(input: HookInput): PolicyAgent {
  if (input.agent_id === undefined) return { kind: "main" };
  return { kind: "subagent", agentId: input.agent_id, agentType: input.agent_type ?? "" };
}

/**
 * The terminal's answer for a decision: the person's allow or deny; anything else (the tab closed,
 * no window for the grace period, Baton quitting) lets the terminal ask, never allows.
 */
function verdictOf(decision: PermissionDecision): HookVerdict {
  if (decision.decidedBy !== "user") return { decision: "ask", reason: decision.behavior === "deny" ? decision.message : "Baton did not decide; the terminal asks instead" };
  if (decision.behavior === "allow") return { decision: "allow", reason: "Allowed in Baton." };
  return { decision: "deny", reason: decision.message.trim() === "" ? "Denied in Baton." : decision.message };
}

/** What a PermissionRequest shares with the PreToolUse before it: the agent, the tool and its input. */
function callKey(input: HookInput): string {
  return JSON.stringify([input.agent_id ?? "", input.tool_name ?? "", input.tool_input ?? {}]);
}
