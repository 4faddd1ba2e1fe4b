// The peers bench:peers measures, at exact versions, each installed into a scratch folder of its
// own under bench/.data/peers/ (not Baton's node_modules, so their dependencies never meet
// Baton's): `npm install --prefix <folder> --no-save --ignore-scripts <name>@<version>`.
// --ignore-scripts because claude-code-ui's install scripts fetch sqlite3's and better-sqlite3's
// binaries from GitHub (not reachable here) or else build them, and node-pty, from source; its
// session reader needs none of them (see claudeCodeUi.ts). A folder already holding the pinned version is used as it is.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export interface PeerPackage {
  readonly name: string;
  readonly version: string;
}

/**
 * ccusage's native build: 20.x ships only a launcher (src/cli.js) and one binary per platform
 * (@ccusage/ccusage-<platform>-<arch>). Its JavaScript build: 18.0.11, the last version that ships
 * its JavaScript (dist/index.js, run with node) for Node 20; 19.0.3 also ships JavaScript but
 * asks for Node ≥ 22, and 20.0.11 on is the launcher and native binaries only.
 */
export const Peers = {
  ccusageNative: { name: "ccusage", version: "20.0.24" },
  ccusageJs: { name: "ccusage", version: "18.0.11" },
  claudeCodeUi: { name: "@siteboon/claude-code-ui", version: "1.12.0" },
} as const satisfies Record<string, PeerPackage>;

/** `<root>/<name>-<version>`, a scope's slash made a plus: one folder per pinned package. */
export function peerFolder(root: string, peer: PeerPackage): string {
  return path.join(root, `${peer.name.replace(/^@/, "").replace("/", "+")}-${peer.version}`);
}

export interface InstalledPeer {
  readonly peer: PeerPackage;
  /** The package's own folder (its package.json), inside the scratch folder's node_modules. */
  readonly packageDir: string;
}

/** The peer in its scratch folder, installed first when it is not there at its pinned version. */
export function installPeer(root: string, peer: PeerPackage): InstalledPeer {
  const prefix = peerFolder(root, peer);
  const packageDir = path.join(prefix, "node_modules", ...peer.name.split("/"));
  if (installedVersion(packageDir) !== peer.version) {
    fs.mkdirSync(prefix, { recursive: true });
    console.log(`installing ${peer.name}@${peer.version} into ${prefix} (npm install --no-save --ignore-scripts)`);
    const npm = spawnSync("npm", ["install", "--prefix", prefix, "--no-save", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel", "error", `${peer.name}@${peer.version}`], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    if (npm.error !== undefined || npm.status !== 0) throw new Error(`npm install ${peer.name}@${peer.version} failed: ${npm.error?.message ?? npm.stderr.trim()}`);
    const got = installedVersion(packageDir);
    if (got !== peer.version) throw new Error(`npm installed ${peer.name} ${got ?? "nowhere"} into ${prefix}, not ${peer.version}`);
  }
  return { peer, packageDir };
}

function installedVersion(packageDir: string): string | undefined {
  try {
    return (JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8")) as { version?: string }).version;
  } catch {
    return undefined;
  }
}
