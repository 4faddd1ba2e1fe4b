// Programs that run another program (`env`, `sudo`, `timeout`, `xargs`, …) are looked through:
// the exec policy judges the command they run, with their own options skipped. A wrapper whose
// options cannot be read for certain (an unknown option, `sudo -s`, `env -S`) is not unwrapped:
// it stays the command, and no allowlist names a wrapper, so the line is not allowed (fail closed).
// Shells given `-c` and `eval` hand back their script, which shellCommands.ts parses again.

import { harmlessAssignment } from "./runtimeVariables.js";
import { literalWord, type ShellWord } from "./shellWords.js";

export type Unwrapped =
  /** `words` run (empty: nothing runs, e.g. a bare `exec`). */
  | { readonly kind: "run"; readonly words: readonly ShellWord[]; readonly assigns: readonly string[]; readonly wrappers: readonly string[] }
  /** A shell script to parse again (`bash -c S`, `eval S`); `script` may be dynamic, and `why` says what computes it. */
  | { readonly kind: "script"; readonly script: ShellWord; readonly assigns: readonly string[]; readonly wrappers: readonly string[]; readonly why?: string };

interface OptionSpec {
  /** Short letters that take no value. */
  readonly flags: string;
  /** Short letters that take a value (attached or the next word). */
  readonly valued: string;
  /** Short letters whose value, if any, is the rest of their word (`xargs -i{}`); long names with an optional `=value`. */
  readonly optionalValued: string;
  readonly longOptionalValued: readonly string[];
  readonly longFlags: readonly string[];
  readonly longValued: readonly string[];
  /** Options after which the wrapper does not run its operand as given: not unwrapped. */
  readonly opaque: string;
  readonly longOpaque: readonly string[];
  /** Operands the wrapper takes before the command (`timeout DURATION`). */
  readonly operands: number;
  /** Takes `NAME=value` words before the command (`env`, `sudo`). */
  readonly assigns: boolean;
  /** `-5` style numeric options (`nice -10`). */
  readonly numeric: boolean;
}

const spec = (s: Partial<OptionSpec>): OptionSpec => ({
  flags: "",
  valued: "",
  optionalValued: "",
  longOptionalValued: [],
  longFlags: [],
  longValued: [],
  opaque: "",
  longOpaque: [],
  operands: 0,
  assigns: false,
  numeric: false,
  ...s,
});

const WRAPPERS: Readonly<Record<string, OptionSpec>> = {
  env: spec({
    flags: "i0v",
    valued: "u",
    longFlags: ["ignore-environment", "null", "debug"],
    longValued: ["unset"],
    // -C moves where the command's relative writes land: not looked through.
    opaque: "SPC",
    longOpaque: ["split-string", "default-signal", "ignore-signal", "block-signal", "chdir"],
    assigns: true,
  }),
  command: spec({ flags: "p" }),
  builtin: spec({}),
  exec: spec({ flags: "cl", valued: "a" }),
  nice: spec({ valued: "n", longValued: ["adjustment"], numeric: true }),
  timeout: spec({ flags: "v", valued: "sk", longFlags: ["preserve-status", "foreground", "verbose"], longValued: ["signal", "kill-after"], operands: 1 }),
  // `-I R`, `-i[R]`, `--replace[=R]`: R in the command's words stands for each input (xargsReplacement).
  xargs: spec({
    flags: "0rtpxo",
    valued: "InLPsdEa",
    optionalValued: "ile",
    longFlags: ["null", "no-run-if-empty", "verbose", "interactive", "exit", "open-tty"],
    longValued: ["arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"],
    longOptionalValued: ["replace", "eof", "max-lines"],
  }),
  sudo: spec({
    flags: "AbEHknPSB",
    valued: "ugChprtTU",
    longFlags: ["preserve-env", "background", "login-class", "non-interactive", "stdin", "bell", "askpass", "set-home"],
    longValued: ["user", "group", "close-from", "host", "prompt", "role", "type", "command-timeout", "other-user"],
    // -D and -R move where the command runs (and so where its relative writes land).
    opaque: "eilsvKVDR",
    longOpaque: ["edit", "login", "list", "shell", "validate", "remove-timestamp", "reset-timestamp", "version", "help", "chdir", "chroot"],
    assigns: true,
  }),
  doas: spec({ flags: "n", valued: "u", opaque: "sLC" }),
  nohup: spec({}),
  time: spec({ flags: "p" }),
  stdbuf: spec({ valued: "ioe", longValued: ["input", "output", "error"] }),
  ionice: spec({ flags: "t", valued: "cn", longFlags: ["ignore"], longValued: ["class", "classdata"], opaque: "pPu", longOpaque: ["pid", "pgid", "uid"] }),
  // tree-sitter-bash reads `coproc cmd` as a command named coproc; bash runs `cmd`.
  coproc: spec({}),
};

