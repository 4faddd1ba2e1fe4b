// Which of the person's rules decides a tool call, in Claude Code's order: a matching deny rule
// beats a matching ask rule beats an allow rule, whatever their order or specificity
// (https://code.claude.com/docs/en/permissions, "Manage permissions"; syntax: ruleSyntax.ts).
// * Bash: a line is a list of simple commands (argv lists from the shell parser, shellCommands.ts).
//   An allow rule set allows the line only if EVERY command is allowed by some allow rule; a
//   deny or ask rule fires if ANY command matches it. Commands are matched as given: the parser
//   is the one that unwraps `env`/`sudo`/`timeout` and drops `FOO=1` prefixes. Exact and prefix
//   rules compare words; wildcard rules the words joined by single spaces.
// * Paths: Edit rules against Edit/Write/MultiEdit/NotebookEdit `file_path` / `notebook_path`,
//   Read rules against Read `file_path` and the folder Glob/Grep/LS search (`path`, else the cwd;
//   judged as that folder, best-effort as in Claude Code). A target is made absolute against the
//   cwd, `~/` expanded, `..` folded as written; links are not followed here: a caller that needs
//   the real place passes real paths. A pattern that matches a folder matches what is inside it.
// * Input a rule cannot read (no command list for Bash, no path, a URL that does not parse): an
//   allow rule with a pattern does not allow it, and a deny or ask rule with one fires (fail closed).

import type { PermissionRule, RuleBehavior } from "../../../shared/policy.js";
import { resolvePosix } from "../../../shared/posixPath.js";
import { canonicalToolName, EDIT_TOOLS, parseRule, READ_TOOLS, type ParsedRule, type RuleSpecifier } from "../../../shared/ruleSyntax.js";
import { compilePathGlob, matchPathGlob, type PathGlob } from "./pathGlob.js";

export type SimpleCommands = readonly (readonly string[])[];

export interface RuleCall {
  readonly toolName: string;
  readonly input: Readonly<Record<string, unknown>>;
  /** Bash: the line's simple commands, each an argv list (the shell parser's output). */
  readonly commands?: SimpleCommands;
}

/** Where relative patterns and paths start: `path` from the cwd, `/path` from the project root, `~/` from home. */
export interface RuleContext {
  readonly cwd: string;
  readonly projectRoot: string;
  readonly home: string;
}

export interface RuleMatch {
  readonly behavior: RuleBehavior;
  /** The rule that decided (an allowed Bash line: the one that allowed its first command). */
  readonly rule: PermissionRule;
  /** Every rule the decision rests on: an allowed Bash line, one per command (deduplicated); else `[rule]`. */
  readonly rules: readonly PermissionRule[];
  /** Bash deny or ask: the simple command that fired the rule, when one did. */
  readonly command?: readonly string[];
}

type Hit = "yes" | "no" | "unreadable";

interface Judged {
  readonly rule: PermissionRule;
  readonly parsed: ParsedRule;
}

/** The deciding rule for `call`, or undefined when no rule has a say (the caller's default applies). */
export function matchRules(rules: readonly PermissionRule[], call: RuleCall, context: RuleContext): RuleMatch | undefined {
  const tool = canonicalToolName(call.toolName);
  const judged: Judged[] = [];
  for (const rule of rules) {
    const parsed = parsedRule(rule.rule);
    if (parsed !== undefined && covers(parsed, tool)) judged.push({ rule, parsed });
  }
  for (const behavior of ["deny", "ask"] as const) {
    for (const j of judged) {
      if (j.rule.behavior !== behavior) continue;
      const fired = tool === "Bash" ? firesOnLine(j.parsed.specifier, call.commands) : hit(j, call, context) !== "no";
      if (fired !== false) return { behavior, rule: j.rule, rules: [j.rule], ...(fired === true ? {} : { command: fired }) };
    }
  }
  const allows = judged.filter((j) => j.rule.behavior === "allow");
  return tool === "Bash" ? allowsLine(allows, call.commands) : allowsCall(allows, call, context);
}

/** Whether the rule speaks about calls of `tool`: Edit and Read rules cover their families, `mcp__server` its tools. */
function covers(parsed: ParsedRule, tool: string): boolean {
  if (parsed.specifier.kind === "mcp-server") return tool.startsWith(`mcp__${parsed.specifier.server}__`);
  if (parsed.tool === "Edit") return EDIT_TOOLS.has(tool);
  if (parsed.tool === "Read") return READ_TOOLS.has(tool);
  return parsed.tool === tool;
}

/** false: it does not fire; true: it fires on the whole line; an argv: it fires on that command. */
function firesOnLine(spec: RuleSpecifier, commands: SimpleCommands | undefined): boolean | readonly string[] {
  if (spec.kind === "any" || commands === undefined) return true;
  return commands.find((argv) => argv.length > 0 && commandMatches(spec, argv)) ?? false;
}

function allowsLine(allows: readonly Judged[], commands: SimpleCommands | undefined): RuleMatch | undefined {
  const whole = allows.find((j) => j.parsed.specifier.kind === "any");
  if (whole !== undefined) return { behavior: "allow", rule: whole.rule, rules: [whole.rule] };
  const parts = (commands ?? []).filter((argv) => argv.length > 0);
  if (parts.length === 0) return undefined;
  const used: PermissionRule[] = [];
  for (const argv of parts) {
    const allowing = allows.find((j) => commandMatches(j.parsed.specifier, argv));
    if (allowing === undefined) return undefined;
    if (!used.includes(allowing.rule)) used.push(allowing.rule);
  }
  return { behavior: "allow", rule: used[0] as PermissionRule, rules: used };
}

