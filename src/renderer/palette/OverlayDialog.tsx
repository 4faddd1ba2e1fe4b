// The window's overlays (palette, shortcuts sheet) as one modal <dialog>: Esc, the dialog's own
// cancel and a click on its backdrop (the dialog element itself: its content fills its box) all
// close the overlay through overlay.ts, so the focus goes back where it was.
import type { ReactNode } from "react";
import { closeOverlay } from "./overlay.js";
import { useModalDialog } from "./useModalDialog.js";

interface OverlayDialogProps {
  readonly className: string;
  readonly label?: string;
  readonly labelledBy?: string;
  readonly children: ReactNode;
}

export function OverlayDialog({ className, label, labelledBy, children }: OverlayDialogProps) {
  const dialog = useModalDialog();
  return (
    <dialog
      ref={dialog}
      className={className}
      aria-label={label}
      aria-labelledby={labelledBy}
      onCancel={(e) => {
        e.preventDefault();
        closeOverlay();
      }}
      onKeyDown={(e) => {
        if (e.key !== "Escape") return;
        e.preventDefault();
        closeOverlay();
      }}
      onClick={(e) => {
        if (e.target === e.currentTarget) closeOverlay();
      }}
    >
      {children}
    </dialog>
  );
}
