// What the prompt actions' dialogs share (issue 37: Edit and resend, Rewind files): each opens in a
// React root of its own in the page's body, so it outlives any re-render of the transcript row that
// opened it; and Esc closes it and goes no further, since the window's Esc interrupts the session.
import type { DialogHTMLAttributes, ReactNode } from "react";
import { createRoot } from "react-dom/client";

/** Renders `dialog` in a root of its own; the `close` it is given unmounts it and removes the root. */
export function openPromptDialog(dialog: (close: () => void) => ReactNode): void {
  const host = document.createElement("div");
  document.body.append(host);
  const root = createRoot(host);
  const close = (): void => {
    root.unmount();
    host.remove();
  };
  root.render(dialog(close));
}

/** The dialog's cancel and Esc handlers: `close` (which may refuse while work runs), nothing else. */
export function escapeCloses(close: () => void): Pick<DialogHTMLAttributes<HTMLDialogElement>, "onCancel" | "onKeyDown"> {
  return {
    onCancel: (e) => {
      e.preventDefault(); // the opener's effect cleanup closes the element
      close();
    },
    onKeyDown: (e) => {
      if (e.key !== "Escape") return;
      e.preventDefault();
      e.stopPropagation();
      close();
    },
  };
}
