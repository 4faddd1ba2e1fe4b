// Events a restore adds to the main file's own: cards of `/subtask` forks (forkCards.ts) and `/btw`
// side notes (sideQuestions.ts), found by sessionInserts.ts. Each goes after the main line it was
// made at (by uuid), read in order with the file; those whose line is not in the file go at the
// end. A fork card placed at the end comes after its `<task-notification>`: the notification is
// given again after the card.

import type { ClientEvent } from "../../shared/events.js";

/** Events found for a main line (sessionInserts.ts finds them). */
export interface LineInsert {
  /** The main line the events go after; undefined: at the end. */
  readonly after: string | undefined;
  readonly events: readonly ClientEvent[];
  /** The task id its `<task-notification>` names (a fork's agent id). */
  readonly taskId?: string;
}

interface Insert {
  readonly after: string | undefined;
  readonly events: readonly ClientEvent[];
  /** A fork card's task id: its notification completes it. */
  readonly taskId?: string;
  /** Notifications for `taskId` read while the card was not placed yet. */
  readonly early: ClientEvent[];
  placed: boolean;
}

export class LineInserts {
  private readonly list: Insert[] = [];
  private readonly byUuid = new Map<string, Insert[]>();

  add(after: string | undefined, events: readonly ClientEvent[], taskId?: string): void {
    const insert: Insert = { after, events, early: [], placed: false, ...(taskId !== undefined ? { taskId } : {}) };
    this.list.push(insert);
    if (after === undefined) return;
    const same = this.byUuid.get(after);
    if (same === undefined) this.byUuid.set(after, [insert]);
    else same.push(insert);
  }

  /** The events that go after the line `uuid`, once: a line copied twice places them at its first copy. */
  take(uuid: string): ClientEvent[] | undefined {
    const found = this.byUuid.get(uuid);
    if (found === undefined) return undefined;
    this.byUuid.delete(uuid);
    for (const insert of found) insert.placed = true;
    return found.flatMap((insert) => insert.events);
  }

  /** Notes the file's task notifications that reach a card not placed yet (see `rest`). */
  saw(events: readonly ClientEvent[]): void {
    for (const event of events) {
      if (event.kind !== "task_notification") continue;
      for (const insert of this.list) if (!insert.placed && insert.taskId === event.taskId) insert.early.push(event);
    }
  }

  /** What no line placed, in the order found, each followed by its notifications; each is handed out once. */
  rest(): ClientEvent[] {
    const out: ClientEvent[] = [];
    for (const insert of this.list) {
      if (insert.placed) continue;
      insert.placed = true;
      if (insert.after !== undefined) this.byUuid.delete(insert.after);
      out.push(...insert.events, ...insert.early);
    }
    return out;
  }
}
