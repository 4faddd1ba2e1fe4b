// Baton's own config files (settings.json, presets.json, rules.json) decide what agents may do: a
// rules.json that someone else can write lets them allow anything. So Baton reads one only when no
// one but the person can have written it, the rule OpenSSH applies to ~/.ssh:
// * the file is the person's (owned by the process's uid) with no group or other write bit, and
//   at most 1 MB. A symbolic link is followed: each link on the way must be the person's too, and
//   the rule applies to the file it leads to.
// * Every folder holding the file or one of its links, and every folder above those up to /, is
//   owned by the person or root and writable by no one else (a sticky folder such as /tmp is
//   fine: others cannot rename what is not theirs). Whoever can write a folder can put a file of
//   their own in the file's place, or swap a folder above it.
// The file is opened once and the checks on the file itself are made on the open descriptor, so
// what was checked is what is read; then the links are walked again and must still lead to that
// very file. Never more than the limit (plus one byte, to notice a file growing) is read.
// Windows has no uid and no mode bits that say this (ACLs do): there only the kind and the size
// are checked.

import fs, { constants } from "node:fs";
import path from "node:path";
import { describeKind, notRegularKind } from "./regularFile.js";

/** The most a config file may hold: the largest presets file a person writes is a few dozen KB. */
export const ConfigFileMaxBytes = 1024 * 1024;

/** Why a file is not read, and what the person can do about it. */
export interface ConfigRefusal {
  /** `/home/user/.config/baton/rules.json is writable by others (mode 0666)` */
  readonly what: string;
  /** `run chmod 600 /home/user/.config/baton/rules.json` */
  readonly fix?: string;
}

export type ConfigFileRead =
  | { readonly kind: "text"; readonly text: string }
  /** Nothing there (a link to nothing included): the caller's defaults, without a word. */
  | { readonly kind: "missing" }
  /** There, but not the person's alone (or too big, or not a file): not read at all. */
  | { readonly kind: "refused"; readonly refusal: ConfigRefusal }
  /** The system would not let it be read (permissions, I/O): `error` is its message. */
  | { readonly kind: "unreadable"; readonly error: string };

/** What tests change. */
export interface TrustOptions {
  readonly maxBytes?: number;
}

/** The whole sentence for a refusal: the file and its problem, what Baton does meanwhile, the fix. */
export function refusalMessage(refusal: ConfigRefusal, meanwhile: string): string {
  return `${refusal.what}: Baton does not read it (${meanwhile})${refusal.fix !== undefined ? `; ${refusal.fix}` : ""}`;
}

/** Thrown by writers that will not replace a file Baton refused to read (the person's to sort out). */
export class ConfigRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigRefusedError";
  }
}

// Windows has no O_NONBLOCK (nor FIFOs that open() blocks on).
const ReadFlags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const MaxLinks = 32;
/** S_ISVTX: in a sticky folder only a file's owner may rename or remove it. */
const StickyBit = 0o1000;

class Refused extends Error {
  constructor(readonly refusal: ConfigRefusal) {
    super(refusal.what);
  }
}

