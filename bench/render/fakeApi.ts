// An in-page BatonApi that plays a synthetic stream: 10 parallel subagents, each adding nested
// tool calls and progress ticks, as fast as asked. The render bench builds the real renderer with
// this in place of the transport, so it measures the UI alone (store, React, layout).
import type { BatonApi, LogEntry, Result, TabInfo, TranscriptDelta } from "../../src/shared/api.js";
import type { Block } from "../../src/shared/transcript.js";

const ok = <T>(value: T): Promise<Result<T>> => Promise.resolve({ ok: true, value });
const Tab: TabInfo = { tabId: "bench", title: "Render bench", live: true, cwd: "/home/user/code/bench", sessionId: "bench-session" };

export interface BenchControls {
  /** Streams `events` changes at `rate` per second; resolves with the count actually sent. */
  run(events: number, rate: number): Promise<number>;
}

function agentBlock(i: number, tick: number, status: "running" | "completed"): Block {
  const id = `toolu_agent_${i}`;
  return {
    kind: "tool",
    id,
    call: {
      toolUseId: id,
      name: "Agent",
      input: { description: `Parallel task ${i}`, prompt: `Do part ${i}`, subagent_type: "general-purpose" },
      status: status === "running" ? "running" : "completed",
      startedAt: new Date(Date.now() - 5000).toISOString(),
      subagent: {
        toolUseId: id,
        taskId: `a${String(i).padStart(16, "0")}`,
        subagentType: "general-purpose",
        description: `Parallel task ${i}`,
        prompt: `Do part ${i}`,
        background: false,
        status,
        progressLine: `Running step ${tick}`,
        lastToolName: "Bash",
        totalTokens: 1000 + tick * 37,
        toolUses: tick,
        blocks: [],
        droppedBlockCount: 0,
        ...(status === "completed" ? { summaryMarkdown: `Task ${i} finished after **${tick}** steps.` } : {}),
      },
    },
  };
}

function bashBlock(i: number, n: number): Block {
  const id = `toolu_${i}_${n}`;
  return { kind: "tool", id, call: { toolUseId: id, name: "Bash", input: { command: `echo step-${i}-${n}` }, status: "completed", result: { text: `step-${i}-${n}`, isError: false } } };
}

export function createFakeApi(): BatonApi & { readonly bench: BenchControls } {
  const listeners = new Set<(d: TranscriptDelta) => void>();
  const children = new Map<string, string[]>();
  const emit = (d: TranscriptDelta): void => {
    for (const l of listeners) l(d);
  };
  const top: string[] = ["prompt"];
  const reset = (): TranscriptDelta => ({
    tabId: Tab.tabId,
    reset: true,
    meta: { sessionId: Tab.sessionId!, status: "running", title: Tab.title, model: "claude-scripted" },
    upserts: [{ kind: "user", id: "prompt", text: "Run ten things in parallel" }],
    children: { "": top },
  });
  const bench: BenchControls = {
    async run(events, rate) {
      const agents = 10;
      for (let i = 0; i < agents; i++) {
        top.push(`toolu_agent_${i}`);
        children.set(`toolu_agent_${i}`, []);
      }
      emit({ tabId: Tab.tabId, upserts: Array.from({ length: agents }, (_, i) => agentBlock(i, 0, "running")), children: { "": [...top] } });
      const start = performance.now();
      let sent = 0;
      while (sent < events) {
        const due = Math.min(events, Math.floor(((performance.now() - start) / 1000) * rate));
        for (; sent < due; sent++) {
          const i = sent % agents;
          const tick = Math.floor(sent / agents);
          if (tick % 4 === 3) {
            const list = children.get(`toolu_agent_${i}`)!;
            const block = bashBlock(i, list.length);
            list.push(block.id);
            emit({ tabId: Tab.tabId, upserts: [block], children: { [`toolu_agent_${i}`]: [...list] } });
          } else {
            emit({ tabId: Tab.tabId, upserts: [agentBlock(i, tick, "running")], children: {} });
          }
        }
        await new Promise((r) => setTimeout(r, 4));
      }
      emit({ tabId: Tab.tabId, upserts: Array.from({ length: agents }, (_, i) => agentBlock(i, events / agents, "completed")), children: {} });
      return sent;
    },
  };
  return {
    bench,
    listTabs: () => ok([Tab]),
    listSessions: () => ok([]),
    searchHistory: () => ok([]),
    openSession: () => ok(Tab),
    loadSubagentBlocks: () => ok([]),
    newSession: () => ok(Tab),
    closeTab: () => ok(undefined),
    sendPrompt: () => ok(undefined),
    interrupt: () => ok(undefined),
    setPermissionMode: () => ok(undefined),
    setModel: () => ok(undefined),
    answerPermission: () => ok(undefined),
    getSessionInfo: () => ok({ slashCommands: ["compact", "clear"], models: [], agents: [] }),
    chooseDirectory: () => ok(null),
    onTranscriptDelta(_tabId, listener) {
      listeners.add(listener);
      listener(reset());
      return () => listeners.delete(listener);
    },
    onTabsChanged: () => () => undefined,
    onLog(listener: (e: LogEntry) => void) {
      listener({ time: new Date().toISOString(), level: "info", source: "baton", message: "render bench ready" });
      return () => undefined;
    },
  };
}
