// The Hierarchy's keys, as pure functions over the rows a person sees: the tree pattern of the
// WAI-ARIA Authoring Practices (up/down move, right opens or enters, left folds or climbs, Home/End,
// a typed letter jumps to the next row that starts with it). The panel reads the rows from the app
// state when a key arrives, so walking the tree costs nothing while nobody presses a key.

/** The keys treeKey handles, for the shortcuts sheet (keys/keyHelp.ts). */
export const HierarchyKeys = [
  { keys: ["ArrowUp", "ArrowDown"], does: "Move to the agent above or below" },
  { keys: ["ArrowRight"], does: "Unfold an agent, or go to its first agent" },
  { keys: ["ArrowLeft"], does: "Fold an agent, or go to the agent that started it" },
  { keys: ["Home", "End"], does: "Go to the first or last row" },
  { keys: ["Enter", " "], does: "Select the agent (Inspector, Transcript, graph)" },
  { keys: ["a–z"], does: "Go to the next agent whose description starts with the letter" },
] as const;

/** One row of the tree as shown: folded rows' descendants are not in the list. */
export interface TreeRow {
  readonly id: string;
  readonly parentId: string | undefined;
  /** 1 for the root, as aria-level counts. */
  readonly level: number;
  readonly hasChildren: boolean;
  readonly expanded: boolean;
  /** What type-ahead matches: the text the row starts with. */
  readonly label: string;
}

/** What a key asks for: focus a row, fold or open one, select one; nothing for a key the tree does not use. */
export type TreeAction =
  | { readonly kind: "focus"; readonly id: string }
  | { readonly kind: "fold"; readonly id: string; readonly open: boolean }
  | { readonly kind: "select"; readonly id: string };

/**
 * The rows a person sees, depth first from `root`: `childrenOf` gives a row's child ids in order,
 * `labelOf` its text; a folded row's descendants are left out.
 */
export function visibleRows(root: string, childrenOf: (id: string) => readonly string[], labelOf: (id: string) => string, folded: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (id: string, parentId: string | undefined, level: number): void => {
    const children = childrenOf(id);
    const expanded = children.length > 0 && !folded.has(id);
    rows.push({ id, parentId, level, hasChildren: children.length > 0, expanded, label: labelOf(id) });
    if (expanded) for (const child of children) walk(child, id, level + 1);
  };
  walk(root, undefined, 1);
  return rows;
}

/** The action for `key` pressed on the row `current`; undefined when the tree does not use it. */
export function treeKey(rows: readonly TreeRow[], current: string, key: string): TreeAction | undefined {
  const at = rows.findIndex((r) => r.id === current);
  if (at < 0) return rows.length > 0 ? { kind: "focus", id: rows[0]!.id } : undefined;
  const row = rows[at]!;
  const focus = (index: number): TreeAction | undefined => {
    const target = rows[index];
    return target === undefined || target.id === current ? undefined : { kind: "focus", id: target.id };
  };
  switch (key) {
    case "ArrowDown":
      return focus(at + 1);
    case "ArrowUp":
      return focus(at - 1);
    case "Home":
      return focus(0);
    case "End":
      return focus(rows.length - 1);
    case "ArrowRight":
      if (!row.hasChildren) return undefined;
      return row.expanded ? focus(at + 1) : { kind: "fold", id: row.id, open: true };
    case "ArrowLeft":
      if (row.expanded) return { kind: "fold", id: row.id, open: false };
      return row.parentId === undefined ? undefined : { kind: "focus", id: row.parentId };
    case "Enter":
    case " ":
      return { kind: "select", id: row.id };
    default:
      return typeAhead(rows, at, key);
  }
}

/** A printable character moves to the next row (after the current one, wrapping) whose label starts with it. */
function typeAhead(rows: readonly TreeRow[], at: number, key: string): TreeAction | undefined {
  if ([...key].length !== 1 || key.trim() === "") return undefined;
  const wanted = key.toLocaleLowerCase();
  for (let step = 1; step < rows.length; step++) {
    const row = rows[(at + step) % rows.length]!;
    if (row.label.trimStart().toLocaleLowerCase().startsWith(wanted)) return { kind: "focus", id: row.id };
  }
  return undefined;
}

/** The folds after `action`: a fold changes the set, every other action leaves it as it was. */
export function foldedAfter(folded: ReadonlySet<string>, action: TreeAction): ReadonlySet<string> {
  if (action.kind !== "fold" || folded.has(action.id) === !action.open) return folded;
  const next = new Set(folded);
  if (action.open) next.delete(action.id);
  else next.add(action.id);
  return next;
}