function allowsCall(allows: readonly Judged[], call: RuleCall, context: RuleContext): RuleMatch | undefined {
  const allowing = allows.find((j) => hit(j, call, context) === "yes");
  return allowing === undefined ? undefined : { behavior: "allow", rule: allowing.rule, rules: [allowing.rule] };
}

function commandMatches(spec: RuleSpecifier, argv: readonly string[]): boolean {
  switch (spec.kind) {
    case "any":
      return true;
    case "exact":
      return argv.length === spec.words.length && spec.words.every((w, i) => argv[i] === w);
    case "prefix":
      return argv.length >= spec.words.length && spec.words.every((w, i) => argv[i] === w);
    case "wildcard": {
      const text = argv.join(" ");
      return piecesMatch(spec.pieces, text) || (spec.bareAllowed && text === (spec.pieces[0] ?? "").slice(0, -1));
    }
    default:
      return false;
  }
}

/** `text` is `pieces[0]`, anything, `pieces[1]`, anything, …, the last piece. */
function piecesMatch(pieces: readonly string[], text: string): boolean {
  const first = pieces[0] ?? "";
  const last = pieces.at(-1) ?? "";
  if (pieces.length < 2) return text === first;
  if (text.length < first.length + last.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  let at = first.length;
  const end = text.length - last.length;
  for (const piece of pieces.slice(1, -1)) {
    const found = text.indexOf(piece, at);
    if (found === -1 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}

function hit(j: Judged, call: RuleCall, context: RuleContext): Hit {
  const spec = j.parsed.specifier;
  switch (spec.kind) {
    case "any":
    case "mcp-server":
      return "yes";
    case "path": {
      const target = targetPath(call, context);
      if (target === undefined) return "unreadable";
      const root = j.rule.scope === "project" && j.rule.scopeKey !== undefined ? j.rule.scopeKey : context.projectRoot;
      return matchPathGlob(globFor(absolutePattern(spec.pattern, root, context)), target) ? "yes" : "no";
    }
    case "domain": {
      const url = call.input["url"];
      if (typeof url !== "string" || !URL.canParse(url)) return "unreadable";
      return new URL(url).hostname.toLowerCase() === spec.host ? "yes" : "no";
    }
    case "agent": {
      const type = call.input["subagent_type"];
      return (typeof type === "string" ? type : "general-purpose") === spec.agentType ? "yes" : "no";
    }
    default:
      return "no";
  }
}

/** The absolute, folded path a file tool works on, or undefined when its input names none. */
function targetPath(call: RuleCall, context: RuleContext): string | undefined {
  const { input } = call;
  const onFile = input["file_path"] ?? input["notebook_path"];
  const searchesFolder = call.toolName === "Glob" || call.toolName === "Grep" || call.toolName === "LS";
  const given = typeof onFile === "string" ? onFile : searchesFolder ? (input["path"] ?? context.cwd) : undefined;
  if (typeof given !== "string" || given.includes("\0")) return undefined;
  const expanded = given === "~" ? context.home : given.startsWith("~/") ? `${context.home}/${given.slice(2)}` : given;
  return resolvePosix(resolvePosix("/", context.cwd), expanded);
}

/** A rule's pattern as an absolute glob: anchored as the docs say, matching a folder's contents too. */
function absolutePattern(pattern: string, projectRoot: string, context: RuleContext): string {
  const p = pattern.length > 1 ? pattern.replace(/\/+$/, "") : pattern;
  let base: string;
  let rest: string;
  if (p.startsWith("//")) [base, rest] = ["/", p.slice(2)];
  else if (p === "~" || p.startsWith("~/")) [base, rest] = [context.home, p.slice(2)];
  else if (p.startsWith("/")) [base, rest] = [projectRoot, p.slice(1)];
  else if (p.startsWith("./")) [base, rest] = [context.cwd, p.slice(2)];
  // gitignore: a pattern without a slash matches at any depth below where it starts.
  else [base, rest] = [context.cwd, p.includes("/") ? p : `**/${p}`];
  return foldPattern(`${escapeGlob(resolvePosix("/", base))}/${rest}/**`);
}

/** `.` and `..` folded in a pattern as in a path (a rule may say `Read(../shared/**)`). */
function foldPattern(pattern: string): string {
  const out: string[] = [];
  for (const part of pattern.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return `/${out.join("/")}`;
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

// Rules are few and calls many (every tool call of every agent): parse and compile once.
const CACHE_LIMIT = 2000;
const parsedRules = new Map<string, ParsedRule | null>();
const globs = new Map<string, PathGlob>();

function parsedRule(text: string): ParsedRule | undefined {
  let parsed = parsedRules.get(text);
  if (parsed === undefined) {
    const result = parseRule(text);
    parsed = result.ok ? result.value : null;
    if (parsedRules.size >= CACHE_LIMIT) parsedRules.clear();
    parsedRules.set(text, parsed);
  }
  return parsed ?? undefined;
}

function globFor(pattern: string): PathGlob {
  let glob = globs.get(pattern);
  if (glob === undefined) {
    glob = compilePathGlob(pattern);
    if (globs.size >= CACHE_LIMIT) globs.clear();
    globs.set(pattern, glob);
  }
  return glob;
}
