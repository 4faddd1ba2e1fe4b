// A live Workflow card's agents, read from the run's folder into the live state (the hub keeps one
// copy of what it saw). The card asks again at each of the run's progress events: one read at a
// time, and the asks that come during a read make one more read after it, not one each. While a
// run whose card was opened still runs, its agents' files are read again every second: an agent
// writes steps between the run's progress events (a long Bash, a slow model call).

import type { ClientEvent } from "../../shared/events.js";
import type { SubagentStatus } from "../../shared/transcript.js";
import { workflowEvents, type HistoryProblem } from "../history/index.js";

/** How often an opened, running Workflow card reads its agents again. */
const WorkflowPollMs = 1000;

export interface WorkflowReadsOptions {
  /** The status of the Workflow's card now. */
  readonly status: (toolUseId: string) => SubagentStatus | undefined;
  /** Events read, for the live state. */
  readonly absorb: (events: readonly ClientEvent[]) => void;
  readonly warn: (message: string, fields: Record<string, unknown>) => void;
}

interface Read {
  /** Another read was asked for meanwhile. */
  again: boolean;
  done: Promise<readonly ClientEvent[]>;
}

export class WorkflowReads {
  /** Workflow cards being read. */
  private readonly reads = new Map<string, Read>();
  /** Opened Workflow cards whose run still runs: the timer of their next read. */
  private readonly polls = new Map<string, NodeJS.Timeout>();
  private stopped = false;

  constructor(private readonly options: WorkflowReadsOptions) {}

  /** Reads the run's agents as they are now; resolves to every event the read gave. */
  read(toolUseId: string, sessionId: string, run: string): Promise<readonly ClientEvent[]> {
    const current = this.reads.get(toolUseId);
    if (current !== undefined) {
      current.again = true;
      return current.done;
    }
    const entry: Read = { again: false, done: Promise.resolve([]) };
    const read = async (): Promise<readonly ClientEvent[]> => {
      let events: ClientEvent[];
      do {
        entry.again = false;
        const problems: HistoryProblem[] = [];
        events = await workflowEvents(sessionId, toolUseId, run, problems, this.options.status(toolUseId) === "running");
        for (const p of problems) this.options.warn("could not read a Workflow agent's transcript", { path: p.path ?? "", error: p.message });
        this.options.absorb(events);
      } while (entry.again && !this.stopped);
      return events;
    };
    entry.done = read().finally(() => {
      this.reads.delete(toolUseId);
      this.poll(toolUseId, sessionId, run);
    });
    this.reads.set(toolUseId, entry);
    return entry.done;
  }

  /** No more reads start; the polls' timers are cleared. */
  stop(): void {
    this.stopped = true;
    for (const timer of this.polls.values()) clearTimeout(timer);
    this.polls.clear();
  }

  private poll(toolUseId: string, sessionId: string, run: string): void {
    if (this.stopped || this.polls.has(toolUseId) || this.options.status(toolUseId) !== "running") return;
    const timer = setTimeout(() => {
      this.polls.delete(toolUseId);
      this.read(toolUseId, sessionId, run).catch((error: unknown) => this.options.warn("could not read a Workflow's agents", { toolUseId, error: String(error) }));
    }, WorkflowPollMs);
    timer.unref();
    this.polls.set(toolUseId, timer);
  }
}
