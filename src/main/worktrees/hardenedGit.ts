// Every rule that keeps Baton's git from running a program a repository configures (issue 31), in
// one place. A repository is hostile input: opening a tab lists its worktrees with no click, so
// nothing its config, its included config files or its .gitattributes name may run. git has no
// single switch for that; each mechanism is turned off here, and why is said beside it.
//
// The overrides go to git as command-line config through GIT_CONFIG_COUNT/KEY/VALUE (git 2.31+):
// command-line config outranks every config file and every include, a key and its value travel
// apart (a driver named "a=b" cannot be mis-split the way `-c` splits), and the git processes git
// starts itself (a submodule's status, `worktree remove`'s check) inherit them. The folder's config
// is read first with a command that runs nothing (`git config --list`, with includes, in the same
// folder, so `includeIf "onbranch:…"`, `gitdir:` and a worktree's own config.worktree resolve as
// they will for the real command), and that read also proves this git honours the overrides.
import path from "node:path";

/**
 * A path that can never exist: beneath a file. POSIX: /dev/null is a device, never a folder.
 * Windows: C:\dev\null could be made by anyone, so beneath Baton's own executable instead.
 * Git looks for hooks in it and would execute a program named by it: it finds and runs nothing.
 */
export const Nowhere = path.join(process.platform === "win32" ? process.execPath : "/dev/null", "baton-runs-nothing");

/**
 * For a key git runs through its own shell: the shell's builtin, so no program is looked up on
 * PATH (a relative PATH entry would search the repository). It fails, so git reports failure
 * instead of taking a missing program's silence for success: a merge driver's file conflicts.
 */
export const FailingShellCommand = "exit 1";

interface Rule {
  readonly key: string;
  readonly value: string;
}

/** Overrides for every repository. Each value is what git reads as "none" or "off" for that key. */
export const StaticOverrides: readonly Rule[] = [
  // The fsmonitor hook, or git 2.36+'s daemon. Empty is off in every git: before 2.36 the value was
  // a hook's path, so "false" would have been a program named false.
  { key: "core.fsmonitor", value: "" },
  { key: "core.useBuiltinFSMonitor", value: "false" }, // Git for Windows' older daemon switch
  // Hooks: merge runs pre-merge-commit, prepare-commit-msg, commit-msg, post-merge; update-ref
  // reference-transaction; add post-index-change; gc pre-auto-gc. None exists under Nowhere.
  // (Hooks defined in config, git 2.54's hook.<name>.command, are turned off by name below.)
  { key: "core.hooksPath", value: Nowhere },
  // Pagers: git starts none for "cat" (also --no-pager and GIT_PAGER; pager.<command> loses to both).
  { key: "core.pager", value: "cat" },
  // Editors: git never launches ":" (merge also gets --no-edit).
  { key: "core.editor", value: ":" },
  { key: "sequence.editor", value: ":" },
  // Transports are refused (protocol.allow here, GIT_ALLOW_PROTOCOL in the environment, which
  // outranks every protocol.<name>.allow): a partial clone's lazy fetch of a missing object would
  // otherwise start ssh, a remote helper or a credential helper. Their programs are off as well.
  { key: "protocol.allow", value: "never" },
  { key: "core.sshCommand", value: FailingShellCommand },
  { key: "core.askPass", value: "" }, // empty: no askpass program
  { key: "credential.helper", value: "" }, // empty resets the list of helpers
  { key: "core.alternateRefsCommand", value: FailingShellCommand },
  // uploadpack.packObjectsHook is not set: git honours it only from the person's own config files
  // and the command line, and setting it here would be the one way to make git use it.
  // External diff: only a diff that allows it runs it; Baton's pass --no-ext-diff and --no-textconv
  // too. diff.<driver>.command and .textconv are turned off by name below.
  { key: "diff.external", value: FailingShellCommand },
  // No diffstat after a merge (it can run textconv drivers).
  { key: "merge.stat", value: "false" },
  // Signing: a merge or rescue commit is never signed, no signature is checked while listing.
  { key: "commit.gpgSign", value: "false" },
  { key: "tag.gpgSign", value: "false" },
  { key: "log.showSignature", value: "false" },
  { key: "gpg.program", value: Nowhere },
  { key: "gpg.openpgp.program", value: Nowhere },
  { key: "gpg.x509.program", value: Nowhere },
  { key: "gpg.ssh.program", value: Nowhere },
  { key: "gpg.ssh.defaultKeyCommand", value: Nowhere },
  // A merge never recurses into submodules (their checkout would be more git in more folders).
  { key: "submodule.recurse", value: "false" },
  // A merge would start gc/maintenance, which prunes worktree records (Baton never prunes).
  { key: "gc.auto", value: "0" },
  { key: "maintenance.auto", value: "false" },
  // A resolution recorded earlier in the repository never decides a merge Baton makes.
  { key: "rerere.enabled", value: "false" },
  // A bare repository inside a project (a test fixture, a planted folder) is never found by
  // walking up from a folder; Baton works in repositories with a worktree only. git 2.38+.
  { key: "safe.bareRepository", value: "explicit" },
];

/** `section.sub.section.name` split as git splits it: the subsection keeps its dots and case. */
function splitKey(key: string): { section: string; subsection: string; name: string } | undefined {
  const first = key.indexOf(".");
  const last = key.lastIndexOf(".");
  if (first < 0 || last === first) return undefined;
  return { section: key.slice(0, first).toLowerCase(), subsection: key.slice(first + 1, last), name: key.slice(last + 1).toLowerCase() };
}

/**
 * Overrides for the drivers the config names (in any scope: the repository's, an included file's,
 * and the person's own, since the repository's .gitattributes chooses which driver runs on which
 * file, so a driver from ~/.gitconfig run on a hostile file is the repository's choice too).
 */
