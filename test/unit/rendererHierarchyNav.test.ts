// The Hierarchy's keys (WAI-ARIA tree pattern) over the rows a person sees.
import { describe, expect, it } from "vitest";
import { foldedAfter, treeKey, visibleRows, type TreeRow } from "../../src/renderer/panels/hierarchyNav.js";

// root → Alpha (→ Beta (→ Gamma), Delta), Echo
const children: Record<string, string[]> = { root: ["alpha", "echo"], alpha: ["beta", "delta"], beta: ["gamma"] };
const labels: Record<string, string> = { root: "Conductor", alpha: "Alpha task", beta: "Beta task", gamma: "Gamma", delta: "Delta", echo: "echo job" };
const rows = (folded: ReadonlySet<string> = new Set()): TreeRow[] =>
  visibleRows("root", (id) => children[id] ?? [], (id) => labels[id] ?? "", folded);
const ids = (list: readonly TreeRow[]) => list.map((r) => r.id);

describe("the Hierarchy's rows", () => {
  it("lists rows depth first with their level, parent and fold state; a folded row hides its descendants only", () => {
    expect(ids(rows())).toEqual(["root", "alpha", "beta", "gamma", "delta", "echo"]);
    expect(rows().find((r) => r.id === "gamma")).toEqual({ id: "gamma", parentId: "beta", level: 4, hasChildren: false, expanded: false, label: "Gamma" });
    const folded = rows(new Set(["beta"]));
    expect(ids(folded)).toEqual(["root", "alpha", "beta", "delta", "echo"]);
    expect(folded.find((r) => r.id === "beta")).toMatchObject({ hasChildren: true, expanded: false });
    expect(ids(rows(new Set(["root"])))).toEqual(["root"]);
  });
});

describe("the Hierarchy's keys", () => {
  const all = rows();

  it("Up and Down move one visible row, stopping at the ends; Home and End go to them", () => {
    expect(treeKey(all, "alpha", "ArrowDown")).toEqual({ kind: "focus", id: "beta" });
    expect(treeKey(all, "delta", "ArrowUp")).toEqual({ kind: "focus", id: "gamma" });
    expect(treeKey(all, "echo", "ArrowDown")).toBeUndefined();
    expect(treeKey(all, "root", "ArrowUp")).toBeUndefined();
    expect(treeKey(all, "gamma", "Home")).toEqual({ kind: "focus", id: "root" });
    expect(treeKey(all, "alpha", "End")).toEqual({ kind: "focus", id: "echo" });
    // Past a folded row, Down skips what it hides.
    expect(treeKey(rows(new Set(["beta"])), "beta", "ArrowDown")).toEqual({ kind: "focus", id: "delta" });
  });

  it("Right opens a folded row, enters an open one, and does nothing on a leaf", () => {
    const folded = rows(new Set(["alpha"]));
    expect(treeKey(folded, "alpha", "ArrowRight")).toEqual({ kind: "fold", id: "alpha", open: true });
    expect(treeKey(all, "alpha", "ArrowRight")).toEqual({ kind: "focus", id: "beta" });
    expect(treeKey(all, "gamma", "ArrowRight")).toBeUndefined();
  });

  it("Left folds an open row, else goes to the parent; on the folded root it does nothing", () => {
    expect(treeKey(all, "beta", "ArrowLeft")).toEqual({ kind: "fold", id: "beta", open: false });
    expect(treeKey(all, "gamma", "ArrowLeft")).toEqual({ kind: "focus", id: "beta" });
    expect(treeKey(all, "delta", "ArrowLeft")).toEqual({ kind: "focus", id: "alpha" });
    expect(treeKey(rows(new Set(["root"])), "root", "ArrowLeft")).toBeUndefined();
  });

  it("Enter and Space select the row; other keys with no meaning give nothing", () => {
    expect(treeKey(all, "delta", "Enter")).toEqual({ kind: "select", id: "delta" });
    expect(treeKey(all, "delta", " ")).toEqual({ kind: "select", id: "delta" });
    expect(treeKey(all, "delta", "Escape")).toBeUndefined();
    expect(treeKey(all, "delta", "Tab")).toBeUndefined();
    expect(treeKey(all, "delta", "F2")).toBeUndefined();
  });

  it("a typed letter goes to the next row starting with it, wrapping, whatever its case", () => {
    expect(treeKey(all, "root", "d")).toEqual({ kind: "focus", id: "delta" });
    expect(treeKey(all, "delta", "E")).toEqual({ kind: "focus", id: "echo" });
    expect(treeKey(all, "echo", "a")).toEqual({ kind: "focus", id: "alpha" });
    expect(treeKey(all, "alpha", "z")).toBeUndefined();
  });

  it("a row that is no longer shown gives focus to the first row", () => {
    expect(treeKey(rows(new Set(["alpha"])), "gamma", "ArrowDown")).toEqual({ kind: "focus", id: "root" });
    expect(treeKey([], "gamma", "ArrowDown")).toBeUndefined();
  });

  it("folds change only by a fold action, and a fold that is already so keeps the same set", () => {
    const none: ReadonlySet<string> = new Set();
    const folded = foldedAfter(none, { kind: "fold", id: "beta", open: false });
    expect([...folded]).toEqual(["beta"]);
    expect(foldedAfter(folded, { kind: "fold", id: "beta", open: false })).toBe(folded);
    expect([...foldedAfter(folded, { kind: "fold", id: "beta", open: true })]).toEqual([]);
    expect(foldedAfter(folded, { kind: "focus", id: "alpha" })).toBe(folded);
    expect(foldedAfter(none, { kind: "fold", id: "alpha", open: true })).toBe(none);
  });
});
