// The person's permission rules, written in Claude Code's own syntax
// (https://code.claude.com/docs/en/permissions, "Permission rule syntax"), so a rule reads the
// same in Baton as in a settings.json:
// * `Tool` or `Tool(specifier)`; `Tool(*)` is the same as `Tool`. Parentheses inside a specifier
//   are escaped `\(` `\)`, as the CLI's own formatter writes them; balanced ones are read too.
// * Bash: `Bash(npm run build)` is that exact command; `Bash(npm run test:*)` (the legacy prefix
//   form) is any command starting with those words, on a word boundary (`npm run test -w`, not
//   `npm run tests`); `*` anywhere else is a wildcard that spans spaces, and a single trailing ` *`
//   also matches the bare command (`Bash(git *)` matches `git`; `Bash(ls *)` not `lsof`,
//   `Bash(ls*)` both). A compound line (`&&`, `||`, `;`, pipes) is judged per simple command:
//   `Bash(safe-cmd:*)` does not allow `safe-cmd && other-cmd`.
// * Read / Edit: gitignore-style patterns: `//path` absolute, `~/path` from home, `/path` from the
//   project root (the settings file's folder in Claude Code; the rule's project in Baton),
//   `path` or `./path` from the cwd. Edit rules cover every tool that edits files, Read rules every
//   tool that reads them (Grep and Glob best-effort, as the docs say).
// * `WebFetch(domain:example.com)`: the CLI compares `domain:<hostname of the URL>` with the rule,
//   so a rule names one host: it does not cover `sub.example.com`, and wildcards are not honoured
//   (anthropics/claude-code#11972). Baton refuses a wildcard rather than store one that never fires.
// * `mcp__server` (or `mcp__server__*`) is every tool of that MCP server, `mcp__server__tool` one;
//   no pattern. `Agent(Explore)` is one subagent type (`Task` is the Agent tool's old name).
// * Evaluation (src/main/policy/ruleMatch.ts): deny beats ask beats allow, whatever the order.
// Inside a Bash pattern, quotes and backslashes group and escape as in the shell, so
// `Bash(git commit -m "fix typo")` names the words the shell parser gives.

export type RuleSpecifier =
  /** The bare tool (or `Tool(*)`): every use. */
  | { readonly kind: "any" }
  /** Bash: exactly these words. */
  | { readonly kind: "exact"; readonly words: readonly string[] }
  /** Bash `words:*`: a command whose first words are these. */
  | { readonly kind: "prefix"; readonly words: readonly string[] }
  /**
   * Bash with `*`: the command's words joined by single spaces, matched by literal `pieces` with
   * a wildcard between each two. `bareAllowed`: a lone trailing ` *` may match nothing at all.
   */
  | { readonly kind: "wildcard"; readonly pieces: readonly string[]; readonly bareAllowed: boolean }
  /** Read / Edit family: a gitignore-style pattern, resolved when matched (it needs cwd, home, project). */
  | { readonly kind: "path"; readonly pattern: string }
  /** WebFetch: the URL's host, exactly (lower case). */
  | { readonly kind: "domain"; readonly host: string }
  /** Agent: the `subagent_type`. */
  | { readonly kind: "agent"; readonly agentType: string }
  /** `mcp__server` / `mcp__server__*`: every tool whose name starts `mcp__server__`. */
  | { readonly kind: "mcp-server"; readonly server: string };

export interface ParsedRule {
  /** As Claude Code names it (`Task` reads as `Agent`). */
  readonly tool: string;
  /** The specifier, unescaped; undefined for a rule on the whole tool. */
  readonly content?: string;
  readonly specifier: RuleSpecifier;
}

export type RuleParse = { readonly ok: true; readonly value: ParsedRule } | { readonly ok: false; readonly error: string };

