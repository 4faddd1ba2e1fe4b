// Which config files Baton reads (trustedConfigFile.ts): only the person's own, written by no one
// else, in folders no one else can write, at most 1 MB; a link is followed and its target held to
// the same rule. Real files, modes, owners (as root, a file is given to `nobody`) and links.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigFileMaxBytes, readTrustedConfigFile, refusalMessage, type ConfigFileRead } from "../../src/main/platform/trustedConfigFile.js";
import { tempDirs } from "../support/tempDirs.js";

const uid = process.getuid?.() ?? -1;
/** Only root can give a file away. */
const asRoot = uid === 0;
const Nobody = 65534;
if (!asRoot) console.warn("trustedConfigFile: not root, so files owned by another user cannot be made; those tests are skipped");

/** A fresh folder of the person's own (mkdtemp: 0700, under the sticky /tmp). */
const folder = tempDirs("baton-trust-");

function write(file: string, text: string, mode: number): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  fs.chmodSync(file, mode); // chmod: the umask does not get a say
  return file;
}

function refused(read: ConfigFileRead): string {
  if (read.kind !== "refused") throw new Error(`expected a refusal, got ${JSON.stringify(read)}`);
  return refusalMessage(read.refusal, "meanwhile");
}

describe("a config file of the person's own", () => {
  it("is read: 0600, and 0644 (no one else may write it), in a folder of the person's", () => {
    const dir = folder();
    expect(readTrustedConfigFile(write(path.join(dir, "rules.json"), '{"a":1}', 0o600))).toEqual({ kind: "text", text: '{"a":1}' });
    expect(readTrustedConfigFile(write(path.join(dir, "presets.json"), "{}", 0o644))).toEqual({ kind: "text", text: "{}" });
  });

  it("missing, or a link to nothing: missing, without a word", () => {
    const dir = folder();
    expect(readTrustedConfigFile(path.join(dir, "rules.json"))).toEqual({ kind: "missing" });
    fs.symlinkSync(path.join(dir, "gone.json"), path.join(dir, "settings.json"));
    expect(readTrustedConfigFile(path.join(dir, "settings.json"))).toEqual({ kind: "missing" });
  });

  it("is read through a link of the person's to a file of the person's in another folder of theirs", () => {
    const dir = folder();
    const target = write(path.join(dir, "dotfiles", "baton", "rules.json"), "[1]", 0o600);
    fs.mkdirSync(path.join(dir, "config"), { mode: 0o700 });
    fs.symlinkSync("../dotfiles/baton/rules.json", path.join(dir, "config", "rules.json"));
    expect(readTrustedConfigFile(path.join(dir, "config", "rules.json"))).toEqual({ kind: "text", text: "[1]" });
    // Two links on the way are followed too.
    fs.symlinkSync(target, path.join(dir, "dotfiles", "rules-link.json"));
    fs.symlinkSync(path.join(dir, "dotfiles", "rules-link.json"), path.join(dir, "config", "presets.json"));
    expect(readTrustedConfigFile(path.join(dir, "config", "presets.json"))).toEqual({ kind: "text", text: "[1]" });
  });

  it("in a sticky folder anyone may write (as /tmp): read, since no one else can rename it away", () => {
    const sticky = path.join(folder(), "shared");
    fs.mkdirSync(sticky);
    fs.chmodSync(sticky, 0o1777);
    expect(readTrustedConfigFile(write(path.join(sticky, "rules.json"), "{}", 0o600))).toEqual({ kind: "text", text: "{}" });
  });
});