/** Wrappers that run nothing when given no command (bash builtins and keywords). */
const NOTHING_WITHOUT_COMMAND = new Set(["exec", "command", "builtin", "time", "coproc"]);

const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh"]);

// Only bare names and the system's own folders are trusted to be the real wrapper: `./env` is a
// script of the project's and runs whatever it likes.
const SYSTEM_DIRS = /^\/(?:usr\/(?:local\/)?)?s?bin\//;

export function programName(word: ShellWord): string | undefined {
  if (word.dynamic) return undefined;
  if (!word.value.includes("/")) return word.value;
  return SYSTEM_DIRS.test(word.value) ? word.value.slice(word.value.lastIndexOf("/") + 1) : undefined;
}

/** Looks through wrappers until the command they run; bounded, since wrappers can nest. */
export function unwrapCommand(words: readonly ShellWord[], assigns: readonly string[]): Unwrapped {
  let rest = words;
  const allAssigns = [...assigns];
  const wrappers: string[] = [];
  for (let hop = 0; hop < 16; hop++) {
    const head = rest[0];
    const name = head === undefined ? undefined : programName(head);
    if (name === undefined) break;
    if (SHELLS.has(name)) {
      const script = shellScript(rest);
      if (script === undefined && wrappers.includes("xargs") && givesDashC(rest)) {
        const why = `xargs passes its input to \`${name} -c\` as the script`;
        return { kind: "script", script: { value: `${name} -c (its input)`, dynamic: true }, assigns: allAssigns, wrappers: [...wrappers, `${name} -c`], why };
      }
      if (script === undefined) break;
      const why = script.dynamic ? `\`${name} -c\` runs a script only known when the shell runs it (\`${script.value}\`)` : undefined;
      return { kind: "script", script, assigns: allAssigns, wrappers: [...wrappers, `${name} -c`], ...(why !== undefined ? { why } : {}) };
    }
    if (name === "eval") {
      const args = rest.slice(1);
      const script = args.some((w) => w.dynamic)
        ? { value: args.map((w) => w.value).join(" "), dynamic: true }
        : literalWord(args.map((w) => w.value).join(" "));
      const why = script.dynamic ? `eval runs a script only known when the shell runs it (\`${script.value}\`)` : undefined;
      return { kind: "script", script, assigns: allAssigns, wrappers: [...wrappers, "eval"], ...(why !== undefined ? { why } : {}) };
    }
    // `command -v go` asks where go is; it runs nothing, and stays as written.
    if (name === "command" && asksWhere(rest)) break;
    const options = WRAPPERS[name];
    if (options === undefined) break;
    const after = skipOptions(rest.slice(1), options, allAssigns);
    if (after === undefined) break;
    if (after.length === 0) {
      if (NOTHING_WITHOUT_COMMAND.has(name)) return { kind: "run", words: [], assigns: allAssigns, wrappers: [...wrappers, name] };
      // Without a command, xargs runs echo; env, nice, nohup, … stay themselves.
      if (name === "xargs") return { kind: "run", words: [literalWord("echo")], assigns: allAssigns, wrappers: [...wrappers, name] };
      break;
    }
    wrappers.push(name);
    const replace = name === "xargs" ? xargsReplacement(rest.slice(1, rest.length - after.length)) : undefined;
    rest = replace === undefined ? after : after.map((w) => (!w.dynamic && w.value.includes(replace) ? { value: w.value, dynamic: true } : w));
  }
  return { kind: "run", words: rest, assigns: allAssigns, wrappers };
}

/**
 * The words after a wrapper's options and operands, or undefined when they cannot be read for
 * certain (unknown or opaque option, a dynamic word where an option could be).
 */
