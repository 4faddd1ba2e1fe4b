// The audit trail's states a test of what Baton records there sets up: a store in a folder, an
// audit file that is not one (moved aside as the store opens), one a newer Baton wrote (left alone,
// unusable), and the list of failures the trail reports.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { AUDIT_LATEST_VERSION } from "../../src/main/audit/migrations/index.js";
import { openStore, type StoreClient } from "../../src/main/store/storeClient.js";

/** A store whose index and audit trail live under `<dir>/cfg`, closed after `work`. */
export async function withStore<T>(dir: string, work: (store: StoreClient) => Promise<T>): Promise<T> {
  const store = await openStore({ dbPath: path.join(dir, "cfg", "history.db") });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** Puts at the audit trail's place under `<dir>/cfg` a damaged file, or one of a newer Baton's schema. */
export function plantAuditFile(dir: string, kind: "damaged" | "newer"): void {
  const auditPath = path.join(dir, "cfg", "audit.sqlite");
  fs.mkdirSync(path.dirname(auditPath), { recursive: true });
  if (kind === "damaged") {
    fs.writeFileSync(auditPath, "not an audit trail ".repeat(300));
    return;
  }
  const newer = new Database(auditPath);
  newer.pragma(`user_version = ${AUDIT_LATEST_VERSION + 1}`);
  newer.close();
}

/** The failures a trail or reader reports, as "what: error", and the reporter to hand it. */
export function failures(): { readonly errors: string[]; readonly onError: (what: string, error: unknown) => void } {
  const errors: string[] = [];
  return { errors, onError: (what, error) => void errors.push(`${what}: ${String(error)}`) };
}
