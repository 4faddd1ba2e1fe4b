// The five presets Baton ships (docs/features.md, "Orchestration mode"), each a character, tools,
// commands, a write root and the presets it may spawn, for Claude Code: its tool names, and npm's
// installs refused everywhere because every git worktree would get its own node_modules (each
// preset still runs the npm twins of its pnpm patterns, `npm test`, `npm run <script>`:
// npmCommands.ts). The presets file (presetsFile.ts) starts as a copy of these; the prompts are in
// presetPrompts.ts.

import { ReadOnlyCommands, type CommandPattern, type NetworkPattern, type Preset, type PresetSet, type RefusedCommand } from "../../../shared/policy.js";
import { batonToolId } from "../../mcp/batonTools.js";
import { NpmInstallCommands, NpmInstallReason } from "./npmCommands.js";
import { deliberatePrompt, exploratoryPrompt } from "./presetPrompts.js";

export const BUILT_IN_SOURCE = "built-in";

const SearchTools = ["Read", "Grep", "Glob"];
// Read-only and harmless, so every preset has them.
const WebTools = ["WebSearch", "WebFetch"];
const WriteTools = ["Edit", "Write", "MultiEdit", "NotebookEdit"];
// Baton's MCP tools (issue 24): a Deliberate preset asks the conductor and submits its plan through them.
const ConductorTools = [batonToolId("ask_conductor"), batonToolId("submit_plan")];

// Claude Code searches with Bash, so every preset with Bash may run the read-only commands
// (beforeApproval.ts, where a Deliberate preset is held to them until its plan is approved).

// Each preset's commands, one pattern per program and its allowed subcommands. `find` is left
// out of the read-only presets (`find -delete`, `-exec`). The analyst's `curl` and `wget` are back
// since the OS sandbox holds what they write (the analyst writes nothing but its temporary folder;
// the policy refuses `curl -o` and `wget -O` with a reason where it reads them) and lets them
// reach any host (issue 31); the scout reads the web with WebFetch.
const AnalystExec: readonly CommandPattern[] = [...ReadOnlyCommands, "go test|vet", "curl", "wget"];

const CoderExec: readonly CommandPattern[] = [
  ...ReadOnlyCommands,
  "go test|vet|fmt",
  "gofmt",
  "goimports",
  "golangci-lint",
  "prettier",
  "eslint",
  "black",
  "ruff",
  "cargo test|fmt|clippy",
  "pnpm test",
  "pnpm run test|lint|format",
  "bun test",
  "bun run test|lint|format",
  // Not `uv run` with anything after it, which would run any program at all: a coder runs
  // Python's test, lint and format tools through it.
  "uv run pytest|ruff|black|mypy",
];

const WorkerExec: readonly CommandPattern[] = [
  ...ReadOnlyCommands,
  "go",
  "pnpm install|add|run|test|build",
  "bun install|add|run|test|build",
  "uv run|sync|add",
  "uv pip install",
  "pip install",
  "cargo",
];

const CoordinatorExec: readonly CommandPattern[] = [...ReadOnlyCommands, "go", "pnpm", "bun", "curl", "wget"];

// What each preset's commands may reach over the network, enforced by the OS sandbox (issue 31):
// curl and wget need any host; a worker's installs need the package registries of its tools.
const AnyHost: readonly NetworkPattern[] = ["*"];
const PackageRegistries: readonly NetworkPattern[] = [
  // pnpm, bun
  "registry.npmjs.org",
  "registry.yarnpkg.com",
  // uv, pip
  "pypi.org",
  "files.pythonhosted.org",
  // cargo
  "crates.io",
  "index.crates.io",
  "static.crates.io",
  // go (modules through the proxy; the checksum database)
  "proxy.golang.org",
  "sum.golang.org",
  // git dependencies of cargo, go and pnpm
  "github.com",
  "codeload.github.com",
  "objects.githubusercontent.com",
];

// What npm would install (or remove, rebuild) is refused; `npx` and `npm exec` of a package the
// project does not have are refused by npmCommands.ts, which a pattern cannot say.
const Refused: readonly RefusedCommand[] = [
  { pattern: `npm ${NpmInstallCommands.join("|")}`, reason: NpmInstallReason },
  { pattern: "npm audit fix", reason: NpmInstallReason },
];

