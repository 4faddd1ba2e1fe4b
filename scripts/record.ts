// `npm run record -- <scenario…|all> [--cli 2.1.332|2.1.197]`: runs scenarios
// (test/support/scenarios) against the real `claude` CLI of that version (default 2.1.332) and the
// scripted model server through Baton's ClaudeClient, and writes each recording into the set of the
// version the binary reports: fixtures/recordings/<scenario>/ for 2.1.197,
// fixtures/recordings-<version>/<scenario>/ otherwise. See test/support/scenarios/recorder.ts.

import path from "node:path";
import { fileURLToPath } from "node:url";
import { claudeVersion } from "../src/main/cli/claudeVersion.js";
import { findScenario, SCENARIOS } from "../test/support/scenarios/index.js";
import { recordScenario, type RecordTarget } from "../test/support/scenarios/recorder.js";
import type { Scenario } from "../test/support/scenarios/types.js";
import { fixtureRecordingsDirFor, isRecordingVersion, type RecordingVersion } from "../test/support/recordings.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Each installed CLI by its path, never through PATH (package.json: the devDependency and its npm alias). */
const CLI_PATHS: Readonly<Record<RecordingVersion, string>> = {
  "2.1.332": "node_modules/@anthropic-ai/claude-code/bin/claude.exe",
  "2.1.197": "node_modules/claude-code-2.1.197/bin/claude.exe",
};
const DEFAULT_CLI: RecordingVersion = "2.1.332";

function usage(): string {
  return [
    "Usage: npm run record -- <scenario…|all> [--cli 2.1.332|2.1.197]",
    "",
    `--cli  the CLI to record with (default ${DEFAULT_CLI}): ${Object.entries(CLI_PATHS).map(([v, p]) => `${v} = ${p}`).join(", ")}`,
    "",
    "Scenarios:",
    ...SCENARIOS.map((s) => `  ${s.name.padEnd(28)} ${s.description}`),
    "",
  ].join("\n");
}

type Parsed = { ok: true; scenarios: Scenario[]; cli: RecordingVersion } | { ok: false; error: string };

function parseArgs(argv: readonly string[]): Parsed {
  const chosen: Scenario[] = [];
  let cli: RecordingVersion = DEFAULT_CLI;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--cli") {
      const value = argv[++i];
      if (value === undefined || !isRecordingVersion(value)) return { ok: false, error: `--cli needs one of ${Object.keys(CLI_PATHS).join(", ")}` };
      cli = value;
    } else if (arg === "all") chosen.push(...SCENARIOS);
    else {
      const scenario = findScenario(arg);
      if (!scenario) return { ok: false, error: `unknown scenario "${arg}"` };
      chosen.push(scenario);
    }
  }
  if (chosen.length === 0) return { ok: false, error: "no scenario given" };
  return { ok: true, scenarios: [...new Set(chosen)], cli };
}

/** The binary for `cli`, and the version it reports (which must be the one asked for). */
async function resolveTarget(cli: RecordingVersion): Promise<{ ok: true; target: RecordTarget } | { ok: false; error: string }> {
  const claudePath = path.join(repoRoot, CLI_PATHS[cli]);
  const version = await claudeVersion(claudePath);
  if (!version.ok) return { ok: false, error: `${claudePath} --version failed: ${version.reason}` };
  if (version.version !== cli) return { ok: false, error: `${claudePath} says it is ${version.version}, not ${cli}` };
  return { ok: true, target: { claudePath, cliVersion: version.version } };
}

async function main(argv: readonly string[]): Promise<number> {
  if (argv.length === 0 || argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(usage());
    return argv.length === 0 ? 2 : 0;
  }
  const parsed = parseArgs(argv);
  if (!parsed.ok) {
    process.stderr.write(`record: ${parsed.error}\n\n${usage()}`);
    return 2;
  }
  const resolved = await resolveTarget(parsed.cli);
  if (!resolved.ok) {
    process.stderr.write(`record: ${resolved.error}\n`);
    return 1;
  }
  const { target } = resolved;
  const outRoot = fixtureRecordingsDirFor(parsed.cli);
  process.stdout.write(`recording with claude ${target.cliVersion} (${path.relative(repoRoot, target.claudePath)}) into ${path.relative(repoRoot, outRoot)}/\n`);
  let failed = 0;
  for (const scenario of parsed.scenarios) {
    const started = Date.now();
    try {
      const result = await recordScenario(scenario, outRoot, repoRoot, target);
      const kb = (result.bytes / 1024).toFixed(1);
      process.stdout.write(
        `recorded ${scenario.name}: ${result.runs} run(s), ${result.files} files, ${kb} KiB in ${Date.now() - started} ms → ${path.relative(repoRoot, result.dir)}\n`,
      );
    } catch (error) {
      failed++;
      process.stderr.write(`record: ${scenario.name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    }
  }
  return failed ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
