// The app's policy state (issue 22): the presets in force (presets.json beside settings.json, or
// the built-ins when it is missing or broken), the person's rules (rules.json), and whether
// orchestration mode is on (`--orchestration` over the setting). Sessions take their policy from
// here when they start; a change of mode reaches the sessions started after it. A config file that
// is not the person's alone (trustedConfigFile.ts) is refused here, said in the Console at start
// and kept in the summary for the toolbar, `baton doctor` and `baton policy --list`. In
// orchestration mode each session's preset agents run their Bash in the operating system's
// sandbox (src/main/sandbox/), unless the person chose "policy check only".

import os from "node:os";
import path from "node:path";
import type { SandboxInfo } from "../../shared/api.js";
import type { PermissionRule, PresetSet } from "../../shared/policy.js";
import { readOrchestration, readPolicyCheckOnly, updateSettings } from "../platform/settingsFile.js";
import type { SandboxService } from "../sandbox/sandboxService.js";
import { SessionSandbox } from "../sandbox/sessionSandbox.js";
import type { SandboxSupport } from "../sandbox/sandboxSupport.js";
import { ConfigRefusedError } from "../platform/trustedConfigFile.js";
import { builtinPresetSet } from "./presets/builtinPresets.js";
import { presetsFileBeside, readPresetsFile, resetPresets } from "./presets/presetsFile.js";
import { RuleBook, rulesFileBeside } from "./rules/ruleBook.js";
import { SessionPolicy, type SessionPolicyOptions } from "./sessionPolicy.js";
import { loadShellParser } from "./shell/shellParser.js";

export interface PolicyServiceOptions {
  /** Baton's settings file; presets.json and rules.json live beside it. Absent: built-ins, rules kept in memory only. */
  readonly settingsFile?: string;
  /** `--orchestration`: on for this run, whatever the setting says. */
  readonly orchestration?: boolean;
  readonly home?: string;
  /** The OS sandbox that holds preset agents' Bash in orchestration mode; absent: none (their Bash is refused). */
  readonly sandbox?: SandboxService;
  /** Baton's own files besides the settings folder (the index, the audit trail), never writable from a sandbox. */
  readonly ownFiles?: readonly string[];
  readonly log?: (level: "info" | "warning" | "error", message: string, fields?: Record<string, unknown>) => void;
}

export interface PolicySummary {
  readonly orchestration: boolean;
  readonly presets: PresetSet;
  readonly rules: readonly PermissionRule[];
  /** Why the rules file is not in force, if it is not. */
  readonly rulesProblem?: string;
  /** Why Baton does not read its settings file (its defaults are in force), if it does not. */
  readonly settingsProblem?: string;
}

export class PolicyService {
  private presetSet: PresetSet;
  private mode: boolean;
  private readonly settingsRefused: string | undefined;
  private checkOnly: boolean;
  private support: SandboxSupport | undefined;
  readonly rules: RuleBook | undefined;

  private constructor(private readonly options: PolicyServiceOptions) {
    const file = options.settingsFile;
    this.presetSet = file === undefined ? builtinPresetSet() : readPresetsFile(presetsFileBeside(file));
    const saved = file === undefined ? { orchestration: false } : readOrchestration(file);
    this.mode = options.orchestration ?? saved.orchestration;
    this.settingsRefused = saved.refused;
    const checkOnly = file === undefined ? { policyCheckOnly: false } : readPolicyCheckOnly(file);
    this.checkOnly = checkOnly.policyCheckOnly;
    if (checkOnly.problem !== undefined) options.log?.("warning", checkOnly.problem);
    this.rules = file === undefined ? undefined : new RuleBook({ file: rulesFileBeside(file), ...(options.home !== undefined ? { home: options.home } : {}) });
    if (this.presetSet.problem !== undefined) options.log?.("error", this.presetSet.problem, { source: this.presetSet.source });
    if (saved.problem !== undefined) options.log?.("warning", saved.problem);
    if (saved.refused !== undefined) options.log?.("error", saved.refused, { source: file });
    if (this.rules?.problem !== undefined) options.log?.("error", this.rules.problem);
  }

  /**
   * Reads the files and starts the shell parser the exec policy needs (one wasm start). A parser
   * that cannot start leaves Baton running: every Bash line is then unreadable, which presets deny
   * and the person's Bash rules treat as matching (fail closed); the Console says why.
   */
  static async open(options: PolicyServiceOptions & { readonly loadParser?: () => Promise<void> }): Promise<PolicyService> {
    try {
      await (options.loadParser ?? loadShellParser)();
    } catch (error) {
      options.log?.("error", `the shell parser did not start (${error instanceof Error ? error.message : String(error)}); Bash calls cannot be read, so presets refuse them all`);
    }
    const service = new PolicyService(options);
    service.support = await options.sandbox?.support();
    service.sayProtection();
    return service;
  }

