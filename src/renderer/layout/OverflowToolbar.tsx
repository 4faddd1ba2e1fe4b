// A toolbar that never wraps: its items (its children) stay on one line, and those that do not fit
// (from the end, never one of the `pinned` first ones, nor one showing an alert) move into a "…"
// popover, where they stay mounted while it is closed. A <span className="spacer"> takes the free
// space. Item widths are measured as they are drawn (ResizeObserver); an item in the popover keeps
// the width it last had in the row.
import { Children, isValidElement, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { Popover } from "./Popover.js";

/** Room the "…" button takes, with its gap. */
const MoreWidth = 36;

/**
 * Which items leave the row: from the last unpinned one backwards, until the rest (and the "…"
 * button) fit in `available` pixels. `gap` is the space between two items.
 */
export function overflowing(items: readonly { key: string; width: number; pinned?: boolean; spacer?: boolean }[], available: number, gap: number): Set<string> {
  const shown = items.filter((i) => !i.spacer);
  const total = (list: readonly { width: number }[]): number => list.reduce((sum, i) => sum + i.width, 0) + gap * Math.max(0, list.length - 1);
  const out = new Set<string>();
  if (total(shown) <= available) return out;
  const kept = [...shown];
  for (let i = kept.length - 1; i >= 0 && total(kept) + MoreWidth > available; i--) {
    if (kept[i]!.pinned === true) continue;
    out.add(kept[i]!.key);
    kept.splice(i, 1);
  }
  return out;
}

interface Item {
  readonly key: string;
  readonly node: ReactNode;
  readonly pinned: boolean;
  readonly spacer: boolean;
}

function itemsOf(children: ReactNode, pinned: number): Item[] {
  return Children.toArray(children).map((node, i) => ({
    key: isValidElement(node) && node.key !== null ? String(node.key) : String(i),
    node,
    pinned: i < pinned,
    spacer: isValidElement<{ className?: string }>(node) && node.type === "span" && node.props.className === "spacer",
  }));
}

export function OverflowToolbar({ label, pinned = 0, children }: { readonly label: string; readonly pinned?: number; readonly children: ReactNode }) {
  const items = itemsOf(children, pinned);
  const row = useRef<HTMLElement>(null);
  const more = useRef<HTMLDivElement>(null);
  const widths = useRef(new Map<string, number>());
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const latest = useRef(items);
  latest.current = items;
  // Measured again when the items change (not on every render: a running session re-renders the toolbar often).
  const keys = items.map((i) => i.key).join("\n");

  useLayoutEffect(() => {
    const element = row.current;
    if (element === null) return;
    const measure = (): void => {
      for (const child of element.querySelectorAll<HTMLElement>(":scope > [data-item]")) widths.current.set(child.dataset["item"]!, child.offsetWidth);
      const style = getComputedStyle(element);
      const gap = parseFloat(style.columnGap) || 0;
      const available = element.clientWidth - (parseFloat(style.paddingLeft) || 0) - (parseFloat(style.paddingRight) || 0);
      // A problem a control shows (a file Baton will not read), or a count that asks for the person
      // (data-keep-in-sight: "Needs you"), stays in sight, wherever it was.
      const alerting = new Set(
        [...element.querySelectorAll<HTMLElement>(":scope > [data-item]"), ...(more.current?.querySelectorAll<HTMLElement>(":scope > [data-item]") ?? [])]
          .filter((child) => child.querySelector("[role=alert], [data-keep-in-sight]") !== null)
          .map((child) => child.dataset["item"]!),
      );
      const next = overflowing(
        latest.current.map((i) => ({ key: i.key, width: widths.current.get(i.key) ?? 0, pinned: i.pinned || alerting.has(i.key), spacer: i.spacer })),
        available,
        gap,
      );
      setHidden((prev) => (prev.size === next.size && [...next].every((k) => prev.has(k)) ? prev : next));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    for (const child of element.querySelectorAll(":scope > [data-item]")) observer.observe(child);
    // An alert can appear in an item while it is in the closed popover.
    const alerts = new MutationObserver(measure);
    if (more.current !== null) alerts.observe(more.current, { childList: true, subtree: true, attributeFilter: ["role", "data-keep-in-sight"] });
    return () => {
      observer.disconnect();
      alerts.disconnect();
    };
  }, [keys, hidden]);

  const moved = items.filter((i) => hidden.has(i.key));
  return (
    <header className="toolbar" role="toolbar" aria-label={label} ref={row}>
      {items.map((i) =>
        hidden.has(i.key) ? null : i.spacer ? (
          <span key={i.key} className="spacer" />
        ) : (
          <div key={i.key} className="tb-item" data-item={i.key}>
            {i.node}
          </div>
        ),
      )}
      {moved.length > 0 ? (
        <Popover label="More toolbar items" buttonText="…" kind="dialog" className="tb-more" keepMounted>
          {() => (
            <div className="tb-overflow" ref={more}>
              {moved.map((i) => (
                <div key={i.key} className="tb-item" data-item={i.key}>
                  {i.node}
                </div>
              ))}
            </div>
          )}
        </Popover>
      ) : null}
    </header>
  );
}
