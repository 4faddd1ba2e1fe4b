// `baton search "<query>"`: refreshes the index (only new bytes), then prints the best matches.
import { parseArgs } from "node:util";
import { STORE_OPTIONS_HELP, storeLocation } from "./storeOptions.js";
import { StoreError } from "../platform/sqlite/errors.js";
import type { SearchHit } from "../search/search.js";
import { indexUpgradedMessage } from "../store/indexUpgraded.js";
import { openStoreHere } from "../store/storeHere.js";
import type { StoreClient } from "../store/storeClient.js";
import type { IndexResult } from "../store/storeService.js";
import { terminalJson } from "../../shared/terminalText.js";
import { ExitCode, terminalIO, type CommandIO } from "./commandIO.js";
import { reportAuditMoved } from "./storeNotices.js";

const HELP = `Usage: baton search <query> [--projects-dir <dir>] [--db <file>] [--limit N] [--json]

Full-text search over Claude Code history: prompts, assistant text and thinking, tool inputs and
outputs (whole, however long), every subagent's transcript, session titles and project folder
names. Words must all match; "quoted words" match as a phrase; word* matches a prefix. Chinese,
Japanese and Korean text matches any two or more characters of it (one character: wherever it
is). Matches are shown best first, with the matched words in « », each with its session's id and
project folder (--json: "project", and "file", the transcript the match is in).

Options:
${STORE_OPTIONS_HELP}
  --limit <n>             At most n results (default 20)
  --json                  Print the results as JSON
`;

export async function run(args: readonly string[], terminal: CommandIO): Promise<number> {
  // Titles, cwd, prompts and tool text come from files anyone could have written.
  const io = terminalIO(terminal);
  let values: { "projects-dir"?: string; db?: string; json?: boolean; help?: boolean; limit?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: {
        "projects-dir": { type: "string" },
        db: { type: "string" },
        limit: { type: "string" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (err) {
    io.stderr(`baton search: ${(err as Error).message}\n\n${HELP}`);
    return ExitCode.usage;
  }
  if (values.help) {
    io.stdout(HELP);
    return ExitCode.ok;
  }
  const query = positionals.join(" ");
  const limit = values.limit === undefined ? 20 : Number(values.limit);
  if (query.trim() === "" || !Number.isInteger(limit) || limit < 1) {
    io.stderr(`baton search: ${query.trim() === "" ? "give a query" : "--limit takes a positive whole number"}\n\n${HELP}`);
    return ExitCode.usage;
  }
  const where = storeLocation(values);
  try {
    // On this thread: a search is all this process does, and a worker's start would be most of its wait.
    const store = await openStoreHere({ dbPath: where.dbPath });
    try {
      await reportAuditMoved(store, io, "search");
      const { upgradedFrom, schemaVersion } = store.info;
      if (upgradedFrom !== null) io.stderr(`baton search: ${indexUpgradedMessage(upgradedFrom, schemaVersion)}\n`);
      const report = await refreshed(store, where.projectsDir, io);
      if (report?.movedAsideTo != null) io.stderr(`baton search: the index was damaged; moved to ${report.movedAsideTo} and rebuilt\n`);
      const read = report === undefined ? 0 : report.filesNew + report.filesAppended + report.filesReindexed;
      if (report !== undefined && read > 0) io.stderr(`baton search: indexed ${read} new or changed file(s) in ${report.ms} ms\n`);
      const hits = await store.search(query, { limit, projectsDir: where.projectsDir });
      io.stdout(values.json ? `${terminalJson(hits, 2)}\n` : describe(hits, query));
    } finally {
      await store.close();
    }
  } catch (err) {
    if (err instanceof StoreError && err.code === "bad_query") {
      io.stderr(`baton search: ${err.message}\n`);
      return ExitCode.usage;
    }
    io.stderr(`baton search: ${err instanceof StoreError ? err.message : String(err)}\n`);
    return ExitCode.failure;
  }
  return ExitCode.ok;
}

/**
 * Brings the index up to date before searching. A lock held by another program or a full disk
 * stops only that: what was indexed before still answers, and the person is told.
 */
async function refreshed(store: StoreClient, projectsDir: string, io: CommandIO): Promise<IndexResult | undefined> {
  try {
    return await store.index(projectsDir);
  } catch (err) {
    if (!(err instanceof StoreError && (err.code === "busy" || err.code === "disk_full"))) throw err;
    io.stderr(`baton search: ${err.message}; searching what was indexed before\n`);
    return undefined;
  }
}

export function describe(hits: readonly SearchHit[], query: string): string {
  if (hits.length === 0) return `No matches for ${JSON.stringify(query)}.\n`;
  const blocks = hits.map((h) => {
    const who = h.subagent
      ? `subagent ${h.subagent.description ?? h.subagent.agentType ?? "?"} (${h.subagent.agentId})`
      : "main";
    const snippet = h.snippet.replace(/\s+/g, " ").trim();
    return [
      `${h.sessionTitle ?? "(untitled)"} — ${h.cwd ?? h.project ?? "?"}`,
      `  ${h.time ?? "?"}  ${who}  ${h.kind}`,
      `  ${snippet}`,
      `  session ${h.sessionId} in ${h.project}  line ${h.ref}`,
    ].join("\n");
  });
  return `${blocks.join("\n\n")}\n`;
}
