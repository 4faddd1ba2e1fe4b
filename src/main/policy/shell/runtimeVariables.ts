// Variables that make a command run other code than the one on the line, or read settings Baton
// cannot see, whatever program it is (issue 31). Set for a command (`LD_PRELOAD=x ls`, `env
// BASH_ENV=x …`) or for the rest of the line (`export`, `declare -x`, `printf -v`, `read`, …),
// any of them makes an allowed command unreadable. A program's own variables (`GOFLAGS`,
// `CARGO_TARGET_DIR`) are in its entry of commandEffects.ts's table; PATH, which changes which
// program every command word names, is the exec policy's own check.

interface RuntimeVariable {
  readonly name: RegExp;
  readonly why: string;
}

const RUNTIME: readonly RuntimeVariable[] = [
  { name: /^(?:BASH_ENV|ENV)$/, why: "names a file of commands every bash or sh the command starts runs first" },
  { name: /^(?:SHELLOPTS|BASHOPTS|PS[0-4]|PROMPT_COMMAND)$/, why: "holds code the shell runs (with `set -x` or at a prompt), or turns that on in every bash the command starts" },
  { name: /^(?:LD|DYLD)_\w+$/, why: "makes the dynamic loader load other code into every program" },
  {
    name: /^GIT_(?!(?:AUTHOR|COMMITTER)_(?:NAME|EMAIL|DATE)$|TERMINAL_PROMPT$|OPTIONAL_LOCKS$|FLUSH$|PROGRESS_DELAY$|DEFAULT_HASH$|LITERAL_PATHSPECS$)\w+$/,
    why: "changes what git runs or where it reads and writes, for every git the command starts (pagers, editors, ssh, diff programs, configuration)",
  },
  { name: /^(?:PAGER|MANPAGER|EDITOR|VISUAL|LESSOPEN|LESSCLOSE|BROWSER|SSH_ASKPASS|SUDO_ASKPASS)$/, why: "names a program other programs run" },
  { name: /^(?:HOME|ZDOTDIR|XDG_CONFIG_HOME|XDG_CONFIG_DIRS|XDG_DATA_HOME|XDG_DATA_DIRS)$/, why: "moves where programs read their settings from, and settings can name programs to run" },
  { name: /^TMPDIR$/, why: "moves where programs write their temporary files" },
  { name: /^npm_config_\w+$/i, why: "sets npm's and pnpm's configuration, which can name a shell, node options or folders to write" },
  { name: /^(?:COREPACK_\w+|PNPM_HOME|BUN_INSTALL|BUN_CONFIG_\w+)$/, why: "changes which package manager runs or where it installs" },
  { name: /^(?:NODE_OPTIONS|NODE_PATH|NODE_REPL_EXTERNAL_MODULE)$/, why: "makes node load other code" },
  {
    name: /^(?:PYTHONPATH|PYTHONHOME|PYTHONSTARTUP|PYTHONUSERBASE|PYTHONBREAKPOINT|PYTHONEXECUTABLE|PYTHONPYCACHEPREFIX|VIRTUAL_ENV|CONDA_PREFIX|UV_\w+|PIP_\w+)$/,
    why: "makes Python (or uv and pip) load other code, or use another environment or folder",
  },
  { name: /^(?:PERL5LIB|PERL5OPT|PERLLIB|RUBYOPT|RUBYLIB|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|CLASSPATH)$/, why: "makes an interpreter load other code" },
];

/** Values known to run nothing: no pager but `cat`, node options that only tune the runtime. */
const NO_PAGER = /^(?:|cat)$/;
const HARMLESS: Readonly<Record<string, RegExp>> = {
  GIT_PAGER: NO_PAGER,
  PAGER: NO_PAGER,
  MANPAGER: NO_PAGER,
  NODE_OPTIONS: /^(?:\s*--(?:max-old-space-size=\d+|max-semi-space-size=\d+|stack-size=\d+|enable-source-maps|no-warnings|no-deprecation|trace-warnings|trace-uncaught|experimental-vm-modules|unhandled-rejections=[a-z-]+))*\s*$/,
};

/** Why setting `name` makes any command unknowable; undefined when it does not. */
export function runtimeVariableEffect(name: string): string | undefined {
  const found = RUNTIME.find((v) => v.name.test(name));
  return found === undefined ? undefined : `the line sets ${name}, which ${found.why}`;
}

/** Whether `name=value` (a literal value) is known to change nothing a program runs. */
export function harmlessAssignment(name: string, value: string): boolean {
  return HARMLESS[name]?.test(value) ?? false;
}
