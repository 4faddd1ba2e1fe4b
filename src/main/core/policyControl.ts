// The person's hold on the policy (issue 22), as the API serves it: orchestration mode, the
// presets in force and their reset, the person's rules (added from the Rules view or by a
// permission prompt's answer, deleted from the Rules view), and the rule(s) a prompt offers.
// Every change reaches every window through `onChanged`. The engine reads the rules at each
// decision, so a rule added here holds for the very next call of a running session.

import os from "node:os";
import type { NewRuleRequest, PolicyInfo, RuleKey, TabInfo } from "../../shared/api.js";
import type { PermissionRule, RuleScope } from "../../shared/policy.js";
import type { JsonObject } from "../../shared/protocol/messages.js";
import { rulesForCall } from "../../shared/ruleSuggestion.js";
import { canonicalRule } from "../../shared/ruleSyntax.js";
import type { PolicyService } from "../policy/policyService.js";
import { presetInfo } from "../policy/presets/presetSummary.js";
import type { RuleBook } from "../policy/rules/ruleBook.js";
import { argvOf, readCommandLine } from "../policy/shell/shellCommands.js";
import { AppError } from "./appError.js";
import type { KeptRules } from "./permissionAnswers.js";

export interface PolicyControlOptions {
  readonly policy: PolicyService;
  /** A tab's info (its cwd, its session id), if the tab is open. */
  readonly tab: (tabId: string) => TabInfo | undefined;
  /** Whose home `~/` rules mean (the CLI's environment's); the process's home by default. */
  readonly home?: string;
  readonly log: (level: "info" | "warning" | "error", message: string, fields?: Record<string, unknown>) => void;
}

export class PolicyControl {
  private readonly listeners = new Set<(info: PolicyInfo) => void>();

  constructor(private readonly options: PolicyControlOptions) {}

  info(): PolicyInfo {
    const summary = this.options.policy.summary();
    const presets = summary.presets;
    return {
      orchestration: summary.orchestration,
      presetsSource: presets.source,
      ...(presets.problem !== undefined ? { presetsProblem: presets.problem } : {}),
      presets: presets.presets.map((p) => presetInfo(p, presets)),
      rules: summary.rules,
      ...(summary.rulesProblem !== undefined ? { rulesProblem: summary.rulesProblem } : {}),
      ...(summary.settingsProblem !== undefined ? { settingsProblem: summary.settingsProblem } : {}),
      sandbox: this.options.policy.sandboxState(),
    };
  }

  async setPolicyCheckOnly(on: boolean): Promise<PolicyInfo> {
    await this.options.policy.setPolicyCheckOnly(on);
    this.options.log(on ? "warning" : "info", on ? "policy check only is on for sessions started from now on: preset agents' commands run without the OS sandbox" : "the OS sandbox holds preset agents' commands again, for sessions started from now on");
    return this.changed();
  }

  async setOrchestration(on: boolean): Promise<PolicyInfo> {
    await this.options.policy.setOrchestration(on);
    this.options.log("info", `orchestration mode is ${on ? "on" : "off"} for sessions started from now on`);
    return this.changed();
  }

  async resetPresets(): Promise<PolicyInfo> {
    const set = await this.options.policy.resetPresets();
    if (set.problem !== undefined) this.options.log("error", set.problem, { source: set.source });
    else this.options.log("info", "the built-in presets are restored", { source: set.source });
    return this.changed();
  }

  /** A rule from the Rules view; a rule Claude Code's syntax does not allow is refused with the reason. */
  async addRule(request: NewRuleRequest): Promise<PermissionRule> {
    const book = this.ruleBook();
    const syntax = canonicalRule(request.rule);
    if (!syntax.ok) throw new AppError("invalid_argument", syntax.error);
    const scopeKey = this.scopeKeyOf(request.scope, request.tabId);
    const added = await book.add({
      behavior: request.behavior,
      rule: request.rule,
      scope: request.scope,
      ...(scopeKey !== undefined ? { scopeKey } : {}),
      origin: "rules-view",
    });
    if (!added.ok) throw new AppError("rules_unavailable", added.error);
    this.changed();
    return added.value;
  }

  async deleteRule(key: RuleKey): Promise<boolean> {
    const deleted = await this.ruleBook().delete(key);
    if (!deleted.ok) throw new AppError("rules_unavailable", deleted.error);
    if (deleted.value) this.changed();
    return deleted.value;
  }

  /**
   * Keeps the rules a permission answer chose ("Allow for this session", "Always allow in this
   * project"), before the answer goes out: the next identical call then finds them. A rule that
   * cannot be kept fails the answer, so the prompt still waits and the person can choose again.
   */
  async keepAnswerRules(tabId: string, keep: KeptRules): Promise<void> {
    const book = this.ruleBook();
    const scopeKey = this.scopeKeyOf(keep.scope, tabId);
    for (const rule of keep.rules) {
      const added = await book.add({ behavior: "allow", rule, scope: keep.scope, ...(scopeKey !== undefined ? { scopeKey } : {}), origin: "prompt" });
      if (!added.ok) {
        this.changed();
        throw new AppError("rules_unavailable", `Could not keep the rule ${rule}: ${added.error}`);
      }
    }
    this.options.log("info", `allowed ${keep.scope === "project" ? "in this project" : "for this session"}`, { rules: [...keep.rules] });
    this.changed();
  }

  /** The rule(s) a prompt for this call offers (ruleSuggestion.ts); none when nothing sensible would allow it, or on any error. */
  allowRulesFor(toolName: string, input: JsonObject, cwd: string): readonly string[] {
    try {
      const command = input["command"];
      const reading = toolName === "Bash" && typeof command === "string" ? readCommandLine(command) : undefined;
      const commands = reading?.ok === true ? reading.commands.map(argvOf) : undefined;
      return rulesForCall(toolName, input, { cwd, projectRoot: cwd, home: this.options.home ?? os.homedir() }, commands);
    } catch (error) {
      this.options.log("warning", "could not work out a rule for a permission prompt", { toolName, error: String(error) });
      return [];
    }
  }

  /** A session's tab closed: its session rules go with it. */
  forgetSession(sessionId: string): void {
    const rules = this.options.policy.rules;
    if (rules === undefined || !rules.list().some((r) => r.scope === "session" && r.scopeKey === sessionId)) return;
    rules.forgetSession(sessionId);
    this.changed();
  }

  onChanged(listener: (info: PolicyInfo) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): PolicyInfo {
    const info = this.info();
    for (const listener of [...this.listeners]) {
      try {
        listener(info);
      } catch (error) {
        this.options.log("error", "a policy listener failed", { error: String(error) });
      }
    }
    return info;
  }

  private ruleBook(): RuleBook {
    const rules = this.options.policy.rules;
    if (rules === undefined) throw new AppError("unavailable", "This Baton keeps no settings folder, so it keeps no rules");
    return rules;
  }

  /** Where a rule belongs: a session rule to the tab's session, a project rule to the tab's folder. */
  private scopeKeyOf(scope: RuleScope, tabId: string | undefined): string | undefined {
    if (scope === "everywhere") return undefined;
    const tab = tabId === undefined ? undefined : this.options.tab(tabId);
    if (tab === undefined) throw new AppError("invalid_argument", `A ${scope} rule needs an open session tab (${tabId === undefined ? "none was given" : `no tab ${tabId}`})`);
    const key = scope === "session" ? tab.sessionId : tab.cwd;
    if (key === undefined) {
      throw new AppError("invalid_argument", scope === "session" ? "This tab's session has no id yet; try again once it has started" : "This tab has no working folder");
    }
    return key;
  }
}
