// What a command says on stderr about the store it opened: a damaged audit file that was moved
// aside holds the decisions recorded until then, so the person must learn where it went.
import { auditMovedMessage } from "../audit/auditDatabase.js";
import type { StoreClient } from "../store/storeClient.js";
import type { CommandIO } from "./commandIO.js";

export function reportAuditMoved(store: StoreClient, io: CommandIO, command: string): void {
  const { audit } = store.info;
  if (audit.movedAsideTo !== null) io.stderr(`baton ${command}: ${auditMovedMessage(audit.path, audit.movedAsideTo)}\n`);
}
