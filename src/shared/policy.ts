// The words of orchestration mode's policy (issue 22): presets, the person's rules, and the
// verdict one decision function gives for every tool call of every agent. Pure data: the main
// process decides (src/main/policy), the renderer shows presets, rules and verdicts.

/** What a tool call gets: run it, refuse it, or put it in front of the person. */
export type PolicyDecision = "allow" | "deny" | "ask";

export interface PolicyVerdict {
  readonly decision: PolicyDecision;
  /**
   * What decided, readable by a person: `preset:coder/exec`, `rule:deny Bash(rm:*) (project)`,
   * `default:ask`, `error`, `unknown-agent`, …
   */
  readonly rule: string;
  /** What the model is told when denied; a short explanation otherwise. */
  readonly message: string;
}

/**
 * Exploratory presets explore and report (no clarifying phase); Deliberate ones produce work, and
 * work toward a vague goal goes wrong, so they agree on the goal and a plan first.
 */
export type PresetCharacter = "exploratory" | "deliberate";

/**
 * One command pattern of an exec allowlist, matched against a simple command's words (after
 * wrappers such as `env`, `timeout`, `sudo` are unwrapped) as a prefix: words separated by spaces,
 * each word a `|`-separated set of alternatives. `"go test|vet"` allows `go test ./...` and
 * `go vet`, not `go build`; `"go"` allows every `go` subcommand; `"pnpm run test|lint|format"`.
 */
export type CommandPattern = string;

export interface Preset {
  /** The agent type the CLI knows it by (`initialize.agents` key): lowercase, e.g. `coder`. */
  readonly name: string;
  readonly character: PresetCharacter;
  /** What the conductor chooses by. */
  readonly description: string;
  /** The subagent's system prompt: the preset's character. */
  readonly prompt: string;
  /** Claude Code tool names it may call (an allowlist; `Bash` only matters with `exec`). */
  readonly tools: readonly string[];
  /** Bash commands it may run; empty: none. */
  readonly exec: readonly CommandPattern[];
  /** `none`: no file writes at all; `write-root`: only inside the session's cwd or its worktree. */
  readonly write: "none" | "write-root";
  /**
   * Hosts its Bash commands may reach, enforced by the OS sandbox's proxy (issue 31): host patterns
   * (`registry.npmjs.org`, `*.pythonhosted.org`, optionally `:port`), or `["*"]` for any host;
   * empty: no network at all.
   */
  readonly network: readonly NetworkPattern[];
  /** Presets it may spawn with the Agent tool; empty: none. */
  readonly spawns: readonly string[];
}

/** A host a preset's commands may reach: `example.com`, `*.example.com` (its subdomains), either with `:port`; or `*`, any host. */
export type NetworkPattern = string;

/** Why a network pattern cannot be used, or undefined when it can. Pure, so the presets file and the sandbox agree. */
export function networkPatternProblem(pattern: string): string | undefined {
  if (pattern === "*") return undefined;
  const match = /^(\*\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)+)(?::(\d{1,5}))?$/i.exec(pattern);
  if (match === null) return `"${pattern}" is not a host pattern: write example.com, *.example.com (its subdomains), either with :port, or * for any host`;
  const [, wildcard, host = "", port] = match;
  if (host.split(".").some((label) => label.startsWith("-") || label.endsWith("-"))) return `"${pattern}": a host name's parts cannot start or end with -`;
  if (wildcard !== undefined && host.split(".").length < 2) return `"${pattern}" is too broad: a wildcard needs a domain with at least two parts (*.example.com)`;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return `"${pattern}": the port must be from 1 to 65535`;
  return undefined;
}

/**
 * Claude Code searches with Bash (it has no Grep or Glob tool), so exploring needs a few commands
 * that only read: every preset with Bash may run them, and a Deliberate one before approval only
 * them. `find` and `rg` are left out: their options run programs (`-exec`, `--pre`) and delete files.
 */
export const ReadOnlyCommands: readonly CommandPattern[] = [
  "ls",
  "cat",
  "head",
  "tail",
  "wc",
  "grep|egrep|fgrep",
  "sort",
  "uniq",
  "cut",
  "tr",
  "diff",
  "file",
  "stat",
  "tree",
  "git log|diff|status|show|blame|grep|ls-files",
];

/** A command no preset may run, with the reason the model is told. */
export interface RefusedCommand {
  readonly pattern: CommandPattern;
  readonly reason: string;
}

/** The presets in force and where they came from. */
export interface PresetSet {
  readonly presets: readonly Preset[];
  /** Commands refused for every preset (`npm`, `npx`: node_modules in worktrees). */
  readonly refused: readonly RefusedCommand[];
  /** `built-in`, or the presets file's path. */
  readonly source: string;
  /** Why the presets file was not used (the built-ins are in force then). */
  readonly problem?: string;
}

export type RuleBehavior = "allow" | "ask" | "deny";
export type RuleScope = "session" | "project" | "everywhere";

/** One of the person's rules, in Claude Code's syntax: `Bash(pnpm test:*)`, `Edit(src/**)`, `WebFetch`. */
export interface PermissionRule {
  readonly behavior: RuleBehavior;
  /** `Tool` or `Tool(pattern)`, as Claude Code writes it. */
  readonly rule: string;
  readonly scope: RuleScope;
  /** The project folder a `project` rule belongs to; the session id of a `session` rule. */
  readonly scopeKey?: string;
  /** Who made it: `prompt` (a permission prompt's answer), `rules-view`, `file`. */
  readonly origin: string;
  /** ISO time it was added. */
  readonly createdAt: string;
}

/**
 * What held a preset agent's Bash command (issue 31): the operating system's sandbox, or only the
 * policy engine's reading of the line because the person chose "policy check only".
 */
export type SandboxProtection = "os-sandbox" | "policy-only";

/** Which agent makes a call, as far as Baton can tell (hook `agent_type`, else agent id → record). */
export type PolicyAgent =
  | { readonly kind: "main" }
  | { readonly kind: "subagent"; readonly agentId?: string; readonly agentType: string }
  /** An agent id Baton cannot place: always denied (fail closed). */
  | { readonly kind: "unknown"; readonly agentId: string };
