// Proves the scripted model server and the CLI env against the real `claude` CLI: a delegated
// subagent runs a Bash call, a failing turn is retried, and partial messages stream.

import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { claudeBinaryPath, createCliEnv, type CliEnv } from "../support/cliEnv.js";
import { startModelServer, type ModelServer, type Script } from "../support/modelServer.js";

type Line = Record<string, unknown> & { type: string; subtype?: string };

interface CliRun {
  readonly lines: readonly Line[];
  readonly exitCode: number | null;
  readonly stderr: string;
}

const BASE_ARGS = [
  "-p",
  "--output-format",
  "stream-json",
  "--input-format",
  "stream-json",
  "--verbose",
  "--permission-mode",
  "bypassPermissions",
];

function userLine(text: string): string {
  const msg = { type: "user", message: { role: "user", content: text }, parent_tool_use_id: null, session_id: "" };
  return JSON.stringify(msg) + "\n";
}

/** Runs the CLI with one user message and closed stdin; resolves when it exits. */
function runCli(env: CliEnv, prompt: string, extraArgs: readonly string[] = []): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(env.claudePath, [...BASE_ARGS, ...extraArgs], {
      cwd: env.cwd,
      env: env.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (exitCode) => {
      const lines = stdout
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l) as Line);
      resolve({ lines, exitCode, stderr });
    });
    child.stdin.end(userLine(prompt));
  });
}

function contentOf(line: Line): readonly Record<string, unknown>[] {
  const message = line["message"] as { content?: unknown } | undefined;
  return Array.isArray(message?.content) ? (message.content as Record<string, unknown>[]) : [];
}

const cliPresent = fs.existsSync(claudeBinaryPath());
if (!cliPresent) console.warn("skipping modelServer CLI tests: node_modules/.bin/claude is missing");

describe.skipIf(!cliPresent)("scripted model server with the real CLI", () => {
  let server: ModelServer | undefined;
  let env: CliEnv | undefined;

  afterEach(async () => {
    await server?.close();
    await env?.cleanup();
    server = undefined;
    env = undefined;
  });

  async function setup(script: Script, cwdName: string): Promise<{ server: ModelServer; env: CliEnv }> {
    server = await startModelServer(script);
    env = await createCliEnv({ baseUrl: server.url, cwdName });
    return { server, env };
  }

  it("serves a main agent that delegates to a subagent running Bash", async () => {
    const script: Script = {
      main: [
        {
          blocks: [
            {
              type: "tool_use",
              name: "Agent",
              input: {
                description: "Echo via subagent",
                prompt: "[[SUB-A]] run echo hello-from-sub",
                subagent_type: "general-purpose",
                // Foreground, so the main turn waits for the report (2.1.332 backgrounds an unset call).
                run_in_background: false,
              },
            },
          ],
        },
        { blocks: [{ type: "text", text: "All done: the subagent echoed." }] },
      ],
      "SUB-A": [
        {
          blocks: [
            { type: "thinking", thinking: "I should run the echo." },
            { type: "tool_use", name: "Bash", input: { command: "echo hello-from-sub", description: "Echo a greeting" } },
          ],
        },
        { blocks: [{ type: "text", text: "Sub finished: saw hello-from-sub." }] },
      ],
    };
    const { server, env } = await setup(script, "delegate");
    const run = await runCli(env, "please delegate this");

    expect(run.exitCode, run.stderr).toBe(0);
    const { lines } = run;
    expect(lines.some((l) => l.type === "system" && l.subtype === "init")).toBe(true);
    const agentCall = lines
      .filter((l) => l.type === "assistant")
      .flatMap(contentOf)
      .find((b) => b["type"] === "tool_use" && b["name"] === "Agent");
    expect(agentCall?.["id"]).toBe("toolu_main_t0_0");
    const agentId = agentCall?.["id"];
    expect(lines.some((l) => l.subtype === "task_started" && l["tool_use_id"] === agentId)).toBe(true);

    const subBash = lines.find(
      (l) =>
        l.type === "assistant" &&
        l["parent_tool_use_id"] === agentId &&
        contentOf(l).some((b) => b["type"] === "tool_use" && b["name"] === "Bash"),
    );
    expect(subBash).toBeDefined();
    const bashResult = lines
      .filter((l) => l.type === "user" && l["parent_tool_use_id"] === agentId)
      .flatMap(contentOf)
      .find((b) => b["type"] === "tool_result" && b["tool_use_id"] === "toolu_SUB-A_t0_1");
    expect(JSON.stringify(bashResult?.["content"])).toContain("hello-from-sub");

    const result = lines.find((l) => l.type === "result");
    expect(result?.subtype).toBe("success");
    expect(result?.["is_error"]).toBe(false);
    expect(result?.["result"]).toBe("All done: the subagent echoed.");

    // History lands in the isolated HOME, named by the session id from init.
    const sessionId = lines.find((l) => l.subtype === "init")?.["session_id"];
    const [projectDir, ...others] = fs.readdirSync(env.projectsDir);
    expect(others).toEqual([]);
    expect(fs.existsSync(path.join(env.projectsDir, projectDir ?? "", `${String(sessionId)}.jsonl`))).toBe(true);

    const served = server.requests.filter((r) => r.kind === "agent").map((r) => `${r.agent}/${r.turn}`);
    expect(served).toEqual(["main/0", "SUB-A/0", "SUB-A/1", "main/1"]);
    expect(server.requests.every((r) => !r.unscripted)).toBe(true);
  });

  it("fails a turn once with a 500 so the CLI retries and then succeeds", async () => {
    const script: Script = {
      main: [{ error: { status: 500, times: 1 }, blocks: [{ type: "text", text: "Recovered after retry." }] }],
    };
    const { server, env } = await setup(script, "retry");
    const run = await runCli(env, "hello");

    expect(run.exitCode, run.stderr).toBe(0);
    const retry = run.lines.find((l) => l.type === "system" && l.subtype === "api_retry");
    expect(retry?.["error_status"]).toBe(500);
    const result = run.lines.find((l) => l.type === "result");
    expect(result?.["is_error"]).toBe(false);
    expect(result?.["result"]).toBe("Recovered after retry.");
    const mainTurns = server.requests.filter((r) => r.agent === "main").map((r) => r.outcome);
    expect(mainTurns).toEqual(["error", "served"]);
  });

  it("streams a text turn as stream_event lines with --include-partial-messages", async () => {
    const text = "Streaming answer in several pieces.";
    const script: Script = { main: [{ chunkDelayMs: 20, blocks: [{ type: "text", text }] }] };
    const { env } = await setup(script, "partial");
    const run = await runCli(env, "stream please", ["--include-partial-messages"]);

    expect(run.exitCode, run.stderr).toBe(0);
    const events = run.lines
      .filter((l) => l.type === "stream_event")
      .map((l) => l["event"] as { type: string; delta?: { type: string; text?: string } });
    expect(events[0]?.type).toBe("message_start");
    expect(events.at(-1)?.type).toBe("message_stop");
    const deltas = events.filter((e) => e.delta?.type === "text_delta");
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((e) => e.delta?.text).join("")).toBe(text);
    expect(run.lines.find((l) => l.type === "result")?.["result"]).toBe(text);
  });
});
