// The dock's saved layout: what is kept (no sessions, no hiding for a narrow window, no maximise),
// what a load refuses (not JSON, another version, an unknown or doubled panel) and what it takes
// from this version rather than the saved copy.
import { describe, expect, it } from "vitest";
import type { SerializedDockview } from "dockview";
import { layoutKey, LayoutVersion, panelState, parseSaved, sessionPanelId, tabIdOfPanel, toSaved, windowId } from "../../src/renderer/layout/savedLayout.js";

const leaf = (id: string, views: string[], activeView?: string, extra: object = {}) => ({ type: "leaf" as const, data: { id, views, ...(activeView !== undefined ? { activeView } : {}) }, size: 200, ...extra });

function dock(): SerializedDockview {
  return {
    grid: {
      root: {
        type: "branch",
        data: [
          leaf("left", ["hierarchy", "project"], "project", { visible: false }),
          { type: "branch", data: [leaf("centre", ["session:tab-1", "session:tab-2"], "session:tab-2"), leaf("bottom", ["console", "graph"], "console")], size: 900 },
          leaf("right", ["inspector", "session:tab-3"], "session:tab-3"),
        ],
        size: 1000,
      },
      width: 1400,
      height: 1000,
      orientation: "HORIZONTAL",
      maximizedNode: { location: [1, 0] },
    } as SerializedDockview["grid"],
    panels: Object.fromEntries(
      ["hierarchy", "project", "console", "graph", "inspector", "session:tab-1", "session:tab-2", "session:tab-3"].map((id) => [id, { id, contentComponent: id.startsWith("session:") ? "session" : id, title: id }]),
    ),
    activeGroup: "centre",
  };
}

describe("saved layout", () => {
  it("names session panels by their server tab", () => {
    expect(sessionPanelId("tab-7")).toBe("session:tab-7");
    expect(tabIdOfPanel("session:tab-7")).toBe("tab-7");
    expect(tabIdOfPanel("console")).toBeUndefined();
  });

  it("is kept per window: ?window=<id>, else the one window", () => {
    expect(windowId("")).toBe("main");
    expect(windowId("?window=second")).toBe("second");
    expect(windowId("?window=../../x")).toBe("main");
    expect(layoutKey("main")).toBe("baton.dock.main");
  });

  it("keeps no sessions, shows what a narrow window hid, drops the maximise, remembers the sessions' group", () => {
    const saved = toSaved(dock(), "centre");
    expect(saved.version).toBe(LayoutVersion);
    expect(saved.sessionGroup).toBe("centre");
    expect(Object.keys(saved.dock.panels).sort()).toEqual(["console", "graph", "hierarchy", "inspector", "project"]);
    const [left, middle, right] = saved.dock.grid.root.data as { data: unknown; visible?: boolean }[];
    expect(left).toEqual({ type: "leaf", data: { id: "left", views: ["hierarchy", "project"], activeView: "project" }, size: 200 });
    // The sessions' group comes back empty; a group that lost its front session has none in front.
    expect((middle!.data as { data: unknown }[])[0]!.data).toEqual({ id: "centre", views: [] });
    expect(right!.data).toEqual({ id: "right", views: ["inspector"] });
    expect("maximizedNode" in saved.dock.grid).toBe(false);
  });

  it("round-trips through JSON and loads with this version's titles, components and minimum sizes", () => {
    const saved = toSaved(dock(), "centre");
    const loaded = parseSaved(JSON.stringify({ ...saved, dock: { ...saved.dock, panels: { ...saved.dock.panels, console: { id: "console", contentComponent: "evil", title: "<b>x</b>" } } } }));
    expect(loaded.ok).toBe(true);
    if (!loaded.ok || loaded.layout === undefined) return;
    expect(loaded.layout.sessionGroup).toBe("centre");
    expect(loaded.layout.dock.panels["console"]).toEqual(panelState("console"));
    expect(loaded.layout.dock.panels["console"]).toMatchObject({ contentComponent: "console", tabComponent: "panel", title: "Console" });
    expect(loaded.layout.dock.grid).toEqual(saved.dock.grid);
  });

  it("reads nothing saved as no layout", () => {
    expect(parseSaved(null)).toEqual({ ok: true, layout: undefined });
  });

  it("refuses what it cannot use, saying why", () => {
    const good = toSaved(dock(), "centre");
    const reason = (raw: string): string => {
      const r = parseSaved(raw);
      return r.ok ? "loaded" : r.reason;
    };
    expect(reason("{not json")).toBe("it is not JSON");
    expect(reason("null")).toBe("it is not a layout");
    expect(reason(JSON.stringify({ ...good, version: 0 }))).toContain("another version of Baton (layout version 0");
    expect(reason(JSON.stringify({ ...good, version: LayoutVersion + 1 }))).toContain("another version");
    expect(reason(JSON.stringify({ version: LayoutVersion }))).toBe("it has no panels");
    expect(reason(JSON.stringify({ version: LayoutVersion, dock: { panels: {}, grid: { root: { type: "leaf", data: {} } } } }))).toBe("its grid is not a grid");
    const withView = (views: string[], panels: Record<string, object>) =>
      JSON.stringify({ version: LayoutVersion, dock: { grid: { ...good.dock.grid, root: { type: "branch", data: [leaf("a", views)] } }, panels } });
    expect(reason(withView(["terminal"], { terminal: { id: "terminal" } }))).toBe('it names a panel this Baton does not have ("terminal")');
    expect(reason(withView(["session:tab-1"], { "session:tab-1": {} }))).toContain("does not have");
    expect(reason(withView(["console", "console"], { console: {} }))).toBe("it has the Console panel twice");
    expect(reason(withView(["console"], {}))).toBe("the Console panel has no state");
    expect(reason(JSON.stringify({ version: LayoutVersion, dock: { grid: { root: { type: "branch", data: [{ type: "leaf", data: null }] } }, panels: {} } }))).toBe("a group is damaged");
    expect(reason(withView(["console"], { console: {} }))).toBe("loaded");
  });

  it("keeps a floating group's panels and drops popout windows", () => {
    const d = dock();
    const withFloat = {
      ...d,
      panels: { ...d.panels, rules: { id: "rules" } },
      floatingGroups: [
        { data: { id: "float", views: ["rules"], activeView: "rules" }, position: { left: 10, top: 10, width: 300, height: 200 } },
        // A floating window of sessions only is left out, unless it is where the sessions go.
        { data: { id: "float-sessions", views: ["session:tab-9"] }, position: { left: 10, top: 10, width: 300, height: 200 } },
      ],
      popoutGroups: [{ data: { id: "pop", views: ["console"] }, position: null }],
    } as SerializedDockview;
    const saved = toSaved(withFloat, "centre");
    expect(saved.dock.floatingGroups?.map((f) => f.data)).toEqual([{ id: "float", views: ["rules"], activeView: "rules" }]);
    expect(toSaved(withFloat, "float-sessions").dock.floatingGroups?.map((f) => f.data?.id)).toEqual(["float", "float-sessions"]);
    expect("popoutGroups" in saved.dock).toBe(false);
  });
});
