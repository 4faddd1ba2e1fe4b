// Speed of the policy engine: a whole decision (decidePolicy: the person's rules, the preset's
// sandbox with its exec policy and write root, as the PreToolUse hook runs it) over ≥ 10,000
// real-looking Bash lines (commandCorpus.ts), each asked as one of the built-in presets in turn.
// Target: p99 ≤ 1 ms per decision, so the PreToolUse hook never slows a tool call noticeably.
// Then the lines built to make it work hard (pathologicalCorpus.ts: huge heredocs, deep nesting,
// long pipelines, many expansions, repairs, shells in shells, many writes), by class, with the
// work units reading each took (shellBudget.ts). Target: no decision over 50 ms (issue 31).
// Every line is timed ROUNDS times; "fastest of rounds" keeps each line's best time, which filters
// out bursts of other load on a shared machine. Prints figures; it is not a test.
//
//   node --import tsx bench/policy/run.ts [lines]

import { builtinPresetSet } from "../../src/main/policy/presets/builtinPresets.js";
import os from "node:os";
import type { PermissionRule, PolicyVerdict } from "../../src/shared/policy.js";
import { decidePolicy, policyContext } from "../../src/main/policy/decidePolicy.js";
import { WORK_BUDGET } from "../../src/main/policy/shell/shellBudget.js";
import { readCommandLine } from "../../src/main/policy/shell/shellCommands.js";
import { loadShellParser } from "../../src/main/policy/shell/shellParser.js";
import { commandCorpus, recordedCommands } from "./commandCorpus.js";
import { pathologicalCorpus } from "./pathologicalCorpus.js";
import { tableRow } from "../tableRow.js";

const ROUNDS = 3;
const TARGET_P99_MS = 1;
const TARGET_WORST_MS = 50;

const size = Number(process.argv[2] ?? 12_000);
await loadShellParser();
const lines = commandCorpus({ size });
const presetSet = builtinPresetSet();
const allowlists = presetSet.presets.filter((p) => p.exec.length > 0);
// A person with a few rules of their own, as the engine meets them in every decision.
const rules: PermissionRule[] = ["deny Bash(git push:*)", "deny Bash(rm -rf:*)", "ask Bash(curl:*)", "allow Bash(pnpm test:*)", "allow Bash(go test:*)", "ask Edit(/secrets/**)"].map((text) => {
  const [behavior, rule] = [text.slice(0, text.indexOf(" ")), text.slice(text.indexOf(" ") + 1)];
  return { behavior: behavior as PermissionRule["behavior"], rule, scope: "everywhere", origin: "bench", createdAt: new Date(0).toISOString() };
});
const cwd = os.tmpdir();
const context = policyContext({ orchestration: true, presets: presetSet, rules, cwd, home: os.homedir() });

function decide(command: string, i: number): PolicyVerdict {
  const agentType = allowlists[i % allowlists.length]!.name;
  return decidePolicy({ agent: { kind: "subagent", agentId: "a0000000000000000", agentType }, toolName: "Bash", input: { command } }, context);
}

function judge(i: number): PolicyVerdict {
  return decide(lines[i]!, i);
}

for (let i = 0; i < lines.length; i++) judge(i); // warm-up: JIT and wasm

const best = new Float64Array(lines.length).fill(Infinity);
const all: number[] = [];
let wall = 0;
const outcomes = new Map<string, number>();
for (let round = 0; round < ROUNDS; round++) {
  const started = performance.now();
  for (let i = 0; i < lines.length; i++) {
    const t = performance.now();
    const verdict = judge(i);
    const took = performance.now() - t;
    all.push(took);
    if (took < best[i]!) best[i] = took;
    if (round === 0) {
      const key = verdict.decision === "deny" ? `deny (${verdict.rule.replace(/^preset:[^/]+\//, "")})` : verdict.decision;
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    }
  }
  wall += performance.now() - started;
}

