// One measurement of claude-code-ui's session reader in a fresh process, its server not started:
//   node --import ./register.mjs reader.mjs <projects.js> projects
//   node --import ./register.mjs reader.mjs <projects.js> messages <projectName> <sessionId> <limit>
// HOME is the benchmark's, its .claude/projects a link to the archive. Imports the reader
// (projects.js) first, then times only the call: getProjects() as its sidebar loads it, or
// getSessionMessages(project, session, limit, 0) as its chat view loads a session's newest
// messages. Prints one JSON line: {"ms", …what the call returned, counted}.
import { pathToFileURL } from "node:url";

const [projectsJs, mode, projectName, sessionId, limit] = process.argv.slice(2);
if (projectsJs === undefined || (mode !== "projects" && mode !== "messages")) {
  throw new Error("usage: reader.mjs <projects.js> projects | messages <projectName> <sessionId> <limit>");
}
const reader = await import(pathToFileURL(projectsJs).href);
/** Set by the sqlite3 stand-in when the reader reached it (sqlite3StandIn.mjs). */
const standInUsed = () => globalThis[Symbol.for("baton.bench.sqlite3StandInUsed")];
if (mode === "projects") {
  const t0 = performance.now();
  const projects = await reader.getProjects();
  const ms = performance.now() - t0;
  if (standInUsed() !== undefined) throw new Error(`getProjects() used sqlite3 (${standInUsed()}): this HOME has Cursor chats, so the run would not measure what it says`);
  const shown = projects.reduce((n, p) => n + (p.sessions?.length ?? 0), 0);
  const total = projects.reduce((n, p) => n + (p.sessionMeta?.total ?? 0), 0);
  console.log(JSON.stringify({ ms, projects: projects.length, sessionsShown: shown, sessionsCounted: total }));
} else {
  if (projectName === undefined || sessionId === undefined) throw new Error("messages needs <projectName> <sessionId>");
  const t0 = performance.now();
  const result = await reader.getSessionMessages(projectName, sessionId, Number(limit ?? "20"), 0);
  const ms = performance.now() - t0;
  if (standInUsed() !== undefined) throw new Error(`getSessionMessages() used sqlite3 (${standInUsed()})`);
  if (!Array.isArray(result.messages)) throw new Error(`getSessionMessages returned no messages: ${JSON.stringify(result).slice(0, 200)}`);
  console.log(JSON.stringify({ ms, messages: result.messages.length, total: result.total }));
}
