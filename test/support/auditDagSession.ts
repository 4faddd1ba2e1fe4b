// A live tab without a process whose audit trail is a real SQLite file, and a small session on
// disk whose conductor spawns one coder: what the session-DAG audit tests record and restore.
import fs from "node:fs";
import path from "node:path";
import type { ClientEvent } from "../../src/shared/events.js";
import type { ClaudeClientOptions } from "../../src/main/cli/claudeClient.js";
import { EmittingClient } from "./emittingClient.js";
import { LiveSession } from "../../src/main/core/liveSession.js";
import { LogBus } from "../../src/main/platform/logBus.js";
import { DiskMapper } from "../../src/main/history/index.js";
import { createAuditTrail, type AuditTrail } from "../../src/main/store/auditTrail.js";
import type { StoreService } from "../../src/main/store/storeService.js";
import type { JsonObject } from "../../src/shared/protocol/messages.js";

/** The app's fire-and-forget trail, writing through `store` (a real audit.sqlite) on this thread. */
export function trailOver(store: StoreService, errors: string[]): AuditTrail {
  const done = <T>(write: (entry: T) => void) => async (entry: T): Promise<null> => {
    write(entry);
    return null;
  };
  return createAuditTrail(
    {
      recordPermission: done((e) => store.recordPermission(e)),
      recordInterrupt: done((e) => store.recordInterrupt(e)),
      recordPolicyDecision: done((e) => store.recordPolicyDecision(e)),
      recordOrchestration: done((e) => store.recordOrchestration(e)),
      recordFork: done((e) => store.recordFork(e)),
      recordRewind: done((e) => store.recordRewind(e)),
      readAudit: async (sessionId) => store.readAudit(sessionId),
    },
    (what, error) => errors.push(`${what}: ${String(error)}`),
  );
}

export interface RecordingTab {
  readonly session: LiveSession;
  /** Emits one stdout read, then lets the tab apply it (and the trail look at it). */
  read(events: readonly ClientEvent[]): Promise<void>;
}

export function recordingTab(trail: AuditTrail, sessionId?: string): RecordingTab {
  let client: EmittingClient | undefined;
  const session = new LiveSession({
    tabId: "tab-dag",
    client: { claudePath: "claude", cwd: "/home/user/code/x", ...(sessionId !== undefined ? { resume: sessionId } : {}) },
    decidePermission: async () => ({ behavior: "deny", message: "test" }),
    log: new LogBus(),
    onChange: () => undefined,
    createClient: (options: ClaudeClientOptions) => (client = new EmittingClient(options)),
    audit: trail,
  });
  return {
    session,
    async read(events) {
      client?.emitRead(events);
      // The tab's flush and the trail's status check are microtasks queued by the read.
      await Promise.resolve();
    },
  };
}

export const DagSessionId = "5e55e55e-1111-4222-8333-444444444444";
export const CoderCall = "toolu_agent_coder";
const base = { sessionId: DagSessionId, cwd: "/home/user/code/x", version: "2.1.197", isSidechain: false };

/** The main file: a prompt, the conductor's foreground Agent call for a coder, its result, a last word. */
export const dagLines: readonly JsonObject[] = [
  { ...base, type: "user", uuid: "u1", parentUuid: null, timestamp: "2026-01-01T00:00:00.000Z", message: { role: "user", content: "fix the parser" } },
  {
    ...base,
    type: "assistant",
    uuid: "a1",
    parentUuid: "u1",
    timestamp: "2026-01-01T00:00:01.000Z",
    message: {
      id: "m1",
      role: "assistant",
      model: "m",
      content: [{ type: "tool_use", id: CoderCall, name: "Agent", input: { subagent_type: "coder", description: "Fix the parser", prompt: "Fix it" } }],
    },
  },
  {
    ...base,
    type: "user",
    uuid: "u2",
    parentUuid: "a1",
    timestamp: "2026-01-01T00:01:00.000Z",
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: CoderCall, content: [{ type: "text", text: "Fixed, with tests." }] }] },
  },
  {
    ...base,
    type: "assistant",
    uuid: "a2",
    parentUuid: "u2",
    timestamp: "2026-01-01T00:01:01.000Z",
    message: { id: "m2", role: "assistant", model: "m", content: [{ type: "text", text: "The parser is fixed." }] },
  },
];

export function writeDagSession(projectsDir: string): string {
  const file = path.join(projectsDir, "-home-user-code-x", `${DagSessionId}.jsonl`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, dagLines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  return file;
}

/** Each main-file line as the events the stream gave for it. */
export function dagLineEvents(): ClientEvent[][] {
  const mapper = new DiskMapper({ sessionId: DagSessionId });
  return dagLines.map((line) => mapper.map(line));
}
