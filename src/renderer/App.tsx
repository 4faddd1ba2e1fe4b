import { useEffect } from "react";
import { interruptActive } from "./actions.js";
import { DockLayout } from "./layout/DockLayout.js";

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
}

export function App() {
  useEffect(() => {
    // Esc anywhere outside a text field interrupts the running session (the composer handles its own).
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === "Escape" && !isTyping(e.target) && !e.defaultPrevented) interruptActive();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  return <DockLayout />;
}
