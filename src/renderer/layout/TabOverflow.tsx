// A dock group's list of the tabs that do not fit its tab strip: a button at the strip's end,
// shown only while some tab is cut off, opening a menu of those tabs; choosing one brings it
// forward (and into view). It replaces dockview's own list, which a keyboard cannot reach.
import { useEffect, useState } from "react";
import type { DockviewGroupPanel, IHeaderActionsRenderer, IGroupHeaderProps } from "dockview";
import { ReactPart } from "./dockBridge.js";
import { Popover } from "./Popover.js";

interface CutOff {
  readonly id: string;
  readonly title: string;
}

/** The tabs of a strip whose box is not wholly inside the strip's visible box. */
function cutOff(list: Element): CutOff[] {
  const view = list.getBoundingClientRect();
  return [...list.querySelectorAll<HTMLElement>(":scope > .dv-tab")].flatMap((tab) => {
    const r = tab.getBoundingClientRect();
    const inside = r.left >= view.left - 1 && r.right <= view.right + 1;
    return inside ? [] : [{ id: tab.dataset["tabPanelId"] ?? "", title: tab.getAttribute("aria-label") ?? "" }];
  });
}

function same(a: readonly CutOff[], b: readonly CutOff[]): boolean {
  return a.length === b.length && a.every((x, i) => x.id === b[i]?.id && x.title === b[i]?.title);
}

function TabOverflow({ group }: { readonly group: DockviewGroupPanel }) {
  const [hidden, setHidden] = useState<readonly CutOff[]>([]);
  useEffect(() => {
    const list = group.element.querySelector(".dv-tabs-container");
    if (list === null) return;
    const check = (): void => setHidden((prev) => (same(prev, cutOff(list)) ? prev : cutOff(list)));
    check();
    const resize = new ResizeObserver(check);
    resize.observe(list);
    // Tabs added or removed (not what each tab draws inside).
    const tabs = new MutationObserver(check);
    tabs.observe(list, { childList: true, attributes: true, attributeFilter: ["aria-label"], subtree: true });
    list.addEventListener("scroll", check, { passive: true });
    const active = group.api.onDidActivePanelChange(() => requestAnimationFrame(check));
    return () => {
      resize.disconnect();
      tabs.disconnect();
      list.removeEventListener("scroll", check);
      active.dispose();
    };
  }, [group]);
  if (hidden.length === 0) return null;
  return (
    <Popover label={`Tabs that do not fit (${hidden.length})`} buttonText={`»${hidden.length}`} kind="menu" className="tab-overflow-button">
      {(close) =>
        hidden.map((t) => (
          <button
            key={t.id}
            role="menuitem"
            tabIndex={-1}
            className="menu-item"
            onClick={() => {
              close();
              const panel = group.panels.find((p) => p.id === t.id);
              panel?.api.setActive();
              group.element.querySelector(`.dv-tab[data-tab-panel-id="${CSS.escape(t.id)}"]`)?.scrollIntoView({ block: "nearest", inline: "nearest" });
            }}
          >
            <span className="menu-label">{t.title}</span>
          </button>
        ))
      }
    </Popover>
  );
}

/** dockview's right header actions of a group, drawn by React. */
export class TabOverflowActions implements IHeaderActionsRenderer {
  private readonly part = new ReactPart("dock-header-actions");

  get element(): HTMLElement {
    return this.part.element;
  }

  init(params: IGroupHeaderProps): void {
    // dockview hands its own group (a DockviewGroupPanel) through the narrower interface.
    this.part.mount(<TabOverflow group={params.group as DockviewGroupPanel} />);
  }

  dispose(): void {
    this.part.unmount();
  }
}
