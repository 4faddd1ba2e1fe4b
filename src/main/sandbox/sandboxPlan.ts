// What a preset's operating-system sandbox allows (issue 31), as data: the folders its Bash
// commands may write, the files they may never write even there, whether they get the temporary
// folder, and the hosts they may reach. Pure: the sandbox host (sandboxHost.ts) hands it to
// Anthropic's sandbox runtime, which makes it bubblewrap (Linux) or Seatbelt (macOS). The policy
// engine explains; this is what the kernel holds, whatever the command line says.

import path from "node:path";
import { ReadOnlyCommands, type NetworkPattern, type Preset } from "../../shared/policy.js";
import { protectedPaths } from "./protectedFiles.js";

export type NetworkPolicy =
  | { readonly kind: "none" }
  | { readonly kind: "any" }
  | { readonly kind: "hosts"; readonly hosts: readonly NetworkPattern[] };

export interface SandboxPlan {
  readonly preset: string;
  /** Folders the command may write (real, absolute); empty for a preset that writes nothing. */
  readonly writeRoots: readonly string[];
  /** Paths it may never write, even inside a write root (absolute). */
  readonly protectedPaths: readonly string[];
  /** Whether the sandbox's private temporary folder is writable. */
  readonly temporaryFolder: boolean;
  readonly network: NetworkPolicy;
}

export interface PlanInput {
  readonly preset: Preset;
  /** The session's working directory: the write root of a preset that writes. */
  readonly workspace: string;
  /** The agent's own worktree: its only write root when it has one. */
  readonly worktree?: string;
  readonly home: string;
  /** Baton's own files (settings, rules, presets, the audit trail): never writable. */
  readonly batonFiles?: readonly string[];
}

export function sandboxPlan(input: PlanInput): SandboxPlan {
  const { preset } = input;
  const writeRoots = preset.write === "none" ? [] : [input.worktree ?? input.workspace];
  return {
    preset: preset.name,
    writeRoots,
    protectedPaths: protectedPaths(writeRoots, input.home, input.batonFiles),
    temporaryFolder: needsTemporaryFolder(preset),
    network: networkPolicy(preset.network),
  };
}

/**
 * A preset that writes gets the temporary folder, and so does one that runs more than the
 * read-only commands (`go test` builds there); one that only reads (scout) writes nothing at all.
 */
function needsTemporaryFolder(preset: Preset): boolean {
  if (preset.write !== "none") return true;
  return preset.exec.some((pattern) => !ReadOnlyCommands.includes(pattern));
}

export function networkPolicy(patterns: readonly NetworkPattern[]): NetworkPolicy {
  if (patterns.includes("*")) return { kind: "any" };
  if (patterns.length === 0) return { kind: "none" };
  return { kind: "hosts", hosts: [...new Set(patterns)].sort() };
}

/** One key per network policy: commands with the same policy share a sandbox host (its proxy). */
export function networkKey(policy: NetworkPolicy): string {
  return policy.kind === "hosts" ? `hosts:${policy.hosts.join(",")}` : policy.kind;
}

export function describeNetwork(policy: NetworkPolicy): string {
  if (policy.kind === "none") return "no network";
  if (policy.kind === "any") return "any host";
  return policy.hosts.join(", ");
}

/**
 * The variables a sandboxed command starts with: its temporary folder, and the caches of the usual
 * toolchains moved into it (a cache in the home folder is outside every write root, and a build
 * cache another run trusts is not something an agent may write). A preset that reaches package
 * registries also gets module caches of its own, so its downloads have somewhere to go.
 */
export function sandboxEnvironment(plan: SandboxPlan, temporaryFolder: string): Readonly<Record<string, string>> {
  if (!plan.temporaryFolder) return {};
  const t = temporaryFolder;
  const cache = path.join(t, "cache");
  return {
    TMPDIR: t,
    TMP: t,
    TEMP: t,
    XDG_CACHE_HOME: cache,
    GOCACHE: path.join(cache, "go-build"),
    npm_config_cache: path.join(cache, "npm"),
    BUN_INSTALL_CACHE_DIR: path.join(cache, "bun"),
    // pnpm's store lives under XDG_DATA_HOME.
    ...(plan.network.kind !== "none" ? { XDG_DATA_HOME: path.join(t, "data"), GOMODCACHE: path.join(t, "go-mod"), CARGO_HOME: path.join(t, "cargo") } : {}),
  };
}

/** The command with its variables set first, on a line of its own, so the command's text stays as written. */
export function withEnvironment(command: string, environment: Readonly<Record<string, string>>): string {
  const names = Object.keys(environment);
  if (names.length === 0) return command;
  const exports = names.map((name) => `${name}=${shellQuote(environment[name] ?? "")}`).join(" ");
  return `export ${exports}\n${command}`;
}

export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export type DotGitKind = "directory" | "file" | "absent";

/**
 * The protected paths as they apply to the disk right now. A repository's `.git/config` and hooks
 * are protected where `.git` is a folder; where it is a file (a worktree's or a submodule's pointer
 * to its repository) the file itself is, which keeps it a pointer; where there is none, nothing is,
 * so `git init` still works (the sandbox runtime's own rule).
 */
export function protectedPathsNow(plan: SandboxPlan, dotGitAt: (folder: string) => DotGitKind): readonly string[] {
  const out = new Set<string>();
  for (const file of plan.protectedPaths) {
    const at = gitInternal(file);
    if (at === undefined) {
      out.add(file);
      continue;
    }
    const kind = dotGitAt(at);
    if (kind === "directory") out.add(file);
    else if (kind === "file") out.add(path.join(at, ".git"));
  }
  return [...out];
}

/** The folder holding `.git` when `file` is a path inside a `.git` folder, else undefined. */
function gitInternal(file: string): string | undefined {
  const parts = file.split(path.sep);
  const index = parts.lastIndexOf(".git");
  return index > 0 && index < parts.length - 1 ? parts.slice(0, index).join(path.sep) || path.sep : undefined;
}
