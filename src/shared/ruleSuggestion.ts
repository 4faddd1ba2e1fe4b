// The rule a permission prompt's "Always allow in this project" offers for a call, modelled on
// Claude Code's own suggestions (its getSimpleCommandPrefix): a command and its subcommand as a
// `:*` prefix (`git commit -m "x"` → `Bash(git commit:*)`, `pnpm test --watch` →
// `Bash(pnpm test:*)`), the exact command when the second word is a flag, a file or a number
// (`ls -la`, `cat notes.txt`), and never a prefix on a wrapper that runs another program
// (`sudo`, `env`, `bash`, `xargs`, …: `Bash(sudo apt:*)` would allow anything as root). Baton adds
// the script name for `npm|pnpm|yarn|bun run` (`npm run test:*`, as the docs' own example), since
// `npm run:*` would allow every script. A compound line needs one rule per simple command (each
// part must be allowed), at most five of them, as Claude Code caps it; more is noise, not intent.
// Files: the folder the file is in, anchored to the project (`Edit(/src/app/**)`), home
// (`Edit(~/notes/**)`) or the root (`Edit(//etc/app/**)`); nothing for `/` or the home folder
// itself. Web: the host (`WebFetch(domain:example.com)`). Agents: the subagent type.

import { dirnamePosix, relativeInside, resolvePosix } from "./posixPath.js";
import { canonicalRule, EDIT_TOOLS, READ_TOOLS, ruleText } from "./ruleSyntax.js";

export interface SuggestionPlace {
  readonly cwd: string;
  readonly projectRoot: string;
  readonly home: string;
}

/** At most this many rules for one compound line (Claude Code's MAX_SUGGESTED_RULES_FOR_COMPOUND). */
export const MAX_RULES_FOR_ONE_LINE = 5;

/** Programs that run another program: a prefix on them would allow whatever they run. */
const RUNS_ANOTHER = new Set([
  "sh", "bash", "zsh", "fish", "dash", "ksh", "csh", "tcsh", "env", "xargs", "nice", "nohup", "timeout", "time",
  "stdbuf", "sudo", "doas", "pkexec", "su", "eval", "exec", "command", "builtin", "watch", "ssh",
]);
const SUBCOMMAND = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const SCRIPT_RUNNERS = new Set(["npm", "pnpm", "yarn", "bun"]);
const SCRIPT_NAME = /^[A-Za-z0-9][A-Za-z0-9_:.-]*$/;
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;
/** A command line with nothing for a shell to interpret: safe to split on spaces. */
const PLAIN_LINE = /^[A-Za-z0-9_@%+=:,./ \t-]+$/;
/** Tools that put a question to the person: "always allow" has no meaning for them. */
const QUESTIONS = new Set(["AskUserQuestion", "ExitPlanMode", "EnterPlanMode"]);

/**
 * The rules that would allow this call from now on: usually one, one per simple command of a
 * compound Bash line, none when no rule is sensible. `commands` is the shell parser's output for
 * Bash (argv lists); without it only a line with no shell syntax at all gets a proposal.
 */
export function rulesForCall(
  toolName: string,
  input: Readonly<Record<string, unknown>>,
  place: SuggestionPlace,
  commands?: readonly (readonly string[])[],
): readonly string[] {
  const proposed = proposals(toolName, input, place, commands);
  const rules = new Set<string>();
  for (const rule of proposed) {
    const canonical = canonicalRule(rule);
    if (canonical.ok) rules.add(canonical.value);
  }
  return rules.size > MAX_RULES_FOR_ONE_LINE ? [] : [...rules];
}

function proposals(toolName: string, input: Readonly<Record<string, unknown>>, place: SuggestionPlace, commands?: readonly (readonly string[])[]): string[] {
  if (QUESTIONS.has(toolName)) return [];
  if (toolName === "Bash") return bashRules(input, commands);
  if (EDIT_TOOLS.has(toolName) || READ_TOOLS.has(toolName)) return folderRule(toolName, input, place);
  if (toolName === "WebFetch") return webRule(input);
  if (toolName === "Agent" || toolName === "Task") {
    const type = typeof input["subagent_type"] === "string" ? input["subagent_type"] : "general-purpose";
    return [ruleText("Agent", type)];
  }
  return [toolName];
}

function bashRules(input: Readonly<Record<string, unknown>>, commands?: readonly (readonly string[])[]): string[] {
  const line = input["command"];
  const argvs = commands ?? (typeof line === "string" && PLAIN_LINE.test(line) ? [line.trim().split(/\s+/)] : []);
  return argvs.filter((argv) => argv.length > 0).map(commandRule);
}

function commandRule(argv: readonly string[]): string {
  const [first = "", second, third] = argv;
  if (second !== undefined && PLAIN_WORD.test(first) && !RUNS_ANOTHER.has(first) && SUBCOMMAND.test(second)) {
    const runsScript = SCRIPT_RUNNERS.has(first) && (second === "run" || second === "run-script") && third !== undefined && SCRIPT_NAME.test(third);
    return ruleText("Bash", `${[first, second, ...(runsScript ? [third] : [])].join(" ")}:*`);
  }
  return ruleText("Bash", argv.map(quoteWord).join(" "));
}

/** A word as a Bash rule reads it back (ruleSyntax's quoting): plain, or single-quoted. */
function quoteWord(word: string): string {
  return PLAIN_WORD.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

function folderRule(toolName: string, input: Readonly<Record<string, unknown>>, place: SuggestionPlace): string[] {
  const onFile = input["file_path"] ?? input["notebook_path"];
  const given = typeof onFile === "string" ? onFile : typeof input["path"] === "string" ? input["path"] : undefined;
  const searchesFolder = toolName === "Glob" || toolName === "Grep" || toolName === "LS";
  if (given === undefined && !searchesFolder) return [];
  const expanded = given === undefined ? place.cwd : given === "~" ? place.home : given.startsWith("~/") ? `${place.home}${given.slice(1)}` : given;
  const target = resolvePosix(place.cwd, expanded);
  const folder = searchesFolder ? target : dirnamePosix(target);
  const home = resolvePosix("/", place.home);
  if (folder === "/" || folder === home) return [];
  const family = EDIT_TOOLS.has(toolName) ? "Edit" : "Read";
  const inProject = relativeInside(resolvePosix("/", place.projectRoot), folder);
  const inHome = relativeInside(home, folder);
  const pattern =
    inProject !== undefined
      ? inProject === "" ? "/**" : `/${escapeGlob(inProject)}/**`
      : inHome !== undefined ? `~/${escapeGlob(inHome)}/**` : `/${escapeGlob(folder)}/**`;
  return [ruleText(family, pattern)];
}

function webRule(input: Readonly<Record<string, unknown>>): string[] {
  const url = input["url"];
  if (typeof url !== "string" || !URL.canParse(url)) return [];
  const host = new URL(url).hostname;
  return host === "" ? [] : [ruleText("WebFetch", `domain:${host}`)];
}

/** A folder name taken literally inside a path pattern. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}
