// A button that opens a popover below it: the View menu and the toolbar's "…" use it. The popover
// is drawn in document.body (the toolbar's paint containment would clip it), closes on Escape, a
// click outside or a choice, and gives the keyboard back to its button. `menu` makes it a WAI-ARIA
// menu whose items (role="menuitem") the arrow keys walk.
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { createPortal } from "react-dom";

interface Props {
  readonly label: string;
  readonly buttonText: ReactNode;
  readonly className?: string;
  readonly title?: string;
  /** "menu": items are menuitems; "dialog": any controls (the toolbar's overflow). */
  readonly kind: "menu" | "dialog";
  /** Keep the content mounted (hidden) while closed: controls in it keep their state and can be watched. */
  readonly keepMounted?: boolean;
  readonly children: (close: () => void) => ReactNode;
}

function items(root: HTMLElement | null): HTMLElement[] {
  return root === null ? [] : [...root.querySelectorAll<HTMLElement>("[role=menuitem]:not([aria-disabled=true])")];
}

export function Popover({ label, buttonText, className, title, kind, keepMounted = false, children }: Props) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const popup = useRef<HTMLDivElement>(null);
  const [at, setAt] = useState({ top: 0, left: 0 });

  const close = (): void => {
    setOpen(false);
    button.current?.focus();
  };

  useLayoutEffect(() => {
    if (!open || button.current === null || popup.current === null) return;
    const b = button.current.getBoundingClientRect();
    const width = popup.current.offsetWidth;
    setAt({ top: b.bottom + 2, left: Math.max(4, Math.min(b.left, window.innerWidth - width - 4)) });
    if (kind === "menu") items(popup.current)[0]?.focus();
    else popup.current.querySelector<HTMLElement>("button, select, input, [tabindex]")?.focus();
  }, [open, kind]);

  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent): void => {
      const t = e.target as Node;
      // A dialog a control in it opened (New session's) is part of it while open.
      const inDialog = t instanceof Element && t.closest("[role=dialog], [role=alertdialog]") !== null;
      if (!popup.current?.contains(t) && !button.current?.contains(t) && !inDialog) setOpen(false);
    };
    document.addEventListener("pointerdown", outside, true);
    return () => document.removeEventListener("pointerdown", outside, true);
  }, [open]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      close();
      return;
    }
    if (kind !== "menu") return;
    const list = items(popup.current);
    const i = list.indexOf(document.activeElement as HTMLElement);
    const to = e.key === "ArrowDown" ? i + 1 : e.key === "ArrowUp" ? i - 1 : e.key === "Home" ? 0 : e.key === "End" ? list.length - 1 : undefined;
    if (to === undefined || list.length === 0) return;
    e.preventDefault();
    list[(to + list.length) % list.length]?.focus();
  };

  return (
    <>
      <button
        ref={button}
        className={className}
        aria-label={label}
        title={title ?? label}
        aria-haspopup={kind}
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        {buttonText}
      </button>
      {open || keepMounted
        ? createPortal(
            <div
              ref={popup}
              className={`popover popover-${kind}`}
              role={kind}
              aria-label={label}
              hidden={!open}
              style={{ top: at.top, left: at.left }}
              onKeyDown={onKeyDown}
            >
              {children(close)}
            </div>,
            document.body,
          )
        : null}
    </>
  );
}
