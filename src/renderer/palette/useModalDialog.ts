// A <dialog> shown modally while its component is mounted: the rest of the window is inert, and
// when it goes away the focus goes back where it was, as a person expects after Esc.
import { useEffect, useRef } from "react";

export function useModalDialog() {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    const before = document.activeElement;
    if (element !== null && !element.open) element.showModal();
    return () => {
      if (element?.open === true) element.close();
      if (before instanceof HTMLElement && before.isConnected) before.focus();
    };
  }, []);
  return dialog;
}
