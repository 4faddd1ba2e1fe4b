// A preset is an allowlist: a tool outside its list, a Bash line any
// part of which its exec policy does not allow, a write outside its write root, or a spawn of a
// preset it may not spawn is refused, with a message the model can act on: what it may not do,
// why, and who may ("installing packages belongs to worker; ask the conductor").

import type { JsonObject } from "../../../shared/protocol/messages.js";
import type { CommandPattern, Preset, PresetSet } from "../../../shared/policy.js";
import { canonicalToolName, EDIT_TOOLS } from "../../../shared/ruleSyntax.js";
import type { PolicyCall, PolicyContext } from "../decidePolicy.js";
import { allowlistsAllowing, judgeReading, NEUTRAL_BUILTINS } from "./execPolicy.js";
import { npmProject, npmRefusal, npmTwins } from "./npmCommands.js";
import { readCommandLine, type CommandLineReading, type ShellWrite } from "../shell/shellCommands.js";
import { protectedTarget } from "../../sandbox/protectedFiles.js";
import { checkWritePath } from "../writeRoot.js";

export interface PresetViolation {
  /** `preset:<name>/<aspect>`: tools, exec, write, spawn. */
  readonly rule: string;
  readonly message: string;
}

const AskConductor = "ask the conductor";

export function presetViolation(preset: Preset, call: PolicyCall, reading: CommandLineReading | undefined, context: PolicyContext): PresetViolation | undefined {
  const tool = canonicalToolName(call.toolName);
  if (!preset.tools.some((t) => canonicalToolName(t) === tool)) {
    const others = whoMay(context.presets, (p) => p.tools.some((t) => canonicalToolName(t) === tool), preset);
    return violation(preset, "tools", `${preset.name} may not use ${call.toolName}: its tools are ${preset.tools.join(", ")}${belongs(others)}; ${AskConductor}`);
  }
  if (tool === "Bash") return bashViolation(preset, call.input, reading, context);
  if (EDIT_TOOLS.has(tool)) return writeViolation(preset, filePathOf(call.input, context.home), context);
  if (tool === "Agent") return spawnViolation(preset, call.input);
  return undefined;
}

