import { KeyboardLayer } from "./keys/KeyboardLayer.js";
import { DockLayout } from "./layout/DockLayout.js";
import { CopyNote } from "./session/ContinueInTerminal.js";

export function App() {
  // The keyboard layer holds the window's shortcuts (Esc outside a text field interrupts the
  // running session; the composer handles its own), the command palette and the shortcuts sheet.
  return (
    <>
      <DockLayout />
      <KeyboardLayer />
      <CopyNote />
    </>
  );
}
