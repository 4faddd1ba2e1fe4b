// What `npm start` tells a person when the desktop window cannot come up: Electron's binary could
// not be downloaded (no network, a proxy or firewall refusing it, or a Node older than its
// downloader needs) or Electron could not start (a missing shared library, no display). Pure:
// scripts/start.mjs feeds it the captured stderr and exit code of each step and prints the
// paragraph. Plain JavaScript so `npm start` needs no build step; types in startFailure.d.mts.

/** Electron 45's downloader (@electron/get 5, on the fetch of Node 22) declares Node >= 22.12. */
export const DOWNLOADER_NODE = "22.12.0";

/** The command that runs the same UI in a browser; it prints the link that signs a tab in. */
export const WEB_COMMAND = "npm run web";

const NETWORK = [
  /fetch failed/i,
  /\bE(?:NOTFOUND|AI_AGAIN|CONNREFUSED|CONNRESET|TIMEDOUT|HOSTUNREACH|NETUNREACH)\b/,
  /\bUND_ERR_[A-Z_]+/,
  /\bself[- ]signed certificate|unable to (?:get local issuer|verify the first) certificate|CERT_[A-Z_]+/i,
  /\bHTTPError\b|Response code (?:4|5)\d\d|status code (?:4|5)\d\d|\b(?:403|404|407|502|503) \(/i,
  /\bproxy\b/i,
  // A mirror or proxy that served something else than Electron's zip.
  /did not match expected checksum/i,
];

/** How code written for a newer Node fails on an older one. */
const NODE_TOO_OLD = [/is not a function/, /is not defined/, /\bSyntaxError\b/, /ERR_REQUIRE_ESM|ERR_UNKNOWN_BUILTIN_MODULE|ERR_UNSUPPORTED_/];

const MISSING_LIBRARY = /error while loading shared libraries: ([^\s:]+)/;
const NO_DISPLAY = [/Missing X server or \$DISPLAY/, /cannot open display/i, /Failed to connect to Wayland display/i, /The platform failed to initialize/];

/** `a.b.c` compared numerically; true when `version` is below `minimum`. */
export function olderThan(version, minimum) {
  const parts = (v) => v.replace(/^v/, "").split(".").map((p) => Number.parseInt(p, 10) || 0);
  const [a, b] = [parts(version), parts(minimum)];
  for (let i = 0; i < 3; i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0);
  }
  return false;
}

/** On Linux Electron needs an X or Wayland display; known before anything is downloaded. */
export function displayMissing(platform, env) {
  return platform === "linux" && !env.DISPLAY && !env.WAYLAND_DISPLAY;
}

/** The first line of the error a step printed, to quote it in the paragraph (stacks dropped). */
function firstErrorLine(stderr) {
  const lines = stderr.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length > 0 && !/^at\s/.test(l) && !/^>/.test(l));
  const line = lines.find((l) => /error|failed|cannot|missing/i.test(l)) ?? lines[0];
  return line === undefined ? undefined : line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/**
 * Why a step of `npm start` failed, or undefined when it did not (exit 0).
 * `step`: "download" (install-electron) or "launch" (electron-vite dev starting Electron);
 * `preflight` with step "launch" means Electron was not tried (no display known beforehand).
 */
export function recogniseStartFailure({ step, exitCode, stderr, nodeVersion, platform, env, preflight = false }) {
  if (preflight && displayMissing(platform, env)) return { kind: "no-display" };
  if (exitCode === 0) return undefined;
  const quoted = firstErrorLine(stderr);
  const withQuote = (failure) => (quoted === undefined ? failure : { ...failure, quoted });
  if (step === "download") {
    const nodeTooOld = olderThan(nodeVersion, DOWNLOADER_NODE);
    if (NETWORK.some((re) => re.test(stderr))) return withQuote({ kind: "download", nodeTooOld });
    if (nodeTooOld && NODE_TOO_OLD.some((re) => re.test(stderr))) return withQuote({ kind: "node-version", nodeTooOld });
    return withQuote({ kind: "download-other", nodeTooOld });
  }
  const library = MISSING_LIBRARY.exec(stderr);
  if (library) return withQuote({ kind: "missing-library", library: library[1] });
  if (NO_DISPLAY.some((re) => re.test(stderr)) || (displayMissing(platform, env) && exitCode !== 0)) return withQuote({ kind: "no-display" });
  return withQuote({ kind: "launch-other" });
}