describe("a config file someone else could have written is refused, with what to do", () => {
  it("0666: writable by others, named with its mode and the chmod that mends it", () => {
    const file = write(path.join(folder(), "rules.json"), '{"version":1,"rules":[]}', 0o666);
    expect(refused(readTrustedConfigFile(file))).toBe(`${file} is writable by others (mode 0666): Baton does not read it (meanwhile); run chmod 600 ${file}`);
  });

  it("group-writable (0664, 0620): writable by its group", () => {
    const dir = folder();
    expect(refused(readTrustedConfigFile(write(path.join(dir, "a.json"), "{}", 0o664)))).toContain("a.json is writable by its group (mode 0664)");
    expect(refused(readTrustedConfigFile(write(path.join(dir, "b.json"), "{}", 0o620)))).toContain("b.json is writable by its group (mode 0620)");
    expect(refused(readTrustedConfigFile(write(path.join(dir, "c.json"), "{}", 0o622)))).toContain("c.json is writable by others (mode 0622)");
  });

  it("a link to a file writable by others: the link and its target are named, the chmod is for the target", () => {
    const dir = folder();
    const target = write(path.join(dir, "elsewhere", "rules.json"), "{}", 0o666);
    const link = path.join(dir, "rules.json");
    fs.symlinkSync(target, link);
    expect(refused(readTrustedConfigFile(link))).toBe(`${link} (a link to ${target}) is writable by others (mode 0666): Baton does not read it (meanwhile); run chmod 600 ${target}`);
  });

  it("27 MB: refused by its size, named in MB", () => {
    const file = path.join(folder(), "rules.json");
    fs.writeFileSync(file, "");
    fs.truncateSync(file, 27 * 1024 * 1024);
    expect(refused(readTrustedConfigFile(file))).toBe(`${file} is 27 MB, more than the 1 MB a config file may be: Baton does not read it (meanwhile)`);
    // The limit itself: 1 MB is read, one byte more is not.
    const edge = path.join(folder(), "presets.json");
    fs.writeFileSync(edge, "x".repeat(ConfigFileMaxBytes));
    expect(readTrustedConfigFile(edge)).toMatchObject({ kind: "text" });
    fs.appendFileSync(edge, "x");
    expect(refused(readTrustedConfigFile(edge))).toContain(`is ${ConfigFileMaxBytes + 1} bytes, more than the 1 MB`);
  });

  it("in a folder writable by others (not sticky), even when the file itself is fine: they could put another in its place", () => {
    const open = path.join(folder(), "config");
    const file = write(path.join(open, "rules.json"), "{}", 0o600);
    fs.chmodSync(open, 0o777);
    expect(refused(readTrustedConfigFile(file))).toBe(`${file} is in ${open}, which is writable by others (mode 0777): they can put another file in its place: Baton does not read it (meanwhile); run chmod go-w ${open}`);
    // A folder further up counts as much: whoever writes it can swap the folders below.
    const top = path.join(folder(), "top");
    const deep = write(path.join(top, "a", "baton", "settings.json"), "{}", 0o600);
    fs.chmodSync(top, 0o775);
    expect(refused(readTrustedConfigFile(deep))).toContain(`is in ${top}, which is writable by its group (mode 0775)`);
  });

  it("a link in a folder writable by others, whose target is fine: refused (the link could be replaced)", () => {
    const dir = folder();
    const target = write(path.join(dir, "safe", "rules.json"), "{}", 0o600);
    const open = path.join(dir, "open");
    fs.mkdirSync(open);
    fs.symlinkSync(target, path.join(open, "rules.json"));
    fs.chmodSync(open, 0o757);
    expect(readTrustedConfigFile(target)).toMatchObject({ kind: "text" });
    expect(refused(readTrustedConfigFile(path.join(open, "rules.json")))).toContain(`is in ${open}, which is writable by others (mode 0757)`);
    // A link on the way there counts as much as the first.
    const first = path.join(dir, "safe", "presets.json");
    fs.symlinkSync(path.join(open, "rules.json"), first);
    expect(refused(readTrustedConfigFile(first))).toContain(`${first} (through the link ${path.join(open, "rules.json")}) is in ${open}`);
  });

  it("a link of the person's whose target lies in a folder writable by others: refused", () => {
    const dir = folder();
    const open = path.join(dir, "open");
    const target = write(path.join(open, "rules.json"), "{}", 0o600);
    fs.chmodSync(open, 0o777);
    const link = path.join(dir, "rules.json");
    fs.symlinkSync(target, link);
    expect(refused(readTrustedConfigFile(link))).toContain(`${link} (a link to ${target}) is in ${open}, which is writable by others`);
  });

  it("a FIFO, a folder or a loop of links in its place: refused at once, never waited on", () => {
    const dir = folder();
    execFileSync("mkfifo", [path.join(dir, "fifo.json")]);
    expect(refused(readTrustedConfigFile(path.join(dir, "fifo.json")))).toContain("fifo.json is not a regular file (a FIFO)");
    fs.mkdirSync(path.join(dir, "dir.json"));
    expect(refused(readTrustedConfigFile(path.join(dir, "dir.json")))).toContain("dir.json is not a regular file (a directory)");
    fs.symlinkSync(path.join(dir, "b.json"), path.join(dir, "a.json"));
    fs.symlinkSync(path.join(dir, "a.json"), path.join(dir, "b.json"));
    expect(refused(readTrustedConfigFile(path.join(dir, "a.json")))).toContain("a.json is a chain of more than 32 symbolic links");
  });
});

describe.skipIf(!asRoot)("a config file of another user's (as root: given to nobody)", () => {
  it("owned by another user: refused, naming the owner", () => {
    const file = write(path.join(folder(), "rules.json"), "{}", 0o600);
    fs.chownSync(file, Nobody, Nobody);
    expect(refused(readTrustedConfigFile(file))).toBe(
      `${file} is owned by uid ${Nobody}, not by you (uid ${uid}): Baton does not read it (meanwhile); check what it says, then put a copy of your own in its place`,
    );
  });

  it("a link of the person's to another user's file (mode 0600 or 0644): refused, naming both", () => {
    const dir = folder();
    const theirs = write(path.join(dir, "theirs", "rules.json"), "{}", 0o644);
    fs.chownSync(theirs, Nobody, Nobody);
    const link = path.join(dir, "rules.json");
    fs.symlinkSync(theirs, link);
    expect(refused(readTrustedConfigFile(link))).toContain(`${link} (a link to ${theirs}) is owned by uid ${Nobody}, not by you`);
  });

  it("a link owned by another user, to a file of the person's: refused", () => {
    const dir = folder();
    const mine = write(path.join(dir, "mine.json"), "{}", 0o600);
    const link = path.join(dir, "rules.json");
    fs.symlinkSync(mine, link);
    fs.lchownSync(link, Nobody, Nobody);
    expect(refused(readTrustedConfigFile(link))).toContain(`${link} is a symbolic link owned by uid ${Nobody}, not by you`);
  });

  it("in a folder another user owns: refused (its owner can replace the file)", () => {
    const theirs = path.join(folder(), "theirs");
    const file = write(path.join(theirs, "settings.json"), "{}", 0o600);
    fs.chownSync(theirs, Nobody, Nobody);
    expect(refused(readTrustedConfigFile(file))).toContain(`${file} is in ${theirs}, which belongs to uid ${Nobody}, not to you`);
  });
});
