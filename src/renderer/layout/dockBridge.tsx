// dockview 8 is framework-free: it asks for an element per panel (and per tab) and places it. This
// bridge renders Baton's React components into those elements through portals held by one React
// component (DockPortals) inside the app's tree, so a panel keeps its state and the app's context
// wherever it is docked, and while its tab is hidden (dockview detaches the element, React keeps it).
import { useSyncExternalStore, type ReactNode } from "react";
import { createPortal } from "react-dom";
import type { DockviewApi, DockviewPanelApi, GroupPanelPartInitParameters, IContentRenderer, ITabRenderer, TabPartInitParameters } from "dockview";

/** What a panel's content or tab component is given. */
export interface DockPartProps {
  readonly api: DockviewPanelApi;
  readonly containerApi: DockviewApi;
  readonly params: Readonly<Record<string, unknown>>;
}

export interface DockTabProps extends DockPartProps {
  /** "header" in a group's tab strip; dockview also draws tabs in its overflow list. */
  readonly location: string;
}

interface Portal {
  readonly key: string;
  readonly element: HTMLElement;
  readonly node: ReactNode;
}

let portals: readonly Portal[] = [];
const listeners = new Set<() => void>();
let nextKey = 1;

function changed(next: readonly Portal[]): void {
  portals = next;
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Renders every panel's and tab's component into its dockview element. Mount once, beside the dock. */
export function DockPortals() {
  const list = useSyncExternalStore(subscribe, () => portals);
  return <>{list.map((p) => createPortal(p.node, p.element, p.key))}</>;
}

/** An element dockview places, drawn by a React node through DockPortals. */
export class ReactPart {
  readonly element = document.createElement("div");
  private key: string | undefined;

  constructor(className: string) {
    this.element.className = className;
  }

  mount(node: ReactNode): void {
    this.unmount();
    const key = `part-${nextKey++}`;
    this.key = key;
    changed([...portals, { key, element: this.element, node }]);
  }

  unmount(): void {
    const key = this.key;
    if (key === undefined) return;
    this.key = undefined;
    changed(portals.filter((p) => p.key !== key));
  }
}

export type ContentComponent = (props: DockPartProps) => ReactNode;
export type TabComponent = (props: DockTabProps) => ReactNode;

/** A panel's content: dockview calls init once the panel exists and dispose when it is removed. */
export class ReactContentRenderer implements IContentRenderer {
  private readonly part = new ReactPart("dock-part");

  constructor(private readonly Component: ContentComponent) {}

  get element(): HTMLElement {
    return this.part.element;
  }

  init(parameters: GroupPanelPartInitParameters): void {
    const { Component } = this;
    // Which panel a click or a key was in (the preview rule), and where showPanel puts the keyboard.
    this.part.element.dataset["panel"] = parameters.api.id;
    this.part.element.tabIndex = -1;
    this.part.mount(<Component api={parameters.api} containerApi={parameters.containerApi} params={parameters.params} />);
  }

  dispose(): void {
    this.part.unmount();
  }
}

export class ReactTabRenderer implements ITabRenderer {
  private readonly part = new ReactPart("dock-tab-part");

  constructor(private readonly Component: TabComponent) {}

  get element(): HTMLElement {
    return this.part.element;
  }

  init(parameters: TabPartInitParameters): void {
    const { Component } = this;
    this.part.mount(<Component api={parameters.api} containerApi={parameters.containerApi} params={parameters.params} location={parameters.tabLocation} />);
  }

  dispose(): void {
    this.part.unmount();
  }
}
