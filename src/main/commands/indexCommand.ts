// `baton index`: builds or refreshes the history index and says what it did.
import { parseArgs } from "node:util";
import { terminalText } from "../../shared/terminalText.js";
import { formatBytes, STORE_OPTIONS_HELP, storeLocation } from "./storeOptions.js";
import { StoreError } from "../platform/sqlite/errors.js";
import type { IndexResult } from "../store/storeService.js";
import { openStore } from "../store/storeClient.js";
import { ExitCode, type CommandIO } from "./commandIO.js";
import { reportAuditMoved } from "./storeNotices.js";
import { indexUpgradedMessage } from "../store/indexUpgraded.js";

const HELP = `Usage: baton index [--projects-dir <dir>] [--db <file>] [--json]

Builds or refreshes Baton's search index of Claude Code history. Only new bytes of changed
files are read; truncated or replaced files are read again.

Options:
${STORE_OPTIONS_HELP}
  --json                  Print the report as JSON
`;

export async function run(args: readonly string[], io: CommandIO): Promise<number> {
  let values: { "projects-dir"?: string; db?: string; json?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        "projects-dir": { type: "string" },
        db: { type: "string" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (err) {
    io.stderr(`baton index: ${(err as Error).message}\n\n${HELP}`);
    return ExitCode.usage;
  }
  if (values.help) {
    io.stdout(HELP);
    return ExitCode.ok;
  }
  const where = storeLocation(values);
  try {
    const store = await openStore({ dbPath: where.dbPath });
    try {
      await reportAuditMoved(store, io, "index");
      const { upgradedFrom, schemaVersion } = store.info;
      if (upgradedFrom !== null) io.stderr(`baton index: ${indexUpgradedMessage(upgradedFrom, schemaVersion)}\n`);
      const report = await store.index(where.projectsDir);
      io.stdout(values.json ? `${JSON.stringify({ dbPath: store.info.dbPath, ...report }, null, 2)}\n` : describe(report, store.info.dbPath));
    } finally {
      await store.close();
    }
  } catch (err) {
    io.stderr(`baton index: ${err instanceof StoreError ? err.message : String(err)}\n`);
    return ExitCode.failure;
  }
  return ExitCode.ok;
}

export function describe(r: IndexResult, dbPath: string): string {
  const lines = [
    `Indexed ${r.projectsDir} into ${dbPath} in ${r.ms} ms`,
    `  files: ${r.filesSeen} seen, ${r.filesSkipped} unchanged, ${r.filesNew} new, ${r.filesAppended} appended, ` +
      `${r.filesReindexed} re-indexed, ${r.filesRemoved} removed`,
    `  read: ${formatBytes(r.bytesRead)}, ${r.linesRead} lines${r.badLines > 0 ? ` (${r.badLines} unreadable, skipped)` : ""}`,
    `  sessions: ${r.sessionsTotal} (${r.sessionsChanged} changed); search rows: ${r.rowsTotal} (+${r.rowsAdded})`,
  ];
  if (r.movedAsideTo !== null) lines.push(`  the old index was damaged: moved to ${r.movedAsideTo} and rebuilt`);
  for (const p of r.problems) lines.push(`  problem: ${terminalText(p.path)}: ${terminalText(p.message)}`);
  return `${lines.join("\n")}\n`;
}
