// When a recorded session has nothing left to say, worked out from its raw traffic. CLI 2.1.332
// runs Agent calls in the background by default: the first `result` no longer means the work is
// done, and closing stdin while a background agent lives cuts it off.
// Idle = no live background task, every background task's notification seen, and every turn the
// client or a notification started answered by its `result`. An interrupt of a session whose main
// turn had ended produces no `result` (its control_response `{still_queued: []}` is the end), so
// an interrupt stops us expecting the notifications of the agents it kills.

export interface IdleState {
  readonly idle: boolean;
  /** What is still awaited, for the error of a wait that timed out. */
  readonly waitingFor: readonly string[];
}

type Line = Record<string, unknown>;

function parse(text: string): Line | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Line) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Only 2.1.332 says (`is_backgrounded`, depth 1). 2.1.197's scenarios wait for their notification
 * turns themselves, so there a prompt's result is all we wait for.
 */
function startsTurnWhenNotified(taskStarted: Line): boolean {
  return taskStarted["is_backgrounded"] === true && taskStarted["parent_task_id"] === undefined;
}

export class SessionIdleTracker {
  /** Task ids of the last `background_tasks_changed` (2.1.332; 2.1.197 never sends it). */
  private liveTasks: readonly string[] = [];
  /** Background tasks (`task_started.is_backgrounded`) whose notification is still to come. */
  private readonly unnotified = new Set<string>();
  /** Tasks whose notification goes to the main thread as a turn of its own. */
  private readonly background = new Set<string>();
  /** A turn was started (prompt sent, notification delivered) and its `result` has not come. */
  private resultDue = false;
  private resultDueWhy = "";
  /** After an interrupt, until the next prompt: the notifications of killed agents start no turn. */
  private afterInterrupt = false;
  private readonly listeners = new Set<() => void>();

  readonly stdout = (text: string): void => {
    const line = parse(text);
    if (line === undefined) return;
    if (line["type"] === "system") this.system(line);
    else if (line["type"] === "result") {
      // A result that says more turns are queued (2.1.332) leaves a result due.
      const queued = typeof line["queued_turn_count"] === "number" ? line["queued_turn_count"] : 0;
      this.resultDue = queued > 0;
      if (this.resultDue) this.resultDueWhy = `${queued} queued turn(s)`;
    }
    this.changed();
  };

  readonly stdin = (text: string): void => {
    const line = parse(text);
    if (line === undefined) return;
    if (line["type"] === "user") {
      this.resultDue = true;
      this.resultDueWhy = "the result of a prompt";
      this.afterInterrupt = false;
    } else if (line["type"] === "control_request" && (line["request"] as Line | undefined)?.["subtype"] === "interrupt") {
      this.afterInterrupt = true;
      this.unnotified.clear();
    }
    this.changed();
  };

  get state(): IdleState {
    const waitingFor: string[] = [];
    if (this.liveTasks.length > 0) waitingFor.push(`live background tasks ${this.liveTasks.join(", ")}`);
    if (this.unnotified.size > 0) waitingFor.push(`the task_notification of ${[...this.unnotified].join(", ")}`);
    if (this.resultDue) waitingFor.push(this.resultDueWhy);
    return { idle: waitingFor.length === 0, waitingFor };
  }

  /** Calls `listener` after every line; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private system(line: Line): void {
    const taskId = typeof line["task_id"] === "string" ? line["task_id"] : undefined;
    switch (line["subtype"]) {
      case "background_tasks_changed": {
        const tasks = Array.isArray(line["tasks"]) ? (line["tasks"] as Line[]) : [];
        this.liveTasks = tasks.map((t) => String(t["task_id"] ?? "?"));
        return;
      }
      case "task_started":
        if (taskId === undefined) return;
        if (startsTurnWhenNotified(line)) this.background.add(taskId);
        else this.background.delete(taskId);
        if (line["is_backgrounded"] === true && !this.afterInterrupt) this.unnotified.add(taskId);
        return;
      case "task_notification":
        if (taskId === undefined) return;
        this.unnotified.delete(taskId);
        // A background task's notification starts a turn of its own (or is folded into the running one).
        if (this.background.has(taskId) && !this.afterInterrupt) {
          this.resultDue = true;
          this.resultDueWhy = `the result of the turn task ${taskId}'s notification starts`;
        }
        return;
      default:
        return;
    }
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/** Resolves once `tracker` is idle or `stopped()` says no more lines can come; rejects after `timeoutMs`. */
export function waitForIdle(tracker: SessionIdleTracker, stopped: () => boolean, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      if (!tracker.state.idle && !stopped()) return false;
      finish();
      resolve();
      return true;
    };
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`the session was not idle within ${timeoutMs} ms; still waiting for: ${tracker.state.waitingFor.join("; ")}`));
    }, timeoutMs);
    const unsubscribe = tracker.onChange(check);
    const finish = () => {
      clearTimeout(timer);
      unsubscribe();
    };
    check();
  });
}