/** Tools whose rules take a path pattern. */
export const PATH_RULE_TOOLS: ReadonlySet<string> = new Set(["Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "Glob", "Grep", "LS"]);
/** What an `Edit` rule covers: every built-in tool that edits files. */
export const EDIT_TOOLS: ReadonlySet<string> = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);
/** What a `Read` rule covers: every built-in tool that reads files. */
export const READ_TOOLS: ReadonlySet<string> = new Set(["Read", "Glob", "Grep", "LS"]);

const TOOL_ALIASES: Readonly<Record<string, string>> = { Task: "Agent" };
const TOOL_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
const MCP_PART = /^[A-Za-z0-9_.-]+$/;
const HOST = /^(?:[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*|\[[0-9a-f:.]+\])$/;
const AGENT_TYPE = /^[A-Za-z0-9_:.-]+$/;

/** A tool's canonical name (`Task` → `Agent`), for rules and calls alike. */
export function canonicalToolName(name: string): string {
  return TOOL_ALIASES[name] ?? name;
}

export function parseRule(text: string): RuleParse {
  const fail = (why: string): RuleParse => ({ ok: false, error: `rule ${JSON.stringify(text)}: ${why}` });
  const rule = text.trim();
  if (rule === "") return fail("it is empty");
  const open = firstUnescaped(rule, "(");
  const name = open === -1 ? rule : rule.slice(0, open);
  if (name === "") return fail("there is no tool name before “(”");
  if (open === -1 && name.includes(")")) return fail("unbalanced parentheses: “)” without “(”");
  if (name.startsWith("mcp__")) return open === -1 ? mcpRule(name, fail) : fail("MCP rules take no pattern: write mcp__server or mcp__server__tool");
  if (!TOOL_NAME.test(name)) return fail(`${JSON.stringify(name)} is not a tool name`);
  const tool = canonicalToolName(name);
  if (open === -1) return { ok: true, value: { tool, specifier: { kind: "any" } } };
  if (!rule.endsWith(")") || isEscaped(rule, rule.length - 1)) return fail("unbalanced parentheses: it must end with “)”");
  const raw = rule.slice(open + 1, -1);
  if (!balanced(raw)) return fail("unbalanced parentheses (escape a literal one as \\( or \\))");
  const content = unescapeContent(raw).trim();
  if (content === "") return fail(`the pattern is empty: write ${JSON.stringify(tool)} alone to match every use`);
  if (content === "*") return { ok: true, value: { tool, specifier: { kind: "any" } } };
  const specifier = specifierFor(tool, content);
  if (typeof specifier === "string") return fail(specifier);
  return { ok: true, value: { tool, content, specifier } };
}

/**
 * The rule written back, canonical: escaped parentheses, `Tool(*)` as `Tool`, a domain in lower
 * case. Two rules that mean the same text format the same, which is what deduplication compares.
 */
export function formatRule(rule: Pick<ParsedRule, "tool" | "content" | "specifier">): string {
  if (rule.specifier.kind === "any" || rule.content === undefined) return rule.tool;
  return ruleText(rule.tool, rule.specifier.kind === "domain" ? `domain:${rule.specifier.host}` : rule.content);
}

/** `Tool(content)` with the content's parentheses escaped; `Tool` alone without content. */
export function ruleText(tool: string, content?: string): string {
  return content === undefined ? tool : `${tool}(${escapeContent(content)})`;
}

/** `text` parsed and formatted back, or the parse error. */
export function canonicalRule(text: string): { readonly ok: true; readonly value: string } | { readonly ok: false; readonly error: string } {
  const parsed = parseRule(text);
  return parsed.ok ? { ok: true, value: formatRule(parsed.value) } : parsed;
}

function mcpRule(name: string, fail: (why: string) => RuleParse): RuleParse {
  const rest = name.slice("mcp__".length);
  const cut = rest.indexOf("__");
  const server = cut === -1 ? rest : rest.slice(0, cut);
  const tool = cut === -1 ? undefined : rest.slice(cut + 2);
  if (!MCP_PART.test(server)) return fail("an MCP rule needs a server name: mcp__server or mcp__server__tool");
  if (tool === undefined || tool === "*") return { ok: true, value: { tool: name, specifier: { kind: "mcp-server", server } } };
  if (!MCP_PART.test(tool)) return fail(`${JSON.stringify(tool)} is not an MCP tool name`);
  return { ok: true, value: { tool: name, specifier: { kind: "any" } } };
}

/** The specifier for a tool's pattern, or why it is not one. */
function specifierFor(tool: string, content: string): RuleSpecifier | string {
  if (tool === "Bash") return bashSpecifier(content);
  if (PATH_RULE_TOOLS.has(tool)) return pathSpecifier(content);
  if (tool === "WebFetch") return domainSpecifier(content);
  if (tool === "Agent") return AGENT_TYPE.test(content) ? { kind: "agent", agentType: content } : `${JSON.stringify(content)} is not a subagent type`;
  return `${tool} takes no pattern: write ${JSON.stringify(tool)} to match every use`;
}

function bashSpecifier(content: string): RuleSpecifier | string {
  const legacyPrefix = content.endsWith(":*") && !isEscaped(content, content.length - 1);
  const words = commandWords(legacyPrefix ? content.slice(0, -2) : content);
  if (typeof words === "string") return words;
  if (words.length === 0) return "the command is empty";
  const hasStar = words.some((w) => w.length > 1);
  if (legacyPrefix) {
    return hasStar ? "a `:*` prefix cannot hold another `*`" : { kind: "prefix", words: words.map((w) => w[0] ?? "") };
  }
  if (!hasStar) return { kind: "exact", words: words.map((w) => w[0] ?? "") };
  const pieces: string[] = [""];
  words.forEach((word, i) => {
    if (i > 0) pieces[pieces.length - 1] += " ";
    pieces[pieces.length - 1] += word[0] ?? "";
    pieces.push(...word.slice(1));
  });
  const bareAllowed = pieces.length === 2 && pieces[1] === "" && (pieces[0] ?? "").endsWith(" ");
  return { kind: "wildcard", pieces, bareAllowed };
}

/**
 * A Bash pattern split into words as the shell would (quotes group, backslash escapes, unquoted
 * whitespace separates); each word is its literal pieces around unquoted `*`s. Or why it cannot be.
 */
function commandWords(text: string): string[][] | string {
  const words: string[][] = [];
  let word: string[] | undefined;
  let quote: "'" | '"' | undefined;
  const current = (): string[] => (word ??= [""]);
  const append = (s: string): void => {
    const w = current();
    w[w.length - 1] += s;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else append(c);
    } else if (c === "\\") {
      if (i + 1 >= text.length) return "it ends with a lone backslash";
      append(text[++i] as string);
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else append(c);
    } else if (c === "'" || c === '"') {
      quote = c;
      current();
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "*") {
      current().push("");
    } else {
      append(c);
    }
  }
  if (quote !== undefined) return `a ${quote} quote is not closed`;
  if (word !== undefined) words.push(word);
  return words;
}

function pathSpecifier(content: string): RuleSpecifier | string {
  if (content.startsWith("!")) return "negation (`!`) has no meaning in a single rule; use a deny rule instead";
  if (content.includes("\0")) return "the pattern holds a NUL character";
  if (content.startsWith("~") && content !== "~" && !content.startsWith("~/")) return "only `~/` means the home folder";
  if (!classesClosed(content)) return "a `[` character class is not closed";
  return { kind: "path", pattern: content };
}

function domainSpecifier(content: string): RuleSpecifier | string {
  if (!content.startsWith("domain:")) return "WebFetch takes `domain:<host>`, e.g. WebFetch(domain:example.com)";
  const host = content.slice("domain:".length).trim().toLowerCase();
  if (host.includes("*")) return "Claude Code matches the exact host, without wildcards: write one rule per host";
  if (!HOST.test(host)) return `${JSON.stringify(host)} is not a host name`;
  return { kind: "domain", host };
}

function isEscaped(s: string, at: number): boolean {
  let slashes = 0;
  for (let i = at - 1; i >= 0 && s[i] === "\\"; i--) slashes++;
  return slashes % 2 === 1;
}

function firstUnescaped(s: string, c: string): number {
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "\\") i++;
    else if (s[i] === c) return i;
  }
  return -1;
}

function balanced(raw: string): boolean {
  let depth = 0;
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === "\\") i++;
    else if (raw[i] === "(") depth++;
    else if (raw[i] === ")" && --depth < 0) return false;
  }
  return depth === 0;
}

function classesClosed(pattern: string): boolean {
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === "\\") i++;
    else if (pattern[i] === "[") {
      const close = pattern.indexOf("]", i + 2);
      if (close === -1) return false;
      i = close;
    }
  }
  return true;
}

/** `\(` `\)` `\\` are the specifier's escapes; any other backslash is the pattern's own. */
function unescapeContent(raw: string): string {
  return raw.replace(/\\([()\\])/g, "$1");
}

function escapeContent(content: string): string {
  return content.replace(/\\(?=[()\\]|$)|[()]/g, (c) => `\\${c}`);
}