function quantile(sorted: ArrayLike<number>, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const sortedAll = all.sort((a, b) => a - b);
const sortedBest = Array.from(best).sort((a, b) => a - b);
const slowest = Array.from(best.keys()).reduce((a, b) => (best[a]! >= best[b]! ? a : b));
const ms = (n: number): string => `${n.toFixed(3)} ms`;

console.log(`corpus: ${lines.length} lines (${recordedCommands().length} recorded commands, the rest mutated), presets: ${allowlists.map((p) => p.name).join(", ")}`);
console.log(`verdicts: ${[...outcomes].map(([k, v]) => `${k} ${v}`).join(", ")}`);
console.log(`throughput: ${Math.round((lines.length * ROUNDS) / (wall / 1000))} decisions/s`);
console.log(`every decision (${ROUNDS} rounds): p50 ${ms(quantile(sortedAll, 0.5))}  p99 ${ms(quantile(sortedAll, 0.99))}  max ${ms(sortedAll.at(-1)!)}`);
console.log(`fastest of rounds:        p50 ${ms(quantile(sortedBest, 0.5))}  p99 ${ms(quantile(sortedBest, 0.99))}  max ${ms(sortedBest.at(-1)!)} (${lines[slowest]!.length} chars)`);
const p99 = quantile(sortedBest, 0.99);
console.log(p99 <= TARGET_P99_MS ? `target met: p99 ≤ ${TARGET_P99_MS} ms` : `TARGET MISSED: p99 ${ms(p99)} > ${TARGET_P99_MS} ms`);
const normalWork = lines.map((line) => readCommandLine(line).work ?? 0).sort((a, b) => a - b);
console.log(`work units of these lines: p50 ${quantile(normalWork, 0.5)}  p99 ${quantile(normalWork, 0.99)}  max ${normalWork.at(-1)} (budget ${WORK_BUDGET})`);

// ---- lines built to make the engine work hard ----
const hard = pathologicalCorpus();
for (let i = 0; i < hard.length; i++) decide(hard[i]!.line, i); // warm-up
const classes = new Map<string, { times: number[]; works: number[]; refused: number; slowest: { ms: number; length: number } }>();
for (let i = 0; i < hard.length; i++) {
  const { kind, line } = hard[i]!;
  let fastest = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    const t = performance.now();
    decide(line, i);
    fastest = Math.min(fastest, performance.now() - t);
  }
  const reading = readCommandLine(line);
  const entry = classes.get(kind) ?? { times: [], works: [], refused: 0, slowest: { ms: 0, length: 0 } };
  entry.times.push(fastest);
  entry.works.push(reading.work ?? 0);
  if (!reading.ok && reading.reason.startsWith("too complex")) entry.refused++;
  if (fastest > entry.slowest.ms) entry.slowest = { ms: fastest, length: line.length };
  classes.set(kind, entry);
}
console.log(`\nhard lines: ${hard.length} in ${classes.size} classes, fastest of ${ROUNDS} rounds per line (ms), work units, refused as too complex`);
let worst = { ms: 0, kind: "", length: 0 };
for (const [kind, { times, works, refused, slowest }] of classes) {
  const sorted = [...times].sort((a, b) => a - b);
  console.log(`  ${kind.padEnd(34)} p50 ${ms(quantile(sorted, 0.5)).padStart(10)}  p99 ${ms(quantile(sorted, 0.99)).padStart(10)}  worst ${ms(sorted.at(-1)!).padStart(10)} (${slowest.length} chars)  work ≤ ${Math.max(...works)}  refused ${refused}/${times.length}`);
  if (slowest.ms > worst.ms) worst = { ms: slowest.ms, kind, length: slowest.length };
}
const allHard = [...classes.values()].flatMap((c) => c.times).sort((a, b) => a - b);
console.log(`  all hard lines: p50 ${ms(quantile(allHard, 0.5))}  p99 ${ms(quantile(allHard, 0.99))}  worst ${ms(worst.ms)} (${worst.kind}, ${worst.length} chars)`);
console.log(worst.ms <= TARGET_WORST_MS ? `target met: no decision over ${TARGET_WORST_MS} ms` : `TARGET MISSED: a decision took ${ms(worst.ms)} > ${TARGET_WORST_MS} ms`);
console.log(tableRow(`worst decision over ${hard.length} hard lines, fastest of ${ROUNDS} rounds`, `${ms(worst.ms)} (${worst.kind})`, `≤ ${TARGET_WORST_MS} ms`));
console.log(tableRow(`p99 per decision, fastest of ${ROUNDS} rounds (${lines.length} lines)`, ms(p99), `≤ ${TARGET_P99_MS} ms`));