/** Libraries Electron ships beside its binary: missing means a broken download, not the system. */
const ELECTRON_OWN_LIBRARIES = new Set(["libffmpeg.so", "libEGL.so", "libGLESv2.so", "libvk_swiftshader.so", "libvulkan.so.1"]);

/** Which package provides a library on Debian/Ubuntu, for the commonest ones Electron needs. */
const DEBIAN_PACKAGES = {
  "libnss3.so": "libnss3",
  "libnspr4.so": "libnspr4",
  "libatk-1.0.so.0": "libatk1.0-0",
  "libatk-bridge-2.0.so.0": "libatk-bridge2.0-0",
  "libgtk-3.so.0": "libgtk-3-0",
  "libgbm.so.1": "libgbm1",
  "libasound.so.2": "libasound2",
  "libxss.so.1": "libxss1",
  "libXss.so.1": "libxss1",
  "libdrm.so.2": "libdrm2",
  "libxkbcommon.so.0": "libxkbcommon0",
  "libcups.so.2": "libcups2",
};

/**
 * One paragraph: what failed, what to do about it, and the browser instead. `nodeVersion` is the
 * running Node's; `offer` is how the browser is offered ("ask" on a terminal, "print" otherwise).
 */
export function describeStartFailure(failure, { nodeVersion, offer }) {
  const said = failure.quoted !== undefined ? ` (it said: ${failure.quoted})` : "";
  const nodeNote = failure.nodeTooOld
    ? ` Electron's downloader also asks for Node ${DOWNLOADER_NODE} or newer and this is Node ${nodeVersion.replace(/^v/, "")}: if it keeps failing, install a newer Node (e.g. \`nvm install 22\`) and run \`npm start\` again.`
    : "";
  let what;
  switch (failure.kind) {
    case "download":
      what = `Baton's desktop window could not start: Electron's binary could not be downloaded${said}. It comes from github.com once, on the first \`npm start\`; check the network, or a proxy (HTTPS_PROXY) or firewall in the way, or point ELECTRON_MIRROR at a mirror you can reach, then run \`npm start\` again.${nodeNote}`;
      break;
    case "node-version":
      what = `Baton's desktop window could not start: Electron's downloader failed${said}, and it asks for Node ${DOWNLOADER_NODE} or newer while this is Node ${nodeVersion.replace(/^v/, "")}. Install a newer Node (e.g. \`nvm install 22\`), then run \`npm install\` and \`npm start\` again.`;
      break;
    case "download-other":
      what = `Baton's desktop window could not start: Electron's binary could not be installed${said}. Delete the folder node_modules/electron/dist and run \`npm start\` again; if it fails the same way, run \`npm install\` first.${nodeNote}`;
      break;
    case "missing-library": {
      if (ELECTRON_OWN_LIBRARIES.has(failure.library)) {
        what = `Baton's desktop window could not start: Electron's own ${failure.library} is missing, so its download is incomplete. Delete the folder node_modules/electron/dist and run \`npm start\` again (it downloads Electron again).`;
        break;
      }
      const pkg = DEBIAN_PACKAGES[failure.library];
      what = `Baton's desktop window could not start: Electron needs the shared library ${failure.library}, which is not installed${pkg !== undefined ? ` (on Debian or Ubuntu: \`sudo apt-get install ${pkg}\`)` : " (install the package of your distribution that provides it)"}, then run \`npm start\` again.`;
      break;
    }
    case "no-display":
      what = "Baton's desktop window could not start: there is no display to open it on (neither DISPLAY nor WAYLAND_DISPLAY is set, as over SSH or in a container). Run `npm start` from a desktop session, or over `ssh -X`.";
      break;
    default:
      what = `Baton's desktop window could not start: Electron exited with an error${said}; the lines above say more.`;
  }
  const browser =
    offer === "ask"
      ? " Baton also runs in your browser, with the same window: `npm run web` builds it and prints a link to open on this machine (Node 20.19 or newer)."
      : " Baton also runs in your browser, with the same window: run `npm run web`, which builds it and prints a link to open on this machine (Node 20.19 or newer).";
  return what + browser;
}

/** The answer to "Open Baton in your browser instead? [Y/n]": empty (Enter) means yes. */
export function acceptsOffer(answer) {
  const a = answer.trim().toLowerCase();
  return a === "" || a === "y" || a === "yes";
}