function skipOptions(args: readonly ShellWord[], options: OptionSpec, assigns: string[]): readonly ShellWord[] | undefined {
  let i = 0;
  while (i < args.length) {
    const word = args[i]!;
    if (word.dynamic) return undefined;
    const v = word.value;
    if (v === "--") {
      i++;
      break;
    }
    if (v.startsWith("--")) {
      const [long, attached] = splitLong(v.slice(2));
      if (options.longOpaque.includes(long)) return undefined;
      if (options.longFlags.includes(long) || options.longOptionalValued.includes(long)) i += 1;
      else if (options.longValued.includes(long)) i += attached ? 1 : 2;
      else return undefined;
      continue;
    }
    if (options.numeric && /^-\d+$/.test(v)) {
      i++;
      continue;
    }
    if (v.startsWith("-") && v.length > 1) {
      const consumed = shortCluster(v.slice(1), options);
      if (consumed === undefined) return undefined;
      i += consumed;
      continue;
    }
    if (options.assigns && /^[A-Za-z_][A-Za-z0-9_]*=/.test(v)) {
      assign(v, assigns);
      i++;
      continue;
    }
    break;
  }
  // Assignments may still follow `--` (`env -- FOO=1 go`), and operands come before the command.
  while (options.assigns && i < args.length && !args[i]!.dynamic && /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[i]!.value)) {
    assign(args[i]!.value, assigns);
    i++;
  }
  if (args.length - i < options.operands) return undefined;
  return args.slice(i + options.operands);
}

/** `NAME=value` given to env or sudo; a value known to change nothing (`GIT_PAGER=cat`) is left out. */
function assign(word: string, assigns: string[]): void {
  const eq = word.indexOf("=");
  if (!harmlessAssignment(word.slice(0, eq), word.slice(eq + 1))) assigns.push(word.slice(0, eq));
}

/** What xargs replaces in its command's words (`-I R`, `-i[R]`, `--replace[=R]`), given its options. */
function xargsReplacement(options: readonly ShellWord[]): string | undefined {
  let replace: string | undefined;
  for (let i = 0; i < options.length; i++) {
    const v = options[i]!.value;
    if (v === "--") break;
    if (v === "--replace" || v.startsWith("--replace=")) replace = v.includes("=") ? v.slice(v.indexOf("=") + 1) : "{}";
    else if (/^-[^-]/.test(v)) {
      const at = v.search(/[Ii]/);
      // Letters before it that take a value would have taken the rest (`-n1` has no -i).
      if (at < 0 || /[nLPsdEa]/.test(v.slice(1, at))) continue;
      if (v[at] === "i") replace = v.slice(at + 1) || "{}";
      else replace = v.slice(at + 1) || options[++i]?.value;
    }
  }
  return replace === "" ? undefined : replace;
}

function givesDashC(words: readonly ShellWord[]): boolean {
  return words.slice(1).some((w) => !w.dynamic && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(w.value));
}

function asksWhere(words: readonly ShellWord[]): boolean {
  for (const word of words.slice(1)) {
    if (word.dynamic || !/^-[a-zA-Z]+$/.test(word.value)) return false;
    if (/[vV]/.test(word.value)) return true;
  }
  return false;
}

function splitLong(body: string): [string, boolean] {
  const eq = body.indexOf("=");
  return eq < 0 ? [body, false] : [body.slice(0, eq), true];
}

/** Words a `-abc` cluster takes (1, or 2 when its last letter wants the next word); undefined if unknown. */
function shortCluster(letters: string, options: OptionSpec): number | undefined {
  for (let j = 0; j < letters.length; j++) {
    const letter = letters[j]!;
    if (options.opaque.includes(letter)) return undefined;
    if (options.optionalValued.includes(letter)) return 1;
    if (options.valued.includes(letter)) return j === letters.length - 1 ? 2 : 1;
    if (!options.flags.includes(letter)) return undefined;
  }
  return 1;
}

/**
 * The script of `bash [options] -c SCRIPT [name [args…]]`; undefined when the shell is not given
 * `-c` (it runs a file or its stdin: judged as the shell itself).
 */
function shellScript(words: readonly ShellWord[]): ShellWord | undefined {
  let sawC = false;
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (sawC) return word;
    if (word.dynamic) return undefined;
    const v = word.value;
    if (v === "-o" || v === "+o" || v === "-O" || v === "+O") {
      i++;
      continue;
    }
    if (/^--(norc|noprofile|login|posix|noediting|restricted|verbose)$/.test(v)) continue;
    if (/^[-+][a-zA-Z]+$/.test(v)) {
      if (v.startsWith("-") && v.includes("c")) sawC = true;
      continue;
    }
    return undefined;
  }
  return undefined;
}