function bashViolation(preset: Preset, input: JsonObject, reading: CommandLineReading | undefined, context: PolicyContext): PresetViolation | undefined {
  const line = typeof input["command"] === "string" ? input["command"] : "";
  if (reading !== undefined && !reading.ok) {
    return violation(preset, "exec", `${preset.name} may not run this command: Baton cannot read it for certain (${reading.reason}); write it plainly or ${AskConductor}`);
  }
  const read = reading ?? readCommandLine(line);
  const allow = allowlistOf(preset);
  const verdict = judgeReading(line, read, allow, context.presets.refused);
  if (!verdict.allowed && verdict.why === "refused") return violation(preset, "exec", `${preset.name} may not run \`${verdict.command.trim()}\`: ${verdict.reason}`);
  const npm = npmViolation(preset, read, context);
  if (npm !== undefined) return npm;
  if (!verdict.allowed) {
    const command = verdict.command.trim();
    if (verdict.why === "not-allowed") {
      const lists = context.presets.presets.filter((p) => p !== preset).map((p) => ({ name: p.name, allow: allowlistOf(p) }));
      const others = allowlistsAllowing(verdict.offender ?? command, lists, context.presets.refused);
      return violation(preset, "exec", `${preset.name} may not run \`${command}\`${belongs(others)}; ${AskConductor}`);
    }
    return violation(preset, "exec", `${preset.name} may not run \`${command}\`: ${verdict.reason}; ${AskConductor}`);
  }
  // After a `cd` the shell resolves relative names from another folder than the one Baton checks;
  // the reading says which writes may come after one (`(cd src && ls) > f` opens f before it).
  const relative = verdict.writes.find((w) => w.afterCd !== undefined && w.operator !== "install" && !w.target.dynamic && !w.target.value.startsWith("/"));
  if (relative !== undefined) {
    return violation(preset, "write", `${preset.name} may not write \`${relative.target.value}\` after \`${relative.afterCd}\`: a relative path then lands where Baton cannot check; give the write an absolute path`);
  }
  for (const write of verdict.writes) {
    const problem = shellWriteViolation(preset, write, context);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** A preset's commands: the builtins that run nothing, its exec patterns, and their npm twins (npmCommands.ts). */
function allowlistOf(preset: Preset): readonly CommandPattern[] {
  return [...NEUTRAL_BUILTINS, ...preset.exec, ...npmTwins(preset.exec)];
}

/**
 * npm's rules, for every preset (npmCommands.ts): the refused list has decided first, so an
 * install keeps the refused list's reason (a worktree would get a whole node_modules); then a
 * package the project does not have, an option that moves
 * npm out of the project, or a `cd` out before a script.
 */
function npmViolation(preset: Preset, reading: CommandLineReading, context: PolicyContext): PresetViolation | undefined {
  if (!reading.ok) return undefined;
  const roots = [context.cwd, ...(context.worktree !== undefined ? [context.worktree] : [])];
  const refusal = npmRefusal(reading.commands, npmProject(context.cwd, roots, context.fs));
  return refusal === undefined ? undefined : violation(preset, "exec", `${preset.name} may not run \`${refusal.command.text.trim()}\`: ${refusal.reason}`);
}

function shellWriteViolation(preset: Preset, write: ShellWrite, context: PolicyContext): PresetViolation | undefined {
  // A global or user install lands outside every project, whatever the write root.
  if (write.operator === "install") {
    return violation(preset, "write", `${preset.name} may not run \`${write.text}\`: it installs outside the project, into ${write.target.value}; install into the project instead (a project dependency, a virtualenv, or an option naming a folder inside it) or ${AskConductor}`);
  }
  if (write.target.dynamic) {
    return violation(preset, "write", `${preset.name} may not write to \`${write.target.value}\` (\`${write.text}\`): the file is only known when the shell runs; name it plainly`);
  }
  return writeViolation(preset, write.target.value, context);
}

function writeViolation(preset: Preset, file: string | undefined, context: PolicyContext): PresetViolation | undefined {
  if (preset.write === "none") {
    const others = whoMay(context.presets, (p) => p.write !== "none", preset);
    return violation(preset, "write", `${preset.name} may not write files${file !== undefined ? ` (${file})` : ""}: it explores and reports${belongs(others)}; ${AskConductor}`);
  }
  if (file === undefined) return violation(preset, "write", `${preset.name} may not write: the call names no file`);
  // An agent in a worktree of its own writes only there (its cwd is then that worktree too).
  const roots = context.worktree !== undefined ? [context.worktree] : [context.cwd];
  const verdict = checkWritePath(file, roots, context.fs, preset.name);
  if (verdict.verdict !== "inside") return violation(preset, "write", verdict.message);
  const shielded = protectedTarget(verdict.resolved, roots.map((root) => context.fs.realPath(root) ?? root), context.home, context.batonFiles);
  if (shielded === undefined) return undefined;
  return violation(preset, "write", `${preset.name} may not write ${verdict.resolved}: ${shielded} is protected even inside the write root (it runs code or changes the rules when git, Claude Code or a shell reads it later); ${AskConductor}`);
}

function spawnViolation(preset: Preset, input: JsonObject): PresetViolation | undefined {
  const type = typeof input["subagent_type"] === "string" && input["subagent_type"] !== "" ? input["subagent_type"] : "general-purpose";
  if (preset.spawns.includes(type)) return undefined;
  const may = preset.spawns.length === 0 ? `${preset.name} may not spawn agents` : `${preset.name} may spawn only ${preset.spawns.join(", ")}`;
  return violation(preset, "spawn", `${may}, not ${type}; ${AskConductor}`);
}

/**
 * The file an editing tool writes, read as Claude Code reads it: surrounding whitespace trimmed,
 * a leading `~/` (or `~` alone) taken from the home folder. Read any other way, ` /etc/x` or
 * `~/x` would look like names inside the working directory.
 */
function filePathOf(input: JsonObject, home: string): string | undefined {
  for (const key of ["file_path", "notebook_path", "path"]) {
    const value = input[key];
    if (typeof value !== "string") continue;
    const trimmed = value.trim();
    if (trimmed === "") continue;
    if (trimmed === "~") return home;
    return trimmed.startsWith("~/") ? `${home.replace(/\/+$/, "")}/${trimmed.slice(2)}` : trimmed;
  }
  return undefined;
}

function whoMay(set: PresetSet, may: (p: Preset) => boolean, except: Preset): readonly string[] {
  return set.presets.filter((p) => p !== except && may(p)).map((p) => p.name);
}

function belongs(others: readonly string[]): string {
  if (others.length === 0) return "";
  return `: that belongs to ${others.length === 1 ? others[0] : `${others.slice(0, -1).join(", ")} or ${others.at(-1)}`}`;
}

function violation(preset: Preset, aspect: string, message: string): PresetViolation {
  return { rule: `preset:${preset.name}/${aspect}`, message };
}
