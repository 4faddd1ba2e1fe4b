// What a command says on stderr about the store it opened: a damaged audit file that was moved
// aside holds the decisions recorded until then, so the person must learn where it went.
import type { StoreClient } from "../store/storeClient.js";
import type { CommandIO } from "./commandIO.js";

export async function reportAuditMoved(store: StoreClient, io: CommandIO, command: string): Promise<void> {
  const { audit } = store.info;
  if (audit.movedAsideTo === null) return;
  // Imported only then: auditDatabase loads better-sqlite3, which this thread otherwise never
  // needs (the store worker has its own), and loading it would delay every search's start.
  const { auditMovedMessage } = await import("../audit/auditDatabase.js");
  io.stderr(`baton ${command}: ${auditMovedMessage(audit.path, audit.movedAsideTo)}\n`);
}
