// A repository whose config, an included config file, a config included only on agent branches,
// the person's own (global) config and its .gitattributes name a program for every mechanism git
// has for running one: fsmonitor, hooks (in the hooks path, in .git/hooks and defined in config),
// filter drivers (clean, smudge, process), diff.external, diff drivers (textconv, command), pagers,
// merge drivers, ssh, askpass, credential helpers, editors, gpg with signing on, alternate refs.
// Each program only creates a marker file named for itself (then does its job plainly, so git run
// plainly still works), so a test sees which of them ran. Worktrees are made before it is armed.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { git, commitFile, writeFileIn } from "./git.js";

export interface ArmedRepository {
  readonly root: string;
  readonly repo: string;
  /** Its worktrees: to fast-forward, to merge with a merge commit, to merge by objects into `side`, both-sides-changed, dirty, clean. */
  readonly ff: string;
  readonly mc: string;
  readonly obj: string;
  readonly both: string;
  readonly dirty: string;
  readonly clean: string;
  /** The person's own config folder (XDG_CONFIG_HOME), defining the `glob` drivers. */
  readonly xdg: string;
  /** The programs that have run, by marker name. */
  markers(): string[];
  clearMarkers(): void;
}

export const HookNames = [
  "applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit", "pre-merge-commit", "prepare-commit-msg", "commit-msg",
  "post-commit", "pre-rebase", "post-checkout", "post-merge", "pre-push", "pre-receive", "update", "proc-receive", "post-receive",
  "post-update", "reference-transaction", "push-to-checkout", "pre-auto-gc", "post-rewrite", "sendemail-validate",
  "fsmonitor-watchman", "post-index-change",
];

/** One file per driver: the repository's own (evil), an included file's (inc), the person's own (glob), an agent branch's (branchy); plain.md has none (diff.external's). */
export const Tracked = ["a.txt", "b.inc", "c.glob", "d.br"] as const;

const Lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
export const Original = `${Lines.join("\n")}\n`;
/** The file with its first or last line changed: two changes git merges line by line. */
export const FirstChanged = Original.replace("line 1\n", "line 1 (worktree)\n");
export const LastChanged = Original.replace("line 10\n", "line 10 (main)\n");

/** The same repository and worktrees; `arm` decides whether its config names the programs. */
export function makeRepository(options: { readonly arm: boolean }): ArmedRepository {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "baton-armed-")));
  const repo = path.join(root, "repo");
  const markerDir = path.join(root, "markers");
  const programs = path.join(root, "programs");
  const xdg = path.join(root, "xdg");
  fs.mkdirSync(repo);
  fs.mkdirSync(markerDir);
  git(repo, "init", "-q", "-b", "main");
  writeFileIn(repo, ".gitattributes", ["*.txt filter=evil diff=evil merge=evil", "*.inc filter=inc diff=inc merge=inc", "*.glob filter=glob diff=glob merge=glob", "*.br filter=branchy diff=branchy", "*.proc filter=proc", ""].join("\n"));
  for (const f of [...Tracked, "plain.md"]) writeFileIn(repo, f, Original);
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", "First");
  git(repo, "branch", "side");
  const add = (name: string, from: string): string => {
    git(repo, "worktree", "add", "-q", "-b", `agent-${name}`, path.join(root, name), from);
    return fs.realpathSync(path.join(root, name));
  };
  const mc = add("mc", "main");
  commitFile(mc, "b.inc", FirstChanged, "mc: b.inc");
  const both = add("both", "main");
  commitFile(both, "a.txt", LastChanged, "both: the last line of a.txt");
  const obj = add("obj", "side");
  commitFile(obj, "b.inc", FirstChanged, "obj: b.inc");
  // `side` moves on without a checkout of it left behind: merging obj into it takes a merge commit.
  const sideWork = path.join(root, "side-work");
  git(repo, "worktree", "add", "-q", sideWork, "side");
  commitFile(sideWork, "c.glob", LastChanged, "side: c.glob");
  git(repo, "worktree", "remove", sideWork);
  commitFile(repo, "c.glob", LastChanged, "main: c.glob");
  const ff = add("ff", "main");
  commitFile(ff, "a.txt", FirstChanged, "ff: a.txt");
  const dirty = add("dirty", "main");
  const clean = add("clean", "main");
  if (options.arm) arm(root, repo, programs, markerDir, xdg);
  else writeFileIn(xdg, "git/config", "");
  // After arming: a dirty worktree (modified in every driver's files, and new files, one for the
  // process filter, whose failing program would stop any git that hashes it), and a clean one
  // whose files are touched (same content, new times) so a status must read them again.
  for (const f of [...Tracked, "plain.md"]) writeFileIn(dirty, f, `${Original}changed ${f}\n`);
  writeFileIn(dirty, "new.txt", "new\n");
  writeFileIn(dirty, "new.proc", "new\n");
  const later = new Date(Date.now() + 5_000);
  for (const f of Tracked) fs.utimesSync(path.join(clean, f), later, later);
  const markers = (): string[] => fs.readdirSync(markerDir).sort();
  const clearMarkers = (): void => {
    for (const m of fs.readdirSync(markerDir)) fs.rmSync(path.join(markerDir, m));
  };
  clearMarkers();
  return { root, repo, ff, mc, obj, both, dirty, clean, xdg, markers, clearMarkers };
}