/** Reads a config file Baton trusts; never throws. */
export function readTrustedConfigFile(file: string, options: TrustOptions = {}): ConfigFileRead {
  const named = path.resolve(file);
  const maxBytes = options.maxBytes ?? ConfigFileMaxBytes;
  const uid = process.platform === "win32" ? undefined : process.getuid?.();
  let fd: number | undefined;
  try {
    const before = followLinks(named, uid);
    const kind = notRegularKind(before.stat);
    if (kind !== undefined) throw new Refused({ what: `${leadsTo(named, before.target)} is not a regular file (${describeKind(kind)})` });
    fd = fs.openSync(named, ReadFlags);
    const opened = fs.fstatSync(fd);
    checkFile(named, before.target, opened, uid, maxBytes);
    // The links are walked again after opening: they must still lead to the file that was opened
    // and checked, so no link swapped in between decides which folders were looked at.
    const after = followLinks(named, uid);
    if (after.stat.dev !== opened.dev || after.stat.ino !== opened.ino) throw new Refused({ what: `${named} changed while Baton read it`, fix: "try again" });
    if (uid !== undefined) checkFolders(named, after, uid);
    return { kind: "text", text: readAtMost(fd, named, opened.size, maxBytes) };
  } catch (error) {
    if (error instanceof Refused) return { kind: "refused", refusal: error.refusal };
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { kind: "missing" };
    if (code === "ELOOP") return { kind: "refused", refusal: { what: `${named} is a loop of symbolic links` } };
    return { kind: "unreadable", error: (error as Error).message };
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

interface Followed {
  /** Each symbolic link on the way, the named path first when it is one. */
  readonly links: readonly string[];
  /** The file the links lead to (the named path when it is no link). */
  readonly target: string;
  readonly stat: fs.Stats;
}

/** Walks the chain of links from `named` with lstat, refusing a link that is not the person's. */
function followLinks(named: string, uid: number | undefined): Followed {
  const links: string[] = [];
  let current = named;
  for (let hop = 0; hop <= MaxLinks; hop++) {
    const stat = fs.lstatSync(current);
    if (!stat.isSymbolicLink()) return { links, target: current, stat };
    if (uid !== undefined && stat.uid !== uid) {
      throw new Refused({ what: `${named}${current === named ? "" : ` (through ${current})`} is a symbolic link owned by uid ${stat.uid}, not by you (uid ${uid})`, fix: "replace it with a file of your own" });
    }
    links.push(current);
    // Relative to the link's real folder, as the system reads it (a `..` after a linked folder).
    current = path.resolve(fs.realpathSync(path.dirname(current)), fs.readlinkSync(current));
  }
  throw new Refused({ what: `${named} is a chain of more than ${MaxLinks} symbolic links` });
}

function checkFile(named: string, target: string, stat: fs.Stats, uid: number | undefined, maxBytes: number): void {
  const what = leadsTo(named, target);
  const kind = notRegularKind(stat);
  if (kind !== undefined) throw new Refused({ what: `${what} is not a regular file (${describeKind(kind)})` });
  if (uid !== undefined && stat.uid !== uid) {
    throw new Refused({ what: `${what} is owned by uid ${stat.uid}, not by you (uid ${uid})`, fix: `check what it says, then put a copy of your own in its place` });
  }
  const writers = otherWriters(stat.mode);
  if (uid !== undefined && writers !== undefined) {
    throw new Refused({ what: `${what} is writable by ${writers} (mode ${octal(stat.mode)})`, fix: `run chmod 600 ${target}` });
  }
  if (stat.size > maxBytes) throw new Refused({ what: `${what} is ${sizeText(stat.size)}, more than the ${sizeText(maxBytes)} a config file may be` });
}

/** The folders of the file and of every link to it, up to /: the person's or root's, and no one else's to write. */
function checkFolders(named: string, followed: Followed, uid: number): void {
  const seen = new Set<string>();
  for (const place of [...followed.links, followed.target]) {
    const what = place === named ? named : place === followed.target ? leadsTo(named, place) : `${named} (through the link ${place})`;
    for (let dir = fs.realpathSync(path.dirname(place)); !seen.has(dir); dir = path.dirname(dir)) {
      seen.add(dir);
      const stat = fs.statSync(dir);
      const sticky = (stat.mode & StickyBit) !== 0;
      if (stat.uid !== uid && stat.uid !== 0) {
        throw new Refused({ what: `${what} is in ${dir}, which belongs to uid ${stat.uid}, not to you (uid ${uid}): its owner can put another file in its place`, fix: "keep Baton's config in a folder of your own" });
      }
      const writers = otherWriters(stat.mode);
      if (writers !== undefined && !sticky) {
        throw new Refused({ what: `${what} is in ${dir}, which is writable by ${writers} (mode ${octal(stat.mode)}): they can put another file in its place`, fix: `run chmod go-w ${dir}` });
      }
      if (path.dirname(dir) === dir) break;
    }
  }
}

function readAtMost(fd: number, named: string, size: number, maxBytes: number): string {
  // One byte past the limit tells a file that grew since fstat from one that did not.
  const buffer = Buffer.alloc(Math.min(size, maxBytes) + 1);
  let length = 0;
  while (length < buffer.length) {
    const read = fs.readSync(fd, buffer, length, buffer.length - length, null);
    if (read === 0) break;
    length += read;
  }
  if (length > maxBytes) throw new Refused({ what: `${named} grew past ${sizeText(maxBytes)} while Baton read it` });
  return buffer.toString("utf8", 0, length);
}

/** `others` (whether or not its group may too: the mode says), `its group`, or undefined when only the owner may write. */
function otherWriters(mode: number): string | undefined {
  if ((mode & 0o002) !== 0) return "others";
  return (mode & 0o020) !== 0 ? "its group" : undefined;
}

function leadsTo(named: string, target: string): string {
  return target === named ? named : `${named} (a link to ${target})`;
}

function octal(mode: number): string {
  return `0${(mode & 0o7777).toString(8).padStart(3, "0")}`;
}

/** `27 MB`, `1 MB`; near a whole MB, the bytes (`1048577 bytes`, not a confusing `1.0 MB`). */
function sizeText(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (Number.isInteger(mb) || mb >= 10) return `${Math.round(mb)} MB`;
  return `${bytes} bytes`;
}
