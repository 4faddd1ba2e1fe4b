// What `baton hook` adds to every tool call of a `baton claude` session: `npm run bench:hook
// [-- --runs 60 --baton <bin>]`. Each call is what the CLI does: start `node bin/baton.mjs hook`,
// write a PreToolUse input to its stdin, read the answer; timed from spawn to the answer on stdout
// (the process's own exit after it is not waited for by the CLI's user). A real hook server in a
// private temp run folder answers "allow" at once, so the figure is the hook's own cost: Node's
// start, the bundle, the socket round trip. The fresh bundle runs (built first when stale).
// Target: p95 <= 100 ms.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startHookServer } from "../../src/main/terminal/hookServer.js";
import { ensureCliBuilt } from "../../test/support/cliBundle.js";
import { tableRow } from "../tableRow.js";

const { values } = parseArgs({ options: { runs: { type: "string", default: "60" }, baton: { type: "string" } } });
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const runs = Math.max(5, Math.floor(Number(values.runs)));
const bin = path.resolve(values.baton ?? path.join(repoRoot, "bin", "baton.mjs"));
if (values.baton === undefined) ensureCliBuilt();

const input = JSON.stringify({
  session_id: "bench-session",
  transcript_path: "/home/user/.claude/projects/-home-user-code-x/bench-session.jsonl",
  cwd: "/home/user/code/x",
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command: "ls -la", description: "List files" },
  tool_use_id: "toolu_bench",
});

/** One hook call: ms from spawn to the answer line on stdout. */
function call(env: NodeJS.ProcessEnv): Promise<{ ms: number; answer: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [bin, "hook"], { env, stdio: ["pipe", "pipe", "inherit"] });
    let out = "";
    let answered: number | undefined;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      if (answered === undefined && out.includes("\n")) answered = performance.now() - started;
    });
    child.on("error", reject);
    child.on("close", () => (answered === undefined ? reject(new Error(`no answer: ${out}`)) : resolve({ ms: answered, answer: out.trim() })));
    child.stdin.end(input);
  });
}

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

const runtime = fs.mkdtempSync(path.join(os.tmpdir(), "baton-bench-hook-"));
const started = await startHookServer({ folder: path.join(runtime, "baton"), handler: async () => ({ decision: "allow" }) });
if (!started.ok) throw new Error(started.error);
try {
  const env = { ...process.env, XDG_RUNTIME_DIR: runtime };
  const warm = await call(env);
  if (!warm.answer.includes('"permissionDecision":"allow"')) throw new Error(`the hook did not reach the server: ${warm.answer}`);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push((await call(env)).ms);
  const sorted = [...times].sort((a, b) => a - b);
  const p50 = percentile(sorted, 50);
  const p95 = percentile(sorted, 95);
  console.log(`baton hook, spawn → answer over ${runs} calls: p50 ${p50.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms`);
  console.log(`bare node -e '' for comparison: ${(await bareNode()).toFixed(0)} ms (median of 9)`);
  console.log(tableRow(`\`baton hook\` per tool call, spawn → answer, p50 / p95 of ${runs}`, `${p50.toFixed(0)} / ${p95.toFixed(0)} ms`, "p95 ≤ 100 ms"));
  if (p95 > 100) process.exitCode = 1;
} finally {
  await started.server.stop();
  fs.rmSync(runtime, { recursive: true, force: true });
}

/** A Node process that does nothing, spawn to exit: the floor under any hook written for Node. */
async function bareNode(): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 9; i++) {
    const t = performance.now();
    await new Promise((resolve) => spawn(process.execPath, ["-e", ""], { stdio: "ignore" }).on("close", resolve));
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[4]!;
}
