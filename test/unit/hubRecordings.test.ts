// Every recorded CLI run, replayed through parser → mapper → hub, checked against what the
// recording itself says (counted from its lines, not hard-coded).

import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isAgentToolCall } from "../../src/shared/transcript.js";
import { modelOf } from "../../src/main/hub/index.js";
import { DiskMapper } from "../../src/main/history/index.js";
import { listRecordings, warnIfNoRecordings } from "../support/recordings.js";
import { allCalls, recordOf, replayRecording, systemLines, toolResults, toolUses, type Replayed } from "./hubTestKit.js";

const skip = warnIfNoRecordings("hubRecordings");
type Usage = { total_tokens?: number; tool_uses?: number };
const allRecords = (t: Parameters<typeof allCalls>[0]) => allCalls(t).flatMap((c) => (c.call.subagent === undefined ? [] : [c.call.subagent]));
/** The texts of a line's message: its string content, or its text blocks. */
const textsOf = (line: Record<string, unknown>): string[] => {
  const content = (line.message as { content?: string | { type: string; text?: string }[] } | undefined)?.content ?? [];
  if (typeof content === "string") return [content];
  return content.flatMap((b) => (b.type === "text" && b.text !== undefined ? [b.text] : []));
};
const runs: Replayed[] = skip ? [] : listRecordings().flatMap(replayRecording);

/** Where a recording's history (its projects/ tree) says an agent sits. */
interface Placement {
  readonly taskId: string;
  /** The Agent call that started it (its sidechain's meta.json `toolUseId`). */
  readonly toolUseId: string;
  readonly spawnDepth: number;
  /** The Agent call whose sidechain holds that call; null when a main transcript holds it; undefined when no file does. */
  readonly parent: string | null | undefined;
}

/** Every sidechain's placement, from its meta.json and from which transcript holds its Agent call; undefined without a projects/ tree. */
function placementsOnDisk(dir: string): Placement[] | undefined {
  const root = path.join(dir, "projects");
  if (!existsSync(root)) return undefined;
  const holder = new Map<string, string | null>();
  const agents: Omit<Placement, "parent">[] = [];
  for (const file of readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl"))) {
    const taskId = /^agent-(\w+)\.jsonl$/.exec(path.basename(file))?.[1];
    const metaFile = path.join(root, file.replace(/\.jsonl$/, ".meta.json"));
    const meta = taskId !== undefined && existsSync(metaFile) ? (JSON.parse(readFileSync(metaFile, "utf8")) as { toolUseId: string; spawnDepth: number }) : undefined;
    if (taskId !== undefined && meta === undefined) continue; // a sidechain no meta.json names: nothing to place it by
    // An agent a Workflow script ran: no Agent call started it (its meta names none); the Workflow's card stands for it.
    if (meta !== undefined && meta.toolUseId === undefined) continue;
    if (taskId !== undefined && meta !== undefined) agents.push({ taskId, toolUseId: meta.toolUseId, spawnDepth: meta.spawnDepth });
    const lines = readFileSync(path.join(root, file), "utf8").split("\n").filter((l) => l.trim() !== "");
    for (const use of toolUses(lines.map((l) => JSON.parse(l) as Record<string, any>).filter((l) => Array.isArray(l.message?.content)))) {
      holder.set(use.id, meta?.toolUseId ?? null);
    }
  }
  return agents.map((a) => ({ ...a, parent: holder.get(a.toolUseId) }));
}