  /** Whether the person chose "policy check only": preset agents' commands run without the OS sandbox. */
  get policyCheckOnly(): boolean {
    return this.checkOnly;
  }

  /** Baton's files no sandboxed command may write: its settings folder (settings, presets, rules) and the index's. */
  get ownFiles(): readonly string[] {
    const settings = this.options.settingsFile;
    return [...(settings !== undefined ? [path.dirname(settings)] : []), ...(this.options.ownFiles ?? [])];
  }

  /** What holds preset agents' commands now. */
  sandboxState(): SandboxInfo {
    if (this.checkOnly) {
      return { state: "policy-only", missing: [], message: "Policy check only: preset agents' commands run without the OS sandbox; only Baton's reading of each line holds them" };
    }
    const support = this.support;
    if (support === undefined) return { state: "unavailable", missing: [], message: "No OS sandbox in this Baton: preset agents' Bash is refused" };
    if (!support.ok) return { state: "unavailable", missing: support.missing, message: `${support.message}; until then preset agents' Bash is refused (or turn on policy check only)` };
    return { state: "os", missing: [], message: support.message };
  }

  /** Turns "policy check only" on or off for the sessions started from now on, and saves it. */
  async setPolicyCheckOnly(on: boolean): Promise<void> {
    this.checkOnly = on;
    if (this.options.settingsFile === undefined) return;
    try {
      await updateSettings(this.options.settingsFile, { policyCheckOnly: on });
    } catch (error) {
      if (!(error instanceof ConfigRefusedError)) throw error;
      this.options.log?.("warning", `policy check only is ${on ? "on" : "off"} for this run only, not saved: ${error.message}`);
    }
  }

  /** In orchestration mode the Console says what holds preset agents' commands when it is not the OS sandbox. */
  private sayProtection(): void {
    if (!this.mode || this.options.sandbox === undefined) return;
    const state = this.sandboxState();
    if (state.state !== "os") this.options.log?.(state.state === "unavailable" ? "error" : "warning", state.message, state.missing.length > 0 ? { install: state.missing.join(" ") } : {});
  }

  get orchestration(): boolean {
    return this.mode;
  }

  get presets(): PresetSet {
    return this.presetSet;
  }

  summary(): PolicySummary {
    return {
      orchestration: this.mode,
      presets: this.presetSet,
      rules: this.rules?.list() ?? [],
      ...(this.rules?.problem !== undefined ? { rulesProblem: this.rules.problem } : {}),
      ...(this.settingsRefused !== undefined ? { settingsProblem: this.settingsRefused } : {}),
    };
  }

  /**
   * Turns orchestration mode on or off for sessions started from now on, and saves it. A refused
   * settings file is not written over: the mode then holds for this run only, and the Console says so.
   */
  async setOrchestration(on: boolean): Promise<void> {
    this.mode = on;
    this.sayProtection();
    if (this.options.settingsFile === undefined) return;
    try {
      await updateSettings(this.options.settingsFile, { orchestration: on });
    } catch (error) {
      if (!(error instanceof ConfigRefusedError)) throw error;
      this.options.log?.("warning", `orchestration mode is ${on ? "on" : "off"} for this run only, not saved: ${error.message}`);
    }
  }

  /** Puts the built-in presets back in the presets file and in force. */
  async resetPresets(): Promise<PresetSet> {
    const file = this.options.settingsFile;
    this.presetSet = file === undefined ? builtinPresetSet() : await resetPresets(presetsFileBeside(file));
    return this.presetSet;
  }

  /** The policy of a session starting now in `cwd`. */
  forSession(session: Omit<SessionPolicyOptions, "orchestration" | "presets" | "rules" | "home" | "sandbox">): SessionPolicy {
    const checkOnly = this.checkOnly;
    const sandbox = this.options.sandbox;
    return new SessionPolicy({
      ...session,
      orchestration: this.mode,
      batonFiles: this.ownFiles,
      // Preset agents' Bash is held by the OS sandbox; with none, the session's guard refuses it.
      ...(this.mode
        ? {
            sandbox: new SessionSandbox({
              service: sandbox,
              workspace: session.cwd,
              home: this.options.home ?? os.homedir(),
              batonFiles: this.ownFiles,
              policyCheckOnly: () => checkOnly,
            }),
          }
        : {}),
      presets: () => this.presetSet,
      rules: () => {
        const id = session.sessionId();
        return this.rules?.rulesFor(id ?? "", session.cwd) ?? [];
      },
      ...(this.options.home !== undefined ? { home: this.options.home } : {}),
    });
  }
}
