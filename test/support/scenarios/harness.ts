// Runs a ClaudeClient against the real CLI and the scripted model server, and keeps every event
// so tests (and the recorder) can wait for a state instead of sleeping.

import type { ClientEvent } from "../../../src/shared/events.js";
import { ClaudeClient, type ClaudeClientOptions } from "../../../src/main/cli/claudeClient.js";
import { createCliEnv, type CliEnv } from "../cliEnv.js";
import { startModelServer, type ModelServer, type Script } from "../modelServer.js";

export type EventOf<K extends ClientEvent["kind"]> = Extract<ClientEvent, { kind: K }>;

/** Collects a client's events and lets callers wait for one (past or future). */
export class EventLog {
  readonly events: ClientEvent[] = [];
  private waiters = new Set<{ pred: (e: ClientEvent) => boolean; from: number; resolve(e: ClientEvent): void }>();

  readonly push = (event: ClientEvent): void => {
    this.events.push(event);
    for (const waiter of [...this.waiters]) {
      if (waiter.pred(event)) {
        this.waiters.delete(waiter);
        waiter.resolve(event);
      }
    }
  };

  of<K extends ClientEvent["kind"]>(kind: K): EventOf<K>[] {
    return this.events.filter((e): e is EventOf<K> => e.kind === kind);
  }

  /** A mark to pass as `from`, so a wait only sees events after it. */
  get mark(): number {
    return this.events.length;
  }

  waitFor<K extends ClientEvent["kind"]>(
    kind: K,
    pred: (e: EventOf<K>) => boolean = () => true,
    options: { from?: number; timeoutMs?: number } = {},
  ): Promise<EventOf<K>> {
    const from = options.from ?? 0;
    const match = (e: ClientEvent): boolean => e.kind === kind && pred(e as EventOf<K>);
    const past = this.events.slice(from).find(match);
    if (past) return Promise.resolve(past as EventOf<K>);
    const timeoutMs = options.timeoutMs ?? 60_000;
    return new Promise((resolve, reject) => {
      const waiter = {
        pred: match,
        from,
        resolve: (e: ClientEvent) => {
          clearTimeout(timer);
          resolve(e as EventOf<K>);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        const seen = this.events.slice(-15).map((e) => e.kind).join(", ");
        reject(new Error(`no "${kind}" event within ${timeoutMs} ms; last events: ${seen}`));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }
}

export interface Session {
  readonly server: ModelServer;
  readonly env: CliEnv;
  readonly client: ClaudeClient;
  readonly log: EventLog;
  /** A new client on the same server and env (e.g. to resume), logging into `log`. */
  newClient(options?: Partial<ClaudeClientOptions>): ClaudeClient;
  /** Sends a prompt and waits for that turn's result. */
  turn(text: string, timeoutMs?: number): Promise<EventOf<"turn_result">>;
  close(): Promise<void>;
}

export type SessionOptions = Partial<ClaudeClientOptions> & { readonly cwdName?: string };

export async function openSession(script: Script, options: SessionOptions = {}): Promise<Session> {
  const server = await startModelServer(script);
  const env = await createCliEnv({ baseUrl: server.url, cwdName: options.cwdName ?? "project" });
  server.setProjectsDir(env.projectsDir);
  const log = new EventLog();
  const clients: ClaudeClient[] = [];
  let current: ClaudeClient;

  const newClient = (extra: Partial<ClaudeClientOptions> = {}): ClaudeClient => {
    const { cwdName: _ignored, ...rest } = options;
    const client = new ClaudeClient({
      claudePath: env.claudePath,
      cwd: env.cwd,
      env: env.env,
      stopTimeouts: { closeStdinMs: 5000, sigtermMs: 3000 },
      ...rest,
      ...extra,
    });
    client.on(log.push);
    clients.push(client);
    current = client;
    return client;
  };
  const first = newClient();

  return {
    server,
    env,
    client: first,
    log,
    newClient,
    async turn(text, timeoutMs = 60_000) {
      const from = log.mark;
      current.send(text);
      return log.waitFor("turn_result", () => true, { from, timeoutMs });
    },
    async close() {
      for (const client of clients) {
        if (client.running) await client.stop({ closeStdinMs: 2000, sigtermMs: 2000 });
      }
      await server.close();
      await env.cleanup();
    },
  };
}