/** The tool_use ids in the sidechain of agent `taskId`, in the recording a run label names (none without a projects tree). */
function sidechainCallIds(label: string, taskId: string): Set<string> {
  const recording = listRecordings().find((rec) => rec.name === label.split("/")[0]);
  const projects = recording === undefined ? "" : path.join(recording.dir, "projects");
  const name = `agent-${taskId}.jsonl`;
  const files = taskId === "" || !existsSync(projects) ? [] : (readdirSync(projects, { recursive: true }) as string[]).filter((f) => path.basename(f) === name);
  return new Set(files.flatMap((f) => toolUses(readFileSync(path.join(projects, f), "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>)).map((u) => u.id)));
}

describe.skipIf(skip)("hub on every recording", () => {
  it.each(runs.map((r) => [r.label, r] as const))("%s: no subagent line reaches the top level", (_label, r) => {
    const subagentUuids = new Set(r.lines.filter((l) => typeof l.parent_tool_use_id === "string").map((l) => l.uuid as string));
    const subagentToolIds = new Set(toolUses(r.lines).filter((u) => u.parent !== null).map((u) => u.id));
    for (const block of r.transcript.blocks) {
      expect(subagentToolIds.has(block.id), block.id).toBe(false);
      expect(subagentUuids.has(block.id.split(":")[0] ?? ""), block.id).toBe(false);
    }
    // Interrupt markers have no id of their own: count them. A subagent's marker is not the conductor's.
    const isMarker = (text: string | undefined): boolean => text?.startsWith("[Request interrupted") === true;
    const conductorMarkers = r.lines.filter((l) => l.type === "user" && l.parent_tool_use_id === null && textsOf(l).some(isMarker));
    expect(r.transcript.blocks.filter((b) => b.kind === "notice" && isMarker(b.text))).toHaveLength(conductorMarkers.length);
  });

  it.each(runs.map((r) => [r.label, r] as const))("%s: each Agent record holds exactly its subagent's tool calls, with results", (_label, r) => {
    const uses = toolUses(r.lines);
    const results = new Map(toolResults(r.lines).map((x) => [x.id, x]));
    // Agent calls made at depth ≥ 2 never reach stdout: only their task events name them. Each
    // belongs to the agent whose sidechain holds it.
    const seen = new Set(uses.map((u) => u.id));
    const unseen = systemLines(r.lines, "task_started").flatMap((t) => (t.task_type !== "local_bash" && !seen.has(t.tool_use_id as string) ? [t.tool_use_id as string] : []));
    const agents = [...uses.filter((u) => isAgentToolCall(u.name, u.input)).map((u) => u.id), ...unseen];
    for (const agentId of agents) {
      const record = recordOf(r.transcript, agentId);
      expect(record, agentId).toBeDefined();
      const nestedIds = record?.blocks.filter((b) => b.kind === "tool").map((b) => b.id) ?? [];
      const madeUnseen = unseen.filter((id) => sidechainCallIds(r.label, record?.taskId ?? "").has(id));
      expect(nestedIds).toEqual([...uses.filter((u) => u.parent === agentId).map((u) => u.id), ...madeUnseen]);
      for (const id of nestedIds) {
        const call = r.model.findToolCall(id);
        const result = results.get(id);
        // A call whose result never came was stopped, unless it is an Agent call whose subagent finished: its status.
        const finished = call?.subagent !== undefined && call.subagent.status !== "running";
        if (result === undefined) expect(call?.status).toBe(finished ? call?.subagent?.status : "stopped");
        else expect(call?.result?.isError).toBe(result.isError);
      }
    }
  });

  it.each(runs.map((r) => [r.label, r] as const))("%s: progress, totals and summary reach the card", (_label, r) => {
    const started = systemLines(r.lines, "task_started").filter((t) => t.task_type !== "local_bash");
    const finals = new Map(toolResults(r.lines).map((x) => [x.id, x]));
    // A task's first task_started names its Agent call; a later one (same task id) is a run that
    // SendMessage resumed, and its task events name the SendMessage call, or on 2.1.332 the Agent
    // call again for a message queued to a background agent (docs/protocol-notes.md "Subagents").
    for (const task of started.filter((t, i) => started.findIndex((u) => u.task_id === t.task_id) === i)) {
      const record = recordOf(r.transcript, task.tool_use_id);
      expect(record?.taskId).toBe(task.task_id);
      expect(record?.description).toBe(task.description);
      const events = r.lines.filter((l) => l.type === "system" && l.task_id === task.task_id);
      const progress = events.filter((p) => p.subtype === "task_progress").at(-1);
      if (progress !== undefined) {
        expect(record?.progressLine).toBe(progress.description);
        expect(record?.lastToolName).toBe(progress.last_tool_name);
      }
      const structured = finals.get(task.tool_use_id)?.structured as Record<string, unknown> | undefined;
      // A subagent whose answer is a synthetic API error failed, whatever the envelope says.
      const apiError = (structured?.content as { text: string }[] | undefined)?.some((c) => c.text.startsWith("API Error"));
      if (structured?.status === "completed" && apiError) expect(record?.status).toBe("failed");
      if (structured?.status === "completed" && !apiError) {
        // Each resumed run counts its own tool uses; tokens are the latest figure.
        const continued = started.filter((t) => t.task_id === task.task_id && t.tool_use_id !== task.tool_use_id);
        const runUsage = continued.map((run) => events.filter((e) => e.tool_use_id === run.tool_use_id && e.usage !== undefined).at(-1)?.usage as Usage | undefined);
        const lastUsage = continued.length === 0 ? undefined : (events.filter((e) => e.usage !== undefined).at(-1)?.usage as Usage);
        expect(record?.status).toBe("completed");
        expect(record?.totalTokens).toBe(lastUsage?.total_tokens ?? structured.totalTokens);
        expect(record?.toolUses).toBe(runUsage.reduce((n, u) => n + (u?.tool_uses ?? 0), structured.totalToolUseCount as number));
        // A resumed run's answer (the subagent's last text) replaces the first run's.
        const answers = r.lines.flatMap((l) => (l.type === "assistant" && l.parent_tool_use_id === task.tool_use_id ? textsOf(l) : []));
        // 2.1.332 opens the content with the tools the agent used: a field of the record, not text.
        const reports = (structured.content as { text: string }[]).filter((c) => !c.text.startsWith("<tools-used-before-summary>"));
        const text = continued.length > 0 ? answers.at(-1) : reports.map((c) => c.text).join("\n\n");
        expect(record?.summaryMarkdown).toBe(text);
        expect(record?.summaryMarkdown).not.toContain("agentId:");
        expect(record?.summaryMarkdown).not.toContain("tools-used-before-summary");
        if (Array.isArray(structured.toolsUsed)) expect(record?.toolsUsed).toEqual(structured.toolsUsed);
      }
    }
  });

  it.each(runs.map((r) => [r.label, r] as const))("%s: a parent id that matches no record gets a card of its own, never the top level", (_label, r) => {
    // A model of its own: r.model is shared by this file's tests.
    const next = modelOf(r.events);
    next.apply([
      {
        kind: "assistant_block",
        uuid: "orphan-line",
        messageId: "msg_orphan",
        parentToolUseId: "toolu_no_such_agent",
        block: { type: "tool_use", id: "toolu_orphan", name: "Bash", input: { command: "true" } },
      },
    ]);
    const top = next.transcript().blocks;
    // A subagent's call at the top level would read as the conductor's: it sits in a card for the Agent call its line names.
    expect(top.at(-1)).toMatchObject({ id: "toolu_no_such_agent", call: { name: "Agent", subagent: { blocks: [{ id: "toolu_orphan" }] } } });
    expect(top.length).toBe(r.transcript.blocks.length + 1);
    expect(top.some((b) => b.id === "toolu_orphan")).toBe(false);
  });

  it.each(runs.map((r) => [r.label, r] as const))("%s: nothing stays running after the last turn unless it is a live background agent", (_label, r) => {
    if (r.lines.at(-1)?.type !== "result") return;
    expect(r.transcript.status).toBe("idle");
    for (const { call } of allCalls(r.transcript)) {
      expect(["running", "pending"]).not.toContain(call.status);
      if (call.subagent?.status === "running") expect(call.subagent.background).toBe(true);
    }
  });

  it.each(runs.map((r) => [r.label, r] as const))("%s: every answered permission request sits on its tool call", (_label, r) => {
    const answers = new Map(
      r.stdinLines.filter((l) => l.type === "control_response").map((l) => [l.response.request_id as string, l.response]),
    );
    const requests = r.lines.filter((l) => l.type === "control_request" && l.request.subtype === "can_use_tool");
    const streamedUses = new Set(toolUses(r.lines).map((u) => u.id));
    const withdrawn = new Set(r.lines.filter((l) => l.type === "control_cancel_request").map((l) => l.request_id as string));
    for (const req of requests) {
      const answer = answers.get(req.request_id);
      const expected = answer === undefined ? (withdrawn.has(req.request_id) ? "cancelled" : "asked") : answer.response?.behavior === "allow" ? "allowed" : "denied";
      if (!streamedUses.has(req.request.tool_use_id)) {
        // A depth-2 agent's calls never reach stdout (its sidechain has them): the request is on
        // the asking agent's record, with its state, for the call when it is read.
        const asker = allRecords(r.transcript).find((a) => a.taskId === req.request.agent_id);
        expect(asker?.permissionHistory, req.request_id).toContainEqual(
          expect.objectContaining({ requestId: req.request_id, toolUseId: req.request.tool_use_id, state: expected }),
        );
        continue;
      }
      const call = r.model.findToolCall(req.request.tool_use_id);
      expect(call?.permission, req.request_id).toEqual(expect.objectContaining({ requestId: req.request_id, state: expected }));
      if (expected === "denied") expect(call?.status).toBe("denied");
      if (req.request.agent_id === undefined) continue;
      const owner = allCalls(r.transcript).find((c) => c.call.toolUseId === req.request.tool_use_id)?.owner;
      expect(owner?.taskId).toBe(req.request.agent_id);
      expect(owner?.permissionHistory?.map((p) => p.requestId)).toContain(req.request_id);
    }
  });
});

describe.skipIf(skip)("where each agent sits, as the recording's own history says", () => {
  it.for(runs.map((r) => [r.label, r] as const))("%s: every agent sits under the agent whose sidechain holds its call", ([, r], { skip: skipTest }) => {
    const places = placementsOnDisk(r.dir);
    if (places === undefined) return skipTest(`${r.label}: the recording has no projects/ tree to say where its agents sit`);
    const byCall = new Map(places.map((p) => [p.toolUseId, p]));
    // The history agrees with itself: a depth-n agent's call is in a main transcript (n = 1) or in a depth n-1 sidechain.
    for (const p of places) {
      expect(p.parent, p.toolUseId).not.toBeUndefined();
      expect(p.parent === null ? 1 : (byCall.get(p.parent ?? "")?.spawnDepth ?? 0) + 1, p.toolUseId).toBe(p.spawnDepth);
    }
    const onStdout = toolUses(r.lines);
    // Every agent the conductor or a streamed subagent started has a sidechain (none was refused in these runs).
    for (const use of onStdout.filter((u) => isAgentToolCall(u.name, u.input))) expect(byCall.has(use.id), use.id).toBe(true);
    for (const p of places) {
      const where = allCalls(r.transcript).filter((c) => c.call.toolUseId === p.toolUseId);
      const visible = onStdout.some((u) => u.id === p.toolUseId);
      // A call that is not on stdout (deeper than 2, or from an earlier run) may be missing, but never misplaced.
      if (!visible && where.length === 0) continue;
      expect(where, p.toolUseId).toHaveLength(1);
      const { call, owner } = where[0]!;
      // A depth-2 agent's card is among its depth-1 agent's blocks; a depth-1 one (background or not) is a conductor's call.
      expect(owner?.toolUseId ?? null, p.toolUseId).toBe(p.parent);
      expect(call.subagent).toEqual(expect.objectContaining({ taskId: p.taskId, spawnDepth: p.spawnDepth }));
      if (onStdout.find((u) => u.id === p.toolUseId)?.input.run_in_background === true) expect(call.subagent?.background).toBe(true);
    }
  });
});

describe.skipIf(skip)("hub on specific recordings", () => {
  const run = (name: string): Replayed | undefined => runs.find((r) => r.label.startsWith(`${name}/`));

  it.skipIf(run("i1-interrupt-subagent") === undefined)("i1: the interrupted subagent and its Bash are stopped, not completed", () => {
    const r = run("i1-interrupt-subagent") as Replayed;
    const agent = toolUses(r.lines).find((u) => isAgentToolCall(u.name, u.input));
    const record = recordOf(r.transcript, agent?.id ?? "");
    expect(record?.status).toBe("stopped");
    const nested = record?.blocks.filter((b) => b.kind === "tool") ?? [];
    expect(nested.length).toBeGreaterThan(0);
    for (const b of nested) expect(b.call?.status).toBe("stopped");
    expect(r.transcript.blocks.some((b) => b.kind === "notice" && b.text?.startsWith("[Request interrupted"))).toBe(true);
  });

  it.skipIf(run("d1-background-agent") === undefined)("d1: the background agent completes after its turn, holding its own text and tools", () => {
    const r = run("d1-background-agent") as Replayed;
    const agent = toolUses(r.lines).find((u) => u.input.run_in_background === true);
    const record = recordOf(r.transcript, agent?.id ?? "");
    expect(record?.background).toBe(true);
    expect(record?.status).toBe("completed");
    const ownText = r.lines.filter((l) => l.type === "assistant" && l.parent_tool_use_id === agent?.id && l.message.content[0].type === "text");
    expect(record?.blocks.filter((b) => b.kind === "text").map((b) => b.text)).toEqual(ownText.map((l) => l.message.content[0].text));
    // The first turn ended while it ran: it must not have been stopped then.
    const firstResult = r.events.findIndex((e) => e.kind === "turn_result");
    const mid = modelOf(r.events.slice(0, firstResult + 1));
    expect(recordOf(mid.transcript(), agent?.id ?? "")?.status).toBe("running");
  });

  it.skipIf(run("e-nested-agents") === undefined)("e: the depth-2 agent is a card inside the outer agent's card", () => {
    const r = run("e-nested-agents") as Replayed;
    const tasks = systemLines(r.lines, "task_started");
    const uses = toolUses(r.lines);
    const inner = tasks.find((t) => uses.find((u) => u.id === t.tool_use_id)?.parent !== null);
    const innerUse = uses.find((u) => u.id === inner?.tool_use_id);
    expect(innerUse?.parent).toBeTruthy();
    const outer = recordOf(r.transcript, innerUse?.parent ?? "");
    const innerBlock = outer?.blocks.find((b) => b.id === innerUse?.id);
    expect(innerBlock?.call?.subagent?.taskId).toBe(inner?.task_id);
    expect(innerBlock?.call?.subagent?.spawnDepth).toBe(2);
    expect(innerBlock?.call?.subagent?.status).toBe("completed");
    expect(r.transcript.blocks.some((b) => b.id === innerUse?.id)).toBe(false);
  });
});

describe.skipIf(skip)("a depth-2 agent's permission requests, live", () => {
  const recording = listRecordings().find((r) => r.name === "nested-permission");
  it.skipIf(recording === undefined)("land on its calls once its sidechain is read into the live state", () => {
    const r = replayRecording(recording!)[0]!;
    const inner = systemLines(r.lines, "task_started").find((t) => !toolUses(r.lines).some((u) => u.id === t.tool_use_id && u.parent === null))!;
    const file = readdirSync(path.join(recording!.dir, "projects"), { recursive: true, encoding: "utf8" }).find((f) => f.endsWith(`agent-${inner.task_id}.jsonl`));
    // As a live tab does: the sidechain's lines go through the history mapper into the same model.
    const mapper = new DiskMapper({ sessionId: r.transcript.sessionId, sidechainOf: inner.tool_use_id });
    const lines = readFileSync(path.join(recording!.dir, "projects", file!), "utf8").split("\n").filter((l) => l.trim() !== "");
    const model = r.model;
    model.apply(lines.flatMap((l) => mapper.map(JSON.parse(l))));
    const answers = new Map(r.stdinLines.filter((l) => l.type === "control_response").map((l) => [l.response.request_id as string, l.response.response?.behavior]));
    const asked = r.lines.filter((l) => l.type === "control_request" && l.request.agent_id === inner.task_id);
    expect(asked.length).toBeGreaterThan(0);
    for (const req of asked) {
      const call = model.findToolCall(req.request.tool_use_id);
      const expected = answers.get(req.request_id) === "allow" ? "allowed" : "denied";
      expect(call?.permission, req.request_id).toEqual(expect.objectContaining({ requestId: req.request_id, state: expected }));
      expect(call?.status).toBe(expected === "allowed" ? "completed" : "denied");
    }
  });
});

describe.skipIf(skip)("a message sent while a turn runs", () => {
  const recording = listRecordings().find((r) => r.name === "message-during-turn" || r.name === "j2-message-during-turn");
  it.skipIf(recording === undefined)("is shown in the turn it was folded into, not lost", () => {
    const r = replayRecording(recording!)[0]!;
    const sent = r.stdinLines.filter((l) => l.type === "user").map((l) => textsOf(l).join("\n"));
    expect(sent.length).toBeGreaterThan(systemLines(r.lines, "init").length);
    const prompts = r.transcript.blocks.filter((b) => b.kind === "user").map((b) => b.text);
    expect(prompts).toEqual(sent);
    // The model answered both: the answer comes after the folded prompt.
    expect(r.transcript.blocks.at(-1)?.kind).toBe("text");
  });
});