const scout = exploratory({
  name: "scout",
  description:
    "Read-only explorer: finds where things are in the code and on the web and reports back with paths and quotes. Runs only commands that read (ls, cat, grep, git log, …), changes nothing. Spawn several at once for independent questions.",
  role: "Your job is to look around and come back with findings: where things are, how they fit together, what the web says.",
  tools: [...SearchTools, "Bash", ...WebTools],
  exec: ReadOnlyCommands,
  network: [],
});

const analyst = exploratory({
  name: "analyst",
  description:
    "Read-only investigator: reads code, runs tests and vet, reads git history and diffs, and reports an analysis (why a test fails, what a change did). Changes nothing.",
  role: "Your job is to investigate and come back with an analysis: run the tests to see what fails, read the git history to see what changed, and explain why.",
  tools: [...SearchTools, "Bash", ...WebTools],
  exec: AnalystExec,
  network: AnyHost,
});

const coder = deliberate({
  name: "coder",
  description:
    "Writes and changes code inside the working directory and verifies it with the project's tests, linters and formatters. Does not add packages, touch CI or deploy (that is worker's). Returns a plan for review before it changes anything.",
  role: "You write code and verify it yourself with the project's tests, linters and formatters. Adding or upgrading packages, CI pipelines and deployment belong to the worker preset: when the task needs them, say so in your plan or report instead of trying.",
  tools: [...SearchTools, "Bash", ...WriteTools, "TodoWrite", ...WebTools, ...ConductorTools],
  exec: CoderExec,
  network: [],
});

const worker = deliberate({
  name: "worker",
  description:
    "Takes a task all the way, infrastructure included: installs packages (pnpm, bun, uv, pip, cargo, go), builds, runs any go or cargo command, edits CI configuration, inside the working directory. Returns a plan for review before it changes anything.",
  role: "You take the task all the way, infrastructure included: installing packages, builds, CI configuration. Install with pnpm or bun for JavaScript, uv or pip for Python, cargo and go for their own.",
  tools: [...SearchTools, "Bash", ...WriteTools, "TodoWrite", ...WebTools, ...ConductorTools],
  exec: WorkerExec,
  network: PackageRegistries,
});

const coordinator = deliberate({
  name: "coordinator",
  description:
    "Leads a sub-project: splits it into tasks, delegates them to scout, analyst, coder and worker subagents (never another coordinator) and puts their results together. Returns a plan for review before it starts.",
  role: [
    "You lead a piece of work too large for one agent: split it into tasks, delegate each to the right subagent with the Agent tool (`subagent_type`: scout or analyst to explore, coder to write code, worker for packages, builds and CI), and put their results together. You cannot spawn another coordinator: the tree stays shallow.",
    "Run independent tasks in the background (`run_in_background: true`), each in its own Agent call in the same message, and plan what comes next while they run. Coders and workers you start submit their plans and questions to the conductor through Baton (submit_plan, ask_conductor), as you do yours. Do small things yourself only when delegating would cost more than it saves.",
  ].join("\n\n"),
  tools: [...SearchTools, "Bash", ...WriteTools, "TodoWrite", "Agent", "SendMessage", ...WebTools, ...ConductorTools],
  exec: CoordinatorExec,
  network: AnyHost,
  spawns: ["scout", "analyst", "coder", "worker"],
});

const BuiltinPresets: readonly Preset[] = [scout, analyst, coder, worker, coordinator];

/** The presets Baton ships, in force when there is no presets file (or it is broken). */
export function builtinPresetSet(): PresetSet {
  return { presets: BuiltinPresets, refused: Refused, source: BUILT_IN_SOURCE };
}

interface PresetDraft {
  readonly name: string;
  readonly description: string;
  /** What the agent is for, in the second person: the heart of its prompt. */
  readonly role: string;
  readonly tools: readonly string[];
  readonly exec: readonly CommandPattern[];
  readonly network: readonly NetworkPattern[];
  readonly spawns?: readonly string[];
}

function exploratory(draft: PresetDraft): Preset {
  const { name, description, tools, exec, network } = draft;
  const prompt = exploratoryPrompt({ ...draft, refused: Refused });
  return { name, character: "exploratory", description, prompt, tools, exec, write: "none", network, spawns: draft.spawns ?? [] };
}

function deliberate(draft: PresetDraft): Preset {
  const { name, description, tools, exec, network } = draft;
  const prompt = deliberatePrompt({ ...draft, refused: Refused });
  return { name, character: "deliberate", description, prompt, tools, exec, write: "write-root", network, spawns: draft.spawns ?? [] };
}
