// The cap on `claude` processes running at once: each is a CLI with its own memory and API
// traffic, and the page can ask for any number. A live tab counts while its CLI runs, and a tab
// from the moment its CLI is claimed a slot until it has started or restarted (even while its
// session is still being made, before it is in the tab list); restored tabs and live tabs whose
// CLI has exited run none.

import { AppError } from "./appError.js";
import type { LiveTab } from "./tabList.js";

/** How many CLI processes run at once unless the settings file says otherwise (settingsFile.ts). */
export const DefaultMaxRunningSessions = 8;

export class ProcessCap {
  /** Tabs whose CLI is being started or restarted: counted before their process runs. */
  private readonly starting = new Set<string>();

  constructor(
    private readonly max: number,
    private readonly liveTabs: () => readonly LiveTab[],
  ) {}

  /** CLI processes running or starting. */
  running(): number {
    let count = this.starting.size;
    for (const tab of this.liveTabs()) if (tab.session.client.running && !this.starting.has(tab.tabId)) count++;
    return count;
  }

  /**
   * Refuses one more CLI process past the cap. Callers claim their slot (`claim`) in the same
   * synchronous step as this check, so two concurrent calls cannot both take the last one.
   */
  assertRoom(): void {
    const running = this.running();
    if (running < this.max) return;
    throw new AppError(
      "too_many_sessions",
      `${running} Claude Code sessions are running, the most Baton runs at once. Close a tab you no longer need, or raise "maxRunningSessions" (now ${this.max}) in Baton's settings.json and restart Baton.`,
    );
  }

  /** The tab's CLI is being started: it counts until the returned function is called. */
  claim(tabId: string): () => void {
    this.starting.add(tabId);
    return () => this.starting.delete(tabId);
  }
}
