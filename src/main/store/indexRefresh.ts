// The app's background index run, kept going past faults that pass: a run that a lock held by
// another program or a full disk stopped (StoreError `busy` / `disk_full`: what it wrote is kept,
// see storeService.ts) is tried again every `retryMs` until one completes. Each stop is said in
// the Console once (with how often it is tried), and the run that completes says it resumed. A run
// that found the index damaged (moved aside and rebuilt from the history files) says that too.
import { StoreError } from "../platform/sqlite/errors.js";
import type { StoreClient } from "./storeClient.js";

/** How often a stopped run is tried again in the app. */
export const INDEX_RETRY_MS = 30_000;
/**
 * How long a retry's writes wait for a lock held elsewhere: the store's thread sleeps while they
 * wait, and the searches asked meanwhile with it, so a retry gives up at once rather than after
 * the first run's full busy timeout.
 */
export const RETRY_LOCK_WAIT_MS = 100;

export type IndexRefreshLog = (level: "info" | "warning", message: string, fields: Record<string, unknown>) => void;

export interface IndexRefreshOptions {
  readonly retryMs?: number;
}

/** Indexes `projectsDir` now and, while faults that pass stop it, again later. Returns what stops the retries. */
export function keepIndexFresh(
  store: Pick<StoreClient, "index" | "info">,
  projectsDir: string,
  log: IndexRefreshLog,
  options: IndexRefreshOptions = {},
): () => void {
  const retryMs = options.retryMs ?? INDEX_RETRY_MS;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stops = 0;
  let lastCode: string | undefined;
  // Said when the store opened (createAppCore's logStoreOpened): not again.
  let movedAsideTo = store.info.movedAsideTo;
  const run = (): void => {
    timer = undefined;
    void store.index(projectsDir, stops === 0 ? {} : { lockWaitMs: RETRY_LOCK_WAIT_MS }).then(
      (report) => {
        if (stopped) return;
        if (report.movedAsideTo !== null && report.movedAsideTo !== movedAsideTo) {
          movedAsideTo = report.movedAsideTo;
          log("warning", `the history index was damaged; it was moved to ${movedAsideTo} and is rebuilt from the history files`, { projectsDir });
        }
        const message = stops === 0 ? "history index refreshed" : `history index refreshed: indexing resumed after ${stops} stop${stops === 1 ? "" : "s"}`;
        log("info", message, { report: JSON.parse(JSON.stringify(report)) as unknown });
      },
      (error: unknown) => {
        if (stopped) return;
        if (error instanceof StoreError && (error.code === "busy" || error.code === "disk_full")) {
          stops++;
          // Said once per cause: a disk that stays full is not a new line every try.
          if (error.code !== lastCode) log("warning", `${error.message}; tried again every ${retryMs < 1000 ? `${retryMs} ms` : `${Math.round(retryMs / 1000)} s`}`, { code: error.code, projectsDir });
          lastCode = error.code;
          timer = setTimeout(run, retryMs);
          return;
        }
        log("warning", "history index refresh failed", { error: String(error) });
      },
    );
  };
  run();
  return () => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
  };
}