export function driverOverrides(configKeys: Iterable<string>): Rule[] {
  const rules = new Map<string, string>();
  const set = (key: string, value: string): void => void rules.set(key, value);
  for (const key of configKeys) {
    const parts = splitKey(key);
    if (parts === undefined) continue;
    const { section, subsection: driver, name } = parts;
    if (section === "filter") {
      // Empty clean/smudge/process is git's "no filter" (the content passes unchanged); a
      // required filter with no command would fail the command instead.
      set(`filter.${driver}.clean`, "");
      set(`filter.${driver}.smudge`, "");
      set(`filter.${driver}.process`, "");
      set(`filter.${driver}.required`, "false");
    } else if (section === "diff" && (name === "textconv" || name === "command")) {
      // Only the keys the config has: adding textconv to a driver that had none would change it.
      set(`diff.${driver}.${name}`, FailingShellCommand);
    } else if (section === "merge" && name === "driver") {
      // There is no empty driver: git runs whatever is there. Failing makes the file a conflict,
      // which Baton reports; the person merges it with their own git and driver.
      set(`merge.${driver}.driver`, FailingShellCommand);
    } else if (section === "hook") {
      set(`hook.${driver}.enabled`, "false");
    }
  }
  return [...rules].map(([key, value]) => ({ key, value }));
}

/** `git config --null --list`: `key\nvalue\0`, or `key\0` for a key with no value. */
export function parseConfigKeys(output: string): string[] {
  return output
    .split("\0")
    .filter((entry) => entry !== "")
    .map((entry) => {
      const newline = entry.indexOf("\n");
      return newline < 0 ? entry : entry.slice(0, newline);
    });
}

/** Whether `git config --list` run under the overrides shows them (git prints section and name in lower case): this git honours GIT_CONFIG_COUNT. */
export function overridesApplied(output: string): boolean {
  const hooksPaths = output.split("\0").filter((entry) => entry.startsWith("core.hookspath\n"));
  return hooksPaths.at(-1) === `core.hookspath\n${Nowhere}`;
}

/**
 * Variables kept from Baton's environment: where git and the person's own config are
 * (PATH, HOME, XDG_CONFIG_HOME; on Windows the system's own), temporary folders and the locale.
 * Nothing else: GIT_DIR, GIT_CONFIG_*, GIT_EXEC_PATH, GIT_EXTERNAL_DIFF, GIT_SSH*, GIT_ASKPASS,
 * SSH_ASKPASS, GIT_TRACE* and the rest may be in Baton's environment and must not steer git here.
 * The system config (/etc/gitconfig, Git for Windows' own) is read (no GIT_CONFIG_NOSYSTEM): it
 * is the machine's, not the repository's, Git for Windows keeps line endings and certificates
 * there, and every driver it defines is turned off like any other.
 */
const KeptVariables = new Set(
  [
    "PATH",
    "HOME",
    "XDG_CONFIG_HOME",
    "TMPDIR",
    "LANG",
    // Windows: what a Windows program and Git for Windows need to start and find their config.
    "SYSTEMROOT",
    "WINDIR",
    "COMSPEC",
    "PATHEXT",
    "TEMP",
    "TMP",
    "USERPROFILE",
    "HOMEDRIVE",
    "HOMEPATH",
    "APPDATA",
    "LOCALAPPDATA",
    "PROGRAMDATA",
  ].map((name) => name.toUpperCase()),
);

function kept(name: string): boolean {
  const upper = name.toUpperCase();
  return KeptVariables.has(upper) || upper.startsWith("LC_");
}

export interface HardenedEnvOptions {
  /** Overrides beyond the static ones: the drivers the folder's config names. */
  readonly overrides?: readonly Rule[];
  /** A temporary index (the rescue's snapshot). */
  readonly indexFile?: string;
  /**
   * The folder the repository's `.git` is in. Set explicitly because the repository's
   * core.worktree would otherwise move where git reads and writes its files (a merge's checkout
   * anywhere on disk); GIT_WORK_TREE outranks it.
   */
  readonly workTree?: string;
}

/** The whole environment a git command of Baton's gets. */
export function hardenedEnv(source: NodeJS.ProcessEnv, options: HardenedEnvOptions = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) if (value !== undefined && kept(name)) env[name] = value;
  const rules = [...StaticOverrides, ...(options.overrides ?? [])];
  Object.assign(env, {
    // Messages git prints are read by Baton: untranslated.
    LC_ALL: "C",
    GIT_TERMINAL_PROMPT: "0",
    // Reading status must not take the index lock out from under a running agent.
    GIT_OPTIONAL_LOCKS: "0",
    GIT_PAGER: "cat",
    PAGER: "cat",
    GIT_EDITOR: ":",
    GIT_SEQUENCE_EDITOR: ":",
    GIT_MERGE_AUTOEDIT: "no",
    // Set and empty: no transport is allowed, whatever protocol.<name>.allow says.
    GIT_ALLOW_PROTOCOL: "",
    // git 2.44+: a missing object is never fetched (older git: the transport refusal above).
    GIT_NO_LAZY_FETCH: "1",
    GIT_CONFIG_COUNT: String(rules.length),
  });
  rules.forEach((rule, i) => {
    env[`GIT_CONFIG_KEY_${i}`] = rule.key;
    env[`GIT_CONFIG_VALUE_${i}`] = rule.value;
  });
  if (options.indexFile !== undefined) env["GIT_INDEX_FILE"] = options.indexFile;
  if (options.workTree !== undefined) env["GIT_WORK_TREE"] = options.workTree;
  return env;
}