function arm(root: string, repo: string, programs: string, markerDir: string, xdg: string): void {
  const program = (name: string, then: string): string => {
    const file = path.join(programs, name);
    writeFileIn(programs, name, `#!/bin/sh\n: > '${path.join(markerDir, name)}'\n${then}\n`);
    fs.chmodSync(file, 0o755);
    return file;
  };
  const passThrough = (name: string): string => program(name, "exec cat");
  const textconv = (name: string): string => program(name, 'exec cat "$1"');
  const fails = (name: string): string => program(name, "exit 1");
  const succeeds = (name: string): string => program(name, "exit 0");
  const hooks = path.join(programs, "hooks");
  for (const hook of HookNames) {
    writeFileIn(hooks, hook, `#!/bin/sh\n: > '${path.join(markerDir, `hook-${hook}`)}'\nexit 0\n`);
    fs.chmodSync(path.join(hooks, hook), 0o755);
    writeFileIn(path.join(repo, ".git", "hooks"), hook, `#!/bin/sh\n: > '${path.join(markerDir, `git-dir-hook-${hook}`)}'\nexit 0\n`);
    fs.chmodSync(path.join(repo, ".git", "hooks", hook), 0o755);
  }
  const drivers = (name: string): string => `[filter "${name}"]\n\tclean = ${passThrough(`filter-${name}-clean`)}\n\tsmudge = ${passThrough(`filter-${name}-smudge`)}\n\trequired = true\n[diff "${name}"]\n\ttextconv = ${textconv(`textconv-${name}`)}\n\tcommand = ${succeeds(`diff-command-${name}`)}\n[merge "${name}"]\n\tdriver = ${succeeds(`merge-driver-${name}`)} %O %A %B\n`;
  // Pulled in by the repository's config: drivers and a hook of config-based hooks (git 2.54+).
  writeFileIn(root, "included.config", `${drivers("inc")}[hook "inc"]\n\tcommand = ${succeeds("config-hook-inc")}\n\tevent = post-merge\n\tevent = reference-transaction\n`);
  // Pulled in only where an agent branch is checked out.
  writeFileIn(root, "onbranch.config", drivers("branchy"));
  // The person's own config: drivers the repository's .gitattributes chooses for its files.
  writeFileIn(xdg, "git/config", drivers("glob"));
  const config: [string, string][] = [
    ["core.fsmonitor", fails("fsmonitor")],
    ["core.hooksPath", hooks],
    ["filter.proc.process", fails("filter-proc-process")],
    ["filter.proc.required", "false"],
    ["diff.external", succeeds("diff-external")],
    ["core.pager", passThrough("core-pager")],
    ["pager.diff", passThrough("pager-diff")],
    ["pager.log", passThrough("pager-log")],
    ["pager.status", passThrough("pager-status")],
    ["core.editor", succeeds("core-editor")],
    ["sequence.editor", succeeds("sequence-editor")],
    ["core.sshCommand", fails("ssh-command")],
    ["core.askPass", fails("askpass")],
    ["credential.helper", `!${fails("credential-helper")}`],
    ["core.alternateRefsCommand", fails("alternate-refs")],
    ["uploadpack.packObjectsHook", fails("pack-objects-hook")],
    ["protocol.allow", "always"],
    ["protocol.ssh.allow", "always"],
    ["protocol.ext.allow", "always"],
    ["gpg.program", fails("gpg-program")],
    ["gpg.ssh.program", fails("gpg-ssh-program")],
    ["commit.gpgSign", "true"],
    ["tag.gpgSign", "true"],
    ["log.showSignature", "true"],
    ["submodule.recurse", "true"],
    ["maintenance.auto", "true"],
    ["hook.evil.command", succeeds("config-hook-evil")],
    ["hook.evil.event", "post-merge"],
    ["include.path", path.join(root, "included.config")],
    ["includeIf.onbranch:agent-*.path", path.join(root, "onbranch.config")],
  ];
  for (const [key, value] of config) git(repo, "config", "--add", key, value);
  fs.appendFileSync(path.join(repo, ".git", "config"), drivers("evil"));
}

/** Every file in `dir`, recursively, chowned (not following symlinks). */
export function chownTree(dir: string, uid: number, gid: number): void {
  fs.lchownSync(dir, uid, gid);
  if (!fs.lstatSync(dir).isDirectory()) return;
  for (const entry of fs.readdirSync(dir)) chownTree(path.join(dir, entry), uid, gid);
}
