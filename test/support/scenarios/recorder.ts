// Runs one scenario against the real CLI through ClaudeClient and writes its recording:
// stream.jsonl / stdin.jsonl per run (run N > 1: stream.runN.jsonl), projects/ (the CLI's
// history tree), meta.json (with the `cliVersion` the binary reports). Machine paths are
// rewritten to /home/user/… everywhere. A run ends only once the session is idle (sessionIdle.ts):
// 2.1.332's background agents die when stdin closes under them.

import fs from "node:fs/promises";
import path from "node:path";
import type { ClaudeClient, ClaudeClientOptions } from "../../../src/main/cli/claudeClient.js";
import { openSession, type Session } from "./harness.js";
import { createPathRewriter, leftovers, type PathRewriter } from "./neutralPaths.js";
import { SessionIdleTracker, waitForIdle } from "./sessionIdle.js";
import type { Scenario, ScenarioContext } from "./types.js";

interface RunRecord {
  readonly run: number;
  readonly stdout: string[];
  readonly stdin: string[];
  readonly idle: SessionIdleTracker;
  args: readonly string[];
  exit?: { code: number | null; signal: string | null; requested: boolean };
  sessionId?: string;
}

export interface RecordResult {
  readonly dir: string;
  readonly runs: number;
  readonly files: number;
  readonly bytes: number;
}

export interface RecordTarget {
  /** The `claude` binary to run, passed explicitly (never looked up on PATH). */
  readonly claudePath: string;
  /** What `claudePath --version` said; goes into meta.json. */
  readonly cliVersion: string;
}

const SCENARIO_TIMEOUT_MS = 120_000;
/** How long a run may take to become idle after its scenario is done (background agents finishing). */
const IDLE_TIMEOUT_MS = 60_000;

export async function recordScenario(scenario: Scenario, outRoot: string, repoRoot: string, target: RecordTarget): Promise<RecordResult> {
  const session = await openSession(scenario.script, { ...scenario.options, claudePath: target.claudePath, cwdName: scenario.name });
  const runs: RunRecord[] = [];
  try {
    let client = startRecordedClient(session, runs, {});
    await client.start();
    const ctx: ScenarioContext = {
      log: session.log,
      server: session.server,
      cwd: session.env.cwd,
      get client() {
        return client;
      },
      turn: (text) => session.turn(text),
      async resume(extra = {}) {
        const sessionId = client.sessionId;
        if (!sessionId) throw new Error("cannot resume: no session id yet");
        await finishRun(client, runs.at(-1)!);
        client = startRecordedClient(session, runs, { ...extra, resume: sessionId });
        await client.start();
      },
    };
    await withTimeout(scenario.drive(ctx), SCENARIO_TIMEOUT_MS, `scenario ${scenario.name}`);
    await finishRun(client, runs.at(-1)!);

    const realRoot = path.dirname(path.dirname(session.env.home));
    const rewrite = createPathRewriter(session.env.home, "/home/user", [realRoot, repoRoot]);
    const dir = path.join(outRoot, scenario.name);
    await fs.rm(dir, { recursive: true, force: true });
    await fs.mkdir(dir, { recursive: true });
    const written = await writeRecording(dir, scenario, session, runs, rewrite, target.cliVersion);
    return { dir, runs: runs.length, ...written };
  } finally {
    await session.close();
  }
}

function startRecordedClient(session: Session, runs: RunRecord[], extra: Partial<ClaudeClientOptions>): ClaudeClient {
  const record: RunRecord = { run: runs.length + 1, stdout: [], stdin: [], idle: new SessionIdleTracker(), args: [] };
  runs.push(record);
  const client = session.newClient({
    ...extra,
    tap: {
      stdoutLine: (line) => {
        record.stdout.push(line);
        record.idle.stdout(line);
      },
      stdinLine: (line) => {
        record.stdin.push(line);
        record.idle.stdin(line);
      },
    },
  });
  return client;
}

async function finishRun(client: ClaudeClient, record: RunRecord): Promise<void> {
  // Closing stdin is what stop() does first; wait until nothing is left for it to cut off.
  await waitForIdle(record.idle, () => !client.running, IDLE_TIMEOUT_MS).catch((error: Error) => {
    throw new Error(`run ${record.run}: ${error.message}`);
  });
  const exit = await client.stop();
  record.args = client.spawnArgs;
  record.exit = { code: exit.code, signal: exit.signal, requested: exit.requested };
  if (client.sessionId) record.sessionId = client.sessionId;
}

async function writeRecording(
  dir: string,
  scenario: Scenario,
  session: Session,
  runs: readonly RunRecord[],
  rewrite: PathRewriter,
  cliVersion: string,
): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  const write = async (relative: string, content: string) => {
    const text = rewrite(content);
    const left = leftovers(rewrite, text);
    if (left.length) throw new Error(`machine path left in ${relative}: ${left.join(", ")}`);
    const target = path.join(dir, rewrite(relative));
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, text);
    files++;
    bytes += Buffer.byteLength(text);
  };
  const lines = (list: readonly string[]) => (list.length ? list.join("\n") + "\n" : "");

  for (const run of runs) {
    const suffix = run.run === 1 ? "" : `.run${run.run}`;
    await write(`stream${suffix}.jsonl`, lines(run.stdout));
    await write(`stdin${suffix}.jsonl`, lines(run.stdin));
  }
  for (const file of await listFiles(session.env.projectsDir)) {
    await write(path.join("projects", file), await fs.readFile(path.join(session.env.projectsDir, file), "utf8"));
  }
  const init = session.log.of("session_init")[0];
  if (init?.cliVersion !== undefined && init.cliVersion !== cliVersion) {
    throw new Error(`the CLI said --version ${cliVersion} but its system/init says ${init.cliVersion}`);
  }
  const meta = {
    name: scenario.name,
    description: scenario.description,
    cliVersion,
    home: session.env.home,
    cwd: session.env.cwd,
    runs: runs.map((r) => ({
      run: r.run,
      args: r.args,
      exit: r.exit ?? null,
      sessionId: r.sessionId ?? null,
      stdoutLines: r.stdout.length,
      stdinLines: r.stdin.length,
    })),
    sessionIds: [...new Set(runs.flatMap((r) => (r.sessionId ? [r.sessionId] : [])))],
    modelRequests: session.server.requests.map((r) => ({ n: r.n, agent: r.agent, turn: r.turn, reply: r.reply })),
  };
  await write("meta.json", JSON.stringify(meta, null, 2) + "\n");
  return { files, bytes };
}

/** Files under `root`, relative, sorted. */
async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) out.push(path.relative(root, full));
    }
  };
  await walk(root);
  return out.sort();
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
