// `npm run record -- <scenario…|all>`: runs scenarios (test/support/scenarios) against the real
// `claude` CLI and the scripted model server through Baton's ClaudeClient, and writes
// fixtures/recordings/<scenario>/. See test/support/scenarios/recorder.ts for the layout.

import path from "node:path";
import { fileURLToPath } from "node:url";
import { findScenario, SCENARIOS } from "../test/support/scenarios/index.js";
import { recordScenario } from "../test/support/scenarios/recorder.js";
import type { Scenario } from "../test/support/scenarios/types.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outRoot = path.join(repoRoot, "fixtures", "recordings");

function usage(): string {
  return [
    "Usage: npm run record -- <scenario…|all>",
    "",
    "Scenarios:",
    ...SCENARIOS.map((s) => `  ${s.name.padEnd(22)} ${s.description}`),
    "",
  ].join("\n");
}

async function main(argv: readonly string[]): Promise<number> {
  if (argv.length === 0 || argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(usage());
    return argv.length === 0 ? 2 : 0;
  }
  const chosen: Scenario[] = [];
  for (const name of argv) {
    if (name === "all") chosen.push(...SCENARIOS);
    else {
      const scenario = findScenario(name);
      if (!scenario) {
        process.stderr.write(`record: unknown scenario "${name}"\n\n${usage()}`);
        return 2;
      }
      chosen.push(scenario);
    }
  }
  let failed = 0;
  for (const scenario of new Set(chosen)) {
    const started = Date.now();
    try {
      const result = await recordScenario(scenario, outRoot, repoRoot);
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
