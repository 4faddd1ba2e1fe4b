// What `npm run dist` tells a person when electron-builder cannot make the installers: it
// downloads Electron's binary for each target (github.com) and Electron's headers to rebuild
// better-sqlite3 (electronjs.org), and a macOS installer is made only on macOS. Pure:
// scripts/dist.mjs feeds it electron-builder's captured output and exit code and prints the
// paragraph. Plain JavaScript so it runs without a build step; types in distFailure.d.mts.

/** Where the installers are built for every system, on runners that have the network. */
export const RELEASE_WORKFLOW = ".github/workflows/release.yml";

const NETWORK = [
  /fetch failed/i,
  /\bE(?:NOTFOUND|AI_AGAIN|CONNREFUSED|CONNRESET|TIMEDOUT|HOSTUNREACH|NETUNREACH)\b/,
  /\bUND_ERR_[A-Z_]+/,
  /\bself[- ]signed certificate|unable to (?:get local issuer|verify the first) certificate/i,
  /\bHTTPError\b|status code (?:4|5)\d\d|Response code (?:4|5)\d\d/i,
  /socket hang up/i,
];

const MAC_ONLY = /Build for macOS is supported only on macOS|only on macOS/i;

/**
 * The first line that says what went wrong, stacks and progress lines dropped. electron-builder
 * prints its error as `⨯ message  key=value …`: the message alone is quoted.
 */
function firstErrorLine(output) {
  const lines = output
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && !/^at\s/.test(l) && !l.startsWith("•"));
  const found = lines.find((l) => l.startsWith("⨯")) ?? lines.find((l) => /error|failed|cannot|ENOTFOUND|EAI_AGAIN/i.test(l)) ?? lines[0];
  const line = found?.replace(/^⨯\s*/, "").split(/\s{2,}/)[0];
  return line === undefined || line === "" ? undefined : line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/**
 * Why electron-builder failed, or undefined when it did not (exit 0).
 * @param {{ exitCode: number, output: string }} run
 */
export function recogniseDistFailure({ exitCode, output }) {
  if (exitCode === 0) return undefined;
  const quoted = firstErrorLine(output);
  const kind = MAC_ONLY.test(output) ? "mac-elsewhere" : NETWORK.some((re) => re.test(output)) ? "network" : "other";
  return quoted === undefined ? { kind } : { kind, quoted };
}

/**
 * The paragraph for a failure, ending with where the full output was kept.
 * @param {{ kind: string, quoted?: string }} failure
 * @param {{ log: string }} context
 */
export function describeDistFailure(failure, { log }) {
  const said = failure.quoted === undefined ? "" : ` It said: "${failure.quoted}".`;
  const why = {
    network:
      "npm run dist could not make the installers: electron-builder downloads Electron's binary for each system it packages (from github.com) and Electron's headers to rebuild better-sqlite3 (from electronjs.org), and this machine could not reach them.",
    "mac-elsewhere": "npm run dist could not make the macOS installer: electron-builder makes a dmg only on macOS.",
    other: "npm run dist stopped: electron-builder failed.",
  }[failure.kind];
  const todo = {
    network: `Run it again where those sites are reachable, or push a version tag and let ${RELEASE_WORKFLOW} build the Linux, macOS and Windows installers on its runners.`,
    "mac-elsewhere": `Run npm run dist on a Mac, or push a version tag and let ${RELEASE_WORKFLOW} build it on its macOS runner.`,
    other: `Its full output is in the log below; ${RELEASE_WORKFLOW} builds the installers on runners made for it.`,
  }[failure.kind];
  return `${why}${said} ${todo} node_modules is as it was (the Node build of better-sqlite3 the tests and npx baton use). Full output: ${log}`;
}
