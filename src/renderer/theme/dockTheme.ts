// The dock's theme (dockview's `theme` option): one for both of Baton's themes, because its class
// (themes.css) maps dockview's variables to Baton's, which <html data-theme> switches.
import type { DockviewTheme } from "dockview";

export const BatonDockTheme: DockviewTheme = {
  name: "baton",
  className: "dockview-theme-baton",
};
