// The shell parser behind the exec policy: tree-sitter-bash through web-tree-sitter. Chosen over
// mvdan-sh (deprecated upstream, GopherJS objects too slow to walk: p99 ≈ 5 ms per line), sh-syntax
// (a Promise and a fresh wasm instance per parse, and its JSON drops the command nodes' fields) and
// bash-parser (unmaintained; misreads heredocs, `[[ ]]`, `(( ))`, `$'…'`, `<(…)`, `|&`). Its wasm
// needs one async start; after that every read is synchronous, because the policy decides inside
// a hook and a per-call await would only add latency. tree-sitter recovers from errors instead of
// failing, so a tree with an ERROR or MISSING node is reported as unreadable here.

import { createRequire } from "node:module";
import { Language, Parser, type Node, type Tree } from "web-tree-sitter";
import { heredocScanCost, lexCost, NODE_COST, PARSE_REPORT_COST, SCRIPT_COST, ShellBudget } from "./shellBudget.js";

/**
 * One node of the tree, copied out of wasm memory in a single cursor walk: every property read on
 * a web-tree-sitter Node is a call into wasm, and the reader looks at each node several times.
 */
export interface ShellNode {
  readonly type: string;
  readonly named: boolean;
  /** Its field in its parent (`name`, `argument`, `destination`, `body`, …), if any. */
  readonly field: string | null;
  /** UTF-16 offsets into the source. */
  readonly start: number;
  readonly end: number;
  readonly children: readonly ShellNode[];
}

export type ShellTree = { readonly ok: true; readonly root: ShellNode } | { readonly ok: false; readonly reason: string };

let parser: Parser | undefined;
let language: Language | undefined;
let loading: Promise<void> | undefined;

/** Starts the parser once; later calls share the same start. A failed start may be retried. */
export function loadShellParser(): Promise<void> {
  loading ??= start().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function start(): Promise<void> {
  await Parser.init();
  const grammar = createRequire(import.meta.url).resolve("tree-sitter-bash/tree-sitter-bash.wasm");
  const loaded = await Language.load(grammar);
  const ready = new Parser();
  ready.setLanguage(loaded);
  language = loaded;
  parser = ready;
}

/**
 * The tree of `source`, or why it cannot be read; undefined when the parser is not loaded yet.
 * The work is charged to `budget` (shellBudget.ts): the text and heredoc scanning before the
 * parser starts, its operations while it runs (it is cancelled when they would pass the budget),
 * and the nodes copied out. Past the budget: TooComplex.
 */
export function parseShell(source: string, budget: ShellBudget = new ShellBudget()): ShellTree | undefined {
  if (parser === undefined || language === undefined) return undefined;
  budget.charge(SCRIPT_COST + lexCost(source.length), "too much text to read");
  budget.charge(heredocScanCost(source), "a heredoc with long lines of expansions");
  let reports = 0;
  const allowed = Math.floor(budget.left / PARSE_REPORT_COST);
  const tree = parser.parse(source, null, { progressCallback: () => ++reports > allowed });
  if (tree === null) {
    // A cancelled parse would be resumed by the next call: start over instead.
    parser.reset();
    if (reports > allowed) budget.exhaust("too much for the shell parser");
    return undefined;
  }
  try {
    budget.charge(reports * PARSE_REPORT_COST, "too much for the shell parser");
    if (tree.rootNode.hasError) return { ok: false, reason: describeError(tree.rootNode, source) };
    const { root, nodes } = copyTree(tree, language);
    budget.charge(nodes * NODE_COST, "too many parts");
    return { ok: true, root };
  } finally {
    tree.delete();
  }
}

function copyTree(tree: Tree, lang: Language): { root: ShellNode; nodes: number } {
  const cursor = tree.walk();
  let nodes = 1;
  try {
    const node = (parentField: string | null): ShellNode & { children: ShellNode[] } => ({
      type: lang.types[cursor.nodeTypeId] ?? cursor.nodeType,
      named: cursor.nodeIsNamed,
      field: parentField,
      start: cursor.startIndex,
      end: cursor.endIndex,
      children: [],
    });
    const root = node(null);
    const open = [root];
    if (!cursor.gotoFirstChild()) return { root, nodes };
    for (;;) {
      const child = node(lang.fields[cursor.currentFieldId] ?? null);
      nodes++;
      open[open.length - 1]!.children.push(child);
      if (cursor.gotoFirstChild()) {
        open.push(child);
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent() || open.length <= 1) return { root, nodes };
        open.pop();
      }
    }
  } finally {
    cursor.delete();
  }
}

/** Where the tree has an ERROR or MISSING node, for the person. */
function describeError(root: Node, source: string): string {
  const bad = firstError(root);
  if (bad === undefined) return "cannot read the command";
  const { row, column } = bad.startPosition;
  const where = `line ${row + 1}, column ${column + 1}`;
  if (bad.isMissing) return `cannot read the command: \`${bad.type}\` missing at ${where}`;
  const near = source.slice(bad.startIndex, Math.min(bad.endIndex, bad.startIndex + 40));
  return `cannot read the command near \`${near}\` (${where})`;
}

function firstError(node: Node): Node | undefined {
  if (node.isError || node.isMissing) return node;
  for (const child of node.children) {
    if (child.hasError || child.isMissing || child.isError) {
      const found = firstError(child);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
