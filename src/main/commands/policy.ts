// `baton policy`: what the policy engine decides for one tool call, with the rule that decided
// and the message the model would get; or, with --list, the presets in force and where they came
// from (and why a presets, rules or settings file is not in force); or, with --reset-presets, the
// built-ins put back. For "why was this denied?", and for
// tests: it runs the same decidePolicy as the hook and the permission requests.

import path from "node:path";
import { parseArgs } from "node:util";
import type { JsonObject } from "../../shared/protocol/messages.js";
import type { PolicyAgent, PolicyVerdict, PresetSet } from "../../shared/policy.js";
import { networkScope, writeScope } from "../../shared/presetScope.js";
import { terminalJson, terminalText } from "../../shared/terminalText.js";
import { defaultSettingsFile } from "../platform/settingsFile.js";
import { decidePolicy, policyContext } from "../policy/decidePolicy.js";
import { NpmRules } from "../policy/presets/npmCommands.js";
import { PolicyService } from "../policy/policyService.js";
import { presetInfo, refusalsOf } from "../policy/presets/presetSummary.js";
import { ExitCode, terminalIO, type CommandIO } from "./commandIO.js";

const HELP = `Usage: baton policy <preset|main> <toolName> '<input json>' [--cwd <dir>] [--orchestration] [--json]
       baton policy --list [--orchestration] [--json]
       baton policy --reset-presets

Prints the decision Baton's policy engine gives a tool call (allow, deny or ask), the rule that
decided and the message the model would get. The agent is a preset's name (coder, scout, …), any
other subagent type, or "main" for the main agent. The person's rules for the project in --cwd
(default: the current folder) apply; presets apply in orchestration mode (--orchestration, or
the setting saved by the app).

Options:
  --cwd <dir>       The session's working directory (its write root)
  --orchestration   Orchestration mode on, whatever the setting says
  --settings <file> Baton's settings file (presets.json and rules.json are beside it)
  --list            The presets in force and where they came from
  --reset-presets   Write the built-in presets to the presets file
  --json            {"decision": "...", "rule": "...", "message": "..."}
`;

export async function run(args: readonly string[], terminal: CommandIO): Promise<number> {
  const io = terminalIO(terminal);
  let values: { cwd?: string; orchestration?: boolean; settings?: string; list?: boolean; "reset-presets"?: boolean; json?: boolean; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...args],
      options: {
        cwd: { type: "string" },
        orchestration: { type: "boolean" },
        settings: { type: "string" },
        list: { type: "boolean" },
        "reset-presets": { type: "boolean" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: true,
    }));
  } catch (error) {
    io.stderr(`baton policy: ${error instanceof Error ? error.message : String(error)}\n\n${HELP}`);
    return ExitCode.usage;
  }
  if (values.help === true) {
    io.stdout(HELP);
    return ExitCode.ok;
  }
  const service = await PolicyService.open({
    settingsFile: path.resolve(values.settings ?? defaultSettingsFile()),
    ...(values.orchestration === true ? { orchestration: true } : {}),
    log: (_level, message) => io.stderr(`baton policy: ${message}\n`),
  });
  if (values["reset-presets"] === true) {
    const set = await service.resetPresets();
    io.stdout(`The built-in presets are back in ${set.source === "built-in" ? "force" : set.source}.\n`);
    return ExitCode.ok;
  }
  if (values.list === true) {
    const files = otherFileProblems(service);
    io.stdout(values.json === true ? `${terminalJson({ ...presetList(service.presets, service.orchestration), ...files }, 2)}\n` : renderPresets(service.presets, service.orchestration, [files.rulesProblem, files.settingsProblem]));
    return ExitCode.ok;
  }
  const [who, toolName, inputText, ...rest] = positionals;
  if (who === undefined || toolName === undefined || inputText === undefined || rest.length > 0) {
    io.stderr(`baton policy: give the agent, the tool and its input\n\n${HELP}`);
    return ExitCode.usage;
  }
  const input = parseInput(inputText);
  if (typeof input === "string") {
    io.stderr(`baton policy: ${input}\n`);
    return ExitCode.usage;
  }
  const cwd = path.resolve(values.cwd ?? process.cwd());
  const verdict = decidePolicy(
    { agent: agentNamed(who), toolName, input },
    policyContext({ orchestration: service.orchestration, presets: service.presets, rules: service.rules?.rulesFor("", cwd) ?? [], cwd, home: process.env["HOME"] ?? "/" }),
  );
  io.stdout(values.json === true ? `${terminalJson(verdict)}\n` : renderVerdict(verdict));
  return ExitCode.ok;
}

function agentNamed(who: string): PolicyAgent {
  return who === "main" ? { kind: "main" } : { kind: "subagent", agentType: who };
}

function parseInput(text: string): JsonObject | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `the input is not JSON (${error instanceof Error ? error.message : String(error)})`;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "the input must be a JSON object, e.g. '{\"command\":\"git log\"}'";
  return value as JsonObject;
}

function renderVerdict(verdict: PolicyVerdict): string {
  return `${verdict.decision}\nrule: ${terminalText(verdict.rule)}\nmessage: ${terminalText(verdict.message)}\n`;
}

function presetList(set: PresetSet, orchestration: boolean) {
  return {
    orchestration,
    source: set.source,
    ...(set.problem !== undefined ? { problem: set.problem } : {}),
    presets: set.presets.map((p) => ({ name: p.name, character: p.character, description: p.description, tools: p.tools, exec: p.exec, npm: presetInfo(p, set).npm, write: p.write, network: p.network, spawns: p.spawns })),
    refused: set.refused,
    // What no pattern can say (npmCommands.ts): npx of a package the project lacks, options that move npm.
    npmRules: NpmRules,
  };
}

/** Beside the presets' own problem: why rules.json or settings.json is not in force (not the person's alone, broken). */
function otherFileProblems(service: PolicyService): { rulesProblem?: string; settingsProblem?: string } {
  const { rulesProblem, settingsProblem } = service.summary();
  return { ...(rulesProblem !== undefined ? { rulesProblem } : {}), ...(settingsProblem !== undefined ? { settingsProblem } : {}) };
}

function renderPresets(set: PresetSet, orchestration: boolean, fileProblems: readonly (string | undefined)[]): string {
  const lines = [`Presets from ${set.source}; orchestration mode is ${orchestration ? "on" : "off"}.`];
  for (const problem of [set.problem, ...fileProblems]) if (problem !== undefined) lines.push(`Problem: ${problem}`);
  for (const p of set.presets) {
    lines.push("", `${p.name} (${p.character}): ${p.description}`);
    lines.push(`  tools: ${p.tools.join(", ")}`);
    lines.push(`  exec: ${p.exec.length === 0 ? "none" : p.exec.join("; ")}`);
    const npm = presetInfo(p, set).npm;
    lines.push(`  npm: ${npm.length === 0 ? "none" : npm.join("; ")}`);
    lines.push(`  write: ${writeScope(p.write)}`);
    lines.push(`  network: ${networkScope(p.network)}`);
    lines.push(`  spawns: ${p.spawns.length === 0 ? "none" : p.spawns.join(", ")}`);
  }
  lines.push("", "Refused for every preset:", ...refusalsOf(set).map((r) => `  ${r.what}: ${r.reason}`));
  return `${lines.map((l) => terminalText(l)).join("\n")}\n`;
}
