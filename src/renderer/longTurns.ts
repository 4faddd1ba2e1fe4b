// When "a long turn ended" is worth a notification: a session worked for at least LongTurnMs and
// now does not. Working is the session's status "running", which (since CLI 2.1.332 runs agents in
// the background) lasts until its last background agent is done and answered, not only until the
// first result: so the notification waits for the last agent, and there is one, not one per turn.

export const LongTurnMs = 20_000;

export class LongTurns {
  private readonly since = new Map<string, number>();

  /** A tab's status as of `now`; true when a long stretch of work just ended. */
  update(tabId: string, status: string, now: number): boolean {
    const started = this.since.get(tabId);
    if (status === "running") {
      if (started === undefined) this.since.set(tabId, now);
      return false;
    }
    if (started === undefined) return false;
    this.since.delete(tabId);
    return now - started >= LongTurnMs;
  }
}
